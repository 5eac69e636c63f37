// The task pane's root: Fluent, plugin mode (the drawer has no close button, modals take the full
// width), then either the sign-in or the signed-in pane with its API client, query cache, realtime
// socket, drawer and mini drawer.
import { Suspense, lazy, useEffect, useState, useSyncExternalStore } from 'react';
import { FluentProvider, Spinner, webLightTheme } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { ApiError, realtimeUrl, type Api, type RealtimeClientOptions } from '@dealscout/shared/client';
import { migrateUserConfig } from '@dealscout/shared/domain';
import {
  ApiProvider,
  AppToaster,
  DrawerProvider,
  MiniDrawerProvider,
  PluginModeProvider,
  RealtimeProvider,
  useApi,
} from '@dealscout/shared/ui';
import type { OutlookHost } from '../office/outlook';
import type { Session, SessionStore } from '../session/session';
import { Pane } from '../pane/Pane';
import { prefetchFirstView } from '../pane/prefetch';

// Signed in, the pane never needs the sign-in form: it loads only when there is no session.
const SignIn = lazy(() => import('../session/SignIn').then((m) => ({ default: m.SignIn })));

export interface AppProps {
  host: OutlookHost;
  store: SessionStore;
  /** Tests pass a socket factory and short delays. */
  realtimeOptions?: Partial<Omit<RealtimeClientOptions, 'url' | 'getToken'>>;
  /** The signed-in session's client and cache, started before the first render (startPane). */
  boot?: Boot | null;
}

export interface Boot {
  token: string;
  api: Api;
  queryClient: QueryClient;
  /** Settles when the first view's requests have (see prefetchFirstView). */
  firstView: Promise<void>;
}

/** The realtime socket waits this long at most for the first view's requests. */
export const SOCKET_AFTER_FIRST_VIEW_MAX_MS = 1500;

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

/**
 * For a signed-in pane, as soon as Office is ready and before React renders anything: the API
 * client, the query cache, and the first view's requests (the email's people, then the first
 * one's contact) already on their way.
 */
export function startPane(host: OutlookHost, store: SessionStore): Boot | null {
  const session = store.current();
  if (!session) return null;
  const api = store.api(session.serverUrl, session);
  const queryClient = newQueryClient();
  return { token: session.token, api, queryClient, firstView: prefetchFirstView(host, api, queryClient) };
}

function SignedIn({ host, store, session, realtimeOptions, boot }: AppProps & { session: Session }) {
  // One client and one cache per sign-in (this component is keyed by the token): the session object
  // changes when the user's profile is refreshed, and a new client would reopen the realtime socket.
  const [{ api, queryClient, firstView }] = useState(() =>
    boot?.token === session.token ? boot : { api: store.api(session.serverUrl, session), queryClient: newQueryClient(), firstView: null },
  );
  useEffect(() => () => queryClient.clear(), [queryClient]);
  // The realtime socket (a token request, then the upgrade) opens once the first view's requests
  // are answered, so it does not compete with them for the pane's thread and the server.
  const [live, setLive] = useState(!firstView);
  useEffect(() => {
    if (!firstView) return undefined;
    let alive = true;
    const go = () => alive && setLive(true);
    const t = setTimeout(go, SOCKET_AFTER_FIRST_VIEW_MAX_MS);
    void firstView.then(go);
    return () => {
      alive = false;
      clearTimeout(t);
    };
  }, [firstView]);
  return (
    <ApiProvider api={api}>
      <QueryClientProvider client={queryClient}>
        <RealtimeProvider
          identity={live ? { uid: session.user.id, oid: session.user.organizationId } : null}
          url={realtimeUrl(session.serverUrl)}
          clientOptions={realtimeOptions}
        >
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

/** Shows the pane at once; the drawer waits for the user's saved config (section states, tab), loaded once. */
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
  const session = useSyncExternalStore(
    (l) => props.store.subscribe(l),
    () => props.store.current(),
  );
  return (
    <FluentProvider theme={webLightTheme} style={{ minHeight: '100vh' }}>
      <PluginModeProvider value>
        {session ? (
          <SignedIn key={session.token} {...props} session={session} />
        ) : (
          <Suspense fallback={<Spinner aria-label="Loading" style={{ marginTop: 48 }} />}>
            <SignIn store={props.store} />
          </Suspense>
        )}
        {!session && <AppToaster />}
      </PluginModeProvider>
    </FluentProvider>
  );
}
