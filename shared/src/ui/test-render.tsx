// Test-only: renders a shared component the way a client does (Fluent theme, TanStack Query,
// the API client, the toaster, plugin mode), with a fake Api at the component boundary.
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Api } from '../client';
import { ApiProvider } from './ApiContext';
import { AppToaster } from './toast';
import { PluginModeProvider } from './PluginMode';

/** Deeply partial Api: only the methods a test uses; calling any other one fails the test. */
export type FakeApi = { [K in keyof Api]?: Partial<Api[K]> };

export function fakeApi(parts: FakeApi): Api {
  const handler = (path: string): ProxyHandler<object> => ({
    get(target, prop) {
      if (typeof prop === 'symbol' || prop === 'then') return undefined;
      if (prop in target) return (target as Record<string, unknown>)[prop];
      return new Proxy(
        () => {
          throw new Error(`Unexpected API call: ${path}.${prop}`);
        },
        handler(`${path}.${prop}`),
      );
    },
  });
  const root: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(parts)) root[k] = new Proxy(v as object, handler(k));
  return new Proxy(root, handler('api')) as unknown as Api;
}

export function renderWithApi(ui: ReactElement, api: Api, opts: { pluginMode?: boolean } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } } });
  const result = render(
    <FluentProvider theme={webLightTheme}>
      <PluginModeProvider value={opts.pluginMode ?? false}>
        <QueryClientProvider client={queryClient}>
          <ApiProvider api={api}>
            {ui}
            <AppToaster />
          </ApiProvider>
        </QueryClientProvider>
      </PluginModeProvider>
    </FluentProvider>,
  );
  return { ...result, queryClient };
}

/**
 * Watches the page for a text from now on: `seen()` is true once it appeared, even if it is gone
 * again. For short-lived toasts (the copy toast lives 500 ms, less than a render can take on a
 * loaded machine), where polling for it after the action can miss it.
 */
export function watchForText(text: string) {
  let seen = document.body.textContent?.includes(text) ?? false;
  const observer = new MutationObserver(() => {
    if (document.body.textContent?.includes(text)) seen = true;
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  return { seen: () => seen, stop: () => observer.disconnect() };
}
