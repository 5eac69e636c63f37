import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { AppToaster, PluginModeProvider, ApiProvider } from '@dealscout/shared/ui';
import { api } from './api';
import type { createAppRouter } from './router';

export function App({ queryClient, router }: { queryClient: QueryClient; router: ReturnType<typeof createAppRouter> }) {
  return (
    <FluentProvider theme={webLightTheme} style={{ minHeight: '100vh' }}>
      <PluginModeProvider value={false}>
        <ApiProvider api={api}>
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
            <AppToaster />
          </QueryClientProvider>
        </ApiProvider>
      </PluginModeProvider>
    </FluentProvider>
  );
}
