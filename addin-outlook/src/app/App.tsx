// The task pane's root: Fluent, plugin mode (the drawer has no close button, modals take the full
// width), then either the sign-in or the signed-in pane. The first chunk holds the frame and the
// signed-in pane's first view (pane/FirstView.tsx: the email's people matched, through
// pane/first-view-api.ts); once that has shown, the connected chunk (app/connected.tsx: the API
// client with its contracts, the realtime socket, the toaster, the drawer providers and the full
// Pane with its menu and tooltips) and the drawer's chunk load — at once when the first chunk came
// from the browser's cache. The sign-in form is a chunk too.
import { Suspense, lazy, useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { FluentProvider, Spinner, webLightTheme } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError, type RealtimeClientOptions } from '@dealscout/shared/client';
import { PluginModeProvider } from '@dealscout/shared/ui';
import type { MailItem, OutlookHost } from '../office/outlook';
import type { Session, SessionStore } from '../session/session';
import { FirstView } from '../pane/FirstView';
import { firstViewApi, type FirstViewApi } from '../pane/first-view-api';
import { preloadPaneParts } from '../pane/parts-loader';
import { chunk, lazyPart } from './chunk';
import { prefetchFirstView } from '../pane/prefetch';
import { useMailItem } from '../pane/useMailItem';

// Signed in, the pane never needs the sign-in form: it loads only when there is no session.
const SignInScreen = lazy(() => import('../session/SignIn').then((m) => ({ default: m.SignInScreen })));
const connected = chunk(() => import('./connected'));
const SignedInParts = lazyPart(connected, (m) => m.SignedInParts);

/**
 * True when the pane's first chunk came from the browser's cache (a re-opened pane; hashed chunks
 * are cached as immutable): the rest is then most likely cached too and costs no network, so it
 * loads at once instead of after the first view.
 */
export function firstChunkCached(url: string = import.meta.url): boolean {
  const timing = globalThis.performance?.getEntriesByName?.(url)[0] as PerformanceResourceTiming | undefined;
  return !!timing && timing.transferSize === 0 && timing.decodedBodySize > 0;
}

export interface AppProps {
  host: OutlookHost;
  store: SessionStore;
  /** Tests pass a socket factory and short delays. */
  realtimeOptions?: Partial<Omit<RealtimeClientOptions, 'url' | 'getToken'>>;
  /** The signed-in session's cache and first requests, started before the first render (startPane). */
  boot?: Boot | null;
}

export interface Boot {
  token: string;
  /** The first view's requests, their answers checked once the contracts load (first-view-api.ts). */
  api: FirstViewApi;
  queryClient: QueryClient;
  /** Settles when the first view's requests have (see prefetchFirstView). */
  firstView: Promise<void> | null;
  /** The rest of the pane loads at once, not after the first view (firstChunkCached). */
  restAtOnce?: boolean;
  /** The email, read once for the first view's requests (startPane). */
  item?: Promise<MailItem | null>;
  /** The email as read before the first render (main.tsx waits for `item`): the pane renders with it at once. */
  firstItem?: MailItem | null;
}

/** The connected chunk loads when the first view has shown, or after this long at most. */
export const CONNECTED_AFTER_MAX_MS = 2000;

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

function bootOf(store: SessionStore, session: Session): Boot {
  const queryClient = newQueryClient();
  return {
    token: session.token,
    api: firstViewApi(store.apiOptions(session.serverUrl, session), queryClient),
    queryClient,
    firstView: null,
  };
}

/**
 * For a signed-in pane, as soon as Office is ready and before React renders anything: the query
 * cache, and the first view's requests (the email's people, then the first one's contact and the
 * user) already on their way.
 */
export function startPane(host: OutlookHost, store: SessionStore): Boot | null {
  const session = store.current();
  if (!session) return null;
  const boot = bootOf(store, session);
  const item = host.currentItem();
  const firstView = prefetchFirstView(host, boot.api, boot.queryClient, item);
  return { ...boot, firstView, item, restAtOnce: connected.loaded() !== null };
}

/**
 * Signed in with the first chunk from the browser's cache (firstChunkCached): the connected and
 * drawer chunks start loading (main.tsx calls this first and asks for Office once they have
 * loaded, as if they were part of the first chunk); null otherwise.
 */
export function preloadRest(store: SessionStore): Promise<unknown> | null {
  if (!store.current() || !firstChunkCached()) return null;
  return Promise.all([connected.load(), preloadPaneParts()]).catch((e: unknown) => console.warn('Could not load the pane', e));
}

function SignedIn({ host, store, session, realtimeOptions, boot }: AppProps & { session: Session }) {
  // One cache per sign-in (this component is keyed by the token): the session object changes when
  // the user's profile is refreshed.
  const [{ api, queryClient, firstView, restAtOnce, firstItem }] = useState(() =>
    boot?.token === session.token ? boot : bootOf(store, session),
  );
  useEffect(() => () => queryClient.clear(), [queryClient]);
  const mail = useMailItem(host, firstItem);
  // The rest of the pane (the connected and drawer chunks) loads once the first view has shown
  // (at once when it is cached: restAtOnce).
  const [rest, setRest] = useState(!!restAtOnce);
  const showRest = useCallback(() => setRest(true), []);
  useEffect(() => {
    const t = setTimeout(showRest, CONNECTED_AFTER_MAX_MS);
    return () => clearTimeout(t);
  }, [showRest]);
  useEffect(() => {
    if (rest) void preloadPaneParts();
  }, [rest]);
  const first = <FirstView host={host} mail={mail} api={api} onShown={showRest} />;
  return (
    <QueryClientProvider client={queryClient}>
      {rest ? (
        <Suspense fallback={first}>
          <SignedInParts host={host} store={store} session={session} realtimeOptions={realtimeOptions} firstView={firstView} mail={mail} />
        </Suspense>
      ) : (
        first
      )}
    </QueryClientProvider>
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
            <SignInScreen store={props.store} />
          </Suspense>
        )}
      </PluginModeProvider>
    </FluentProvider>
  );
}
