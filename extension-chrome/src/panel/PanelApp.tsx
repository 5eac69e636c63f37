// The side panel: the server address (options page) and the bearer-token session from extension
// storage, then sign-in or the record of the active tab. Shared UI runs in plugin mode: the drawer
// has no close button and modals take the full width.
import { Suspense, lazy, useCallback, useEffect, useMemo, useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { FluentProvider, Spinner, Text, makeStyles, tokens, webLightTheme } from '@fluentui/react-components';
import { ApiError } from '@dealscout/shared/client';
import type { TokenResponse } from '@dealscout/shared/contracts';
import { AppToaster, PluginModeProvider } from '@dealscout/shared/ui';
import type { PanelHost, StoredSession } from '../host/types';
import { DEFAULT_SERVER_URL } from './server-url';
import { PageStatus } from './record-panel-common';
import { usePageRecord } from './usePageRecord';

// The panel's first chunk holds its frame and its first view (reading the page, 'open a CRM
// page'). What talks to the server (the API client and its contracts, the sign-in form, the realtime
// socket, the drawer and the record part: connected.tsx) and the user menu are chunks of their own,
// asked for as the panel starts.
const connected = () => import('./connected');
const SignInScope = lazy(() => connected().then((m) => ({ default: m.SignInScope })));
const SignedInParts = lazy(() => connected().then((m) => ({ default: m.SignedInParts })));
const UserMenu = lazy(() => import('./UserMenu'));

export const SESSION_ENDED = 'Your session has ended. Please sign in again.';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', height: '100vh', backgroundColor: tokens.colorNeutralBackground1 },
  header: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  brand: { fontWeight: tokens.fontWeightSemibold, flexGrow: 1 },
  body: { flexGrow: 1, minHeight: 0, display: 'flex', flexDirection: 'column', overflowY: 'auto' },
  center: { display: 'flex', justifyContent: 'center', padding: '40px' },
});

function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, staleTime: 30_000, retry: (n, e) => !(e instanceof ApiError && e.status < 500) && n < 2 },
      mutations: { retry: false },
    },
  });
}

type Loaded = { serverUrl: string; session: StoredSession | null };

export function PanelApp({ host, queryClient: given }: { host: PanelHost; queryClient?: QueryClient }) {
  const styles = useStyles();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const queryClient = useMemo(() => given ?? createQueryClient(), [given]);

  const reload = useCallback(async () => {
    const [settings, session] = await Promise.all([host.store.getSettings(), host.store.getSession()]);
    const serverUrl = settings?.serverUrl ?? DEFAULT_SERVER_URL;
    // A session of another server is not used against this one.
    setLoaded({ serverUrl, session: session && session.serverUrl === serverUrl ? session : null });
  }, [host]);
  useEffect(() => {
    void reload();
    return host.store.onChange(() => void reload());
  }, [host, reload]);
  // The connected chunk is needed next either way (sign-in or the record): asked for at once.
  useEffect(() => void connected(), []);

  const serverUrl = loaded?.serverUrl ?? DEFAULT_SERVER_URL;
  const token = loaded?.session?.token ?? null;
  const signOutLocally = useCallback(
    async (why: string | null) => {
      setNotice(why);
      queryClient.clear();
      await host.store.setSession(null);
    },
    [host, queryClient],
  );

  // A revoked or expired token: back to sign-in, saying why.
  const onUnauthorized = useCallback(() => {
    if (token) void signOutLocally(SESSION_ENDED);
  }, [token, signOutLocally]);

  const signedIn = async (res: TokenResponse) => {
    setNotice(null);
    queryClient.clear();
    const u = res.user;
    await host.store.setSession({
      serverUrl,
      token: res.token,
      tokenId: res.tokenId,
      expiresAt: res.expiresAt,
      user: { id: u.id, organizationId: u.organizationId, email: u.email, firstName: u.firstName, lastName: u.lastName },
    });
  };
  const signOut = async () => {
    if (token) await (await connected()).revokeToken(serverUrl, token).catch(() => undefined);
    await signOutLocally(null);
  };

  const session = loaded?.session ?? null;
  return (
    <FluentProvider theme={webLightTheme}>
      <PluginModeProvider value>
        <QueryClientProvider client={queryClient}>
          <div className={styles.root} data-testid="side-panel">
            <header className={styles.header}>
              <Text className={styles.brand}>Dealscout</Text>
              {session ? (
                <Suspense fallback={null}>
                  <UserMenu session={session} onOpenOptions={host.openOptions} onSignOut={() => void signOut()} />
                </Suspense>
              ) : null}
            </header>
            <div className={styles.body}>
              {!loaded ? (
                <div className={styles.center}>
                  <Spinner aria-label="Loading" size="small" />
                </div>
              ) : session ? (
                <SignedIn host={host} session={session} onUnauthorized={onUnauthorized} />
              ) : (
                <Suspense
                  fallback={
                    <div className={styles.center}>
                      <Spinner aria-label="Loading" size="small" />
                    </div>
                  }
                >
                  <SignInScope
                    serverUrl={serverUrl}
                    onUnauthorized={onUnauthorized}
                    notice={notice}
                    onSignedIn={(r) => void signedIn(r)}
                    onChangeServer={host.openOptions}
                  />
                </Suspense>
              )}
            </div>
          </div>
          {/* At the bottom: the panel's top is its header and toolbar. */}
          <AppToaster position="bottom" />
        </QueryClientProvider>
      </PluginModeProvider>
    </FluentProvider>
  );
}

/**
 * The signed-in body: the page's status at once (the first view), then, as the connected chunk
 * arrives, the same view inside the API, realtime and drawer providers, and the record part.
 */
function SignedIn({ host, session, onUnauthorized }: { host: PanelHost; session: StoredSession; onUnauthorized(): void }) {
  const page = usePageRecord(host);
  return (
    <Suspense fallback={<PageStatus page={page} />}>
      <SignedInParts session={session} page={page} onUnauthorized={onUnauthorized} />
    </Suspense>
  );
}
