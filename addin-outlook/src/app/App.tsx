// The task pane's root: Fluent, plugin mode (the drawer has no close button, modals take the full
// width), then either the sign-in or the signed-in pane with its API client, query cache, realtime
// socket, drawer and mini drawer.
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { FluentProvider, Spinner, webLightTheme } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { ApiError, realtimeUrl, type RealtimeClientOptions } from '@dealscout/shared/client';
import { migrateUserConfig } from '@dealscout/shared/domain';
import { ApiProvider, AppToaster, DrawerProvider, MiniDrawerProvider, PluginModeProvider, RealtimeProvider, useApi } from '@dealscout/shared/ui';
import type { OutlookHost } from '../office/outlook';
import { SignIn } from '../session/SignIn';
import type { Session, SessionStore } from '../session/session';
import { Pane } from '../pane/Pane';

export interface AppProps {
  host: OutlookHost;
  store: SessionStore;
  /** Tests pass a socket factory and short delays. */
  realtimeOptions?: Partial<Omit<RealtimeClientOptions, 'url' | 'getToken'>>;
}

function newQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        staleTime: 30_000,
        retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      },
      mutations: { retry: false },
    },
  });
}

function SignedIn({ host, store, session, realtimeOptions }: AppProps & { session: Session }) {
  const api = useMemo(() => store.api(session.serverUrl, session), [store, session]);
  const [queryClient] = useState(newQueryClient);
  useEffect(() => () => queryClient.clear(), [queryClient]);
  return (
    <ApiProvider api={api}>
      <QueryClientProvider client={queryClient}>
        <RealtimeProvider identity={{ uid: session.user.id, oid: session.user.organizationId }} url={realtimeUrl(session.serverUrl)} clientOptions={realtimeOptions}>
          <DrawerProvider initialVisibility="Visible">
            <MiniDrawerProvider>
              <Workspace host={host} store={store} session={session} />
            </MiniDrawerProvider>
          </DrawerProvider>
        </RealtimeProvider>
        <AppToaster />
      </QueryClientProvider>
    </ApiProvider>
  );
}

/** Loads the user's saved drawer config (section states, tab) once, then shows the pane. */
function Workspace({ host, store, session }: { host: OutlookHost; store: SessionStore; session: Session }) {
  const api = useApi();
  const user = useQuery({ queryKey: ['user'], queryFn: () => api.user.get(), staleTime: Infinity });
  useEffect(() => {
    if (user.data) store.updateUser(user.data.user);
  }, [user.data, store]);
  const [config, setConfig] = useState<ReturnType<typeof migrateUserConfig> | null>(null);
  useEffect(() => {
    if (!config && (user.data || user.isError)) setConfig(migrateUserConfig((user.data?.user ?? session.user).settings));
  }, [user.data, user.isError, config, session.user]);
  if (!config) return <Spinner style={{ marginTop: 48 }} label="Loading..." />;
  const u = user.data?.user ?? session.user;
  return (
    <Pane
      host={host}
      userId={u.id}
      userName={`${u.firstName} ${u.lastName}`.trim() || u.email}
      initialConfig={config}
      onSignOut={() => void store.signOut()}
    />
  );
}

export function App(props: AppProps) {
  const session = useSyncExternalStore((l) => props.store.subscribe(l), () => props.store.current());
  return (
    <FluentProvider theme={webLightTheme} style={{ minHeight: '100vh' }}>
      <PluginModeProvider value>
        {session ? <SignedIn key={session.token} {...props} session={session} /> : <SignIn store={props.store} />}
        {!session && <AppToaster />}
      </PluginModeProvider>
    </FluentProvider>
  );
}
