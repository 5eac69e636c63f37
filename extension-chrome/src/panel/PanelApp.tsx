// The side panel: the server address (options page) and the bearer-token session from extension
// storage, then sign-in or the record of the active tab. Shared UI runs in plugin mode: the drawer
// has no close button and modals take the full width.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  Avatar,
  Button,
  FluentProvider,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Spinner,
  Text,
  makeStyles,
  tokens,
  webLightTheme,
} from '@fluentui/react-components';
import { SignOutRegular, SettingsRegular } from '@fluentui/react-icons';
import { ApiError, createApi, realtimeUrl, type Api } from '@dealscout/shared/client';
import type { TokenResponse } from '@dealscout/shared/contracts';
import {
  ActiveRuns,
  ApiProvider,
  AppToaster,
  DrawerProvider,
  MiniDrawer,
  MiniDrawerProvider,
  PluginModeProvider,
  RealtimeProvider,
  useDrawer,
} from '@dealscout/shared/ui';
import type { PanelHost, StoredSession } from '../host/types';
import { DEFAULT_SERVER_URL } from './server-url';
import { SignIn } from './SignIn';
import { RecordPanel } from './RecordPanel';
import { usePageRecord } from './usePageRecord';

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

  const api: Api = useMemo(
    () =>
      createApi({
        baseUrl: serverUrl,
        getToken: () => token,
        // A revoked or expired token: back to sign-in, saying why.
        onUnauthorized: () => {
          if (token) void signOutLocally(SESSION_ENDED);
        },
      }),
    [serverUrl, token, signOutLocally],
  );

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
    await api.auth.revokeToken().catch(() => undefined);
    await signOutLocally(null);
  };

  const session = loaded?.session ?? null;
  return (
    <FluentProvider theme={webLightTheme}>
      <PluginModeProvider value>
        <QueryClientProvider client={queryClient}>
          <ApiProvider api={api}>
            <div className={styles.root} data-testid="side-panel">
              <header className={styles.header}>
                <Text className={styles.brand}>Dealscout</Text>
                {session ? (
                  <Menu>
                    <MenuTrigger disableButtonEnhancement>
                      <Button
                        appearance="subtle"
                        size="small"
                        icon={<Avatar size={20} name={`${session.user.firstName} ${session.user.lastName}`} />}
                        data-testid="panel-user"
                        aria-label={`Signed in as ${session.user.email}`}
                      />
                    </MenuTrigger>
                    <MenuPopover>
                      <MenuList>
                        <MenuItem disabled>{session.user.email}</MenuItem>
                        <MenuItem icon={<SettingsRegular />} onClick={host.openOptions}>
                          Server address
                        </MenuItem>
                        <MenuItem icon={<SignOutRegular />} onClick={() => void signOut()} data-testid="panel-sign-out">
                          Sign out
                        </MenuItem>
                      </MenuList>
                    </MenuPopover>
                  </Menu>
                ) : null}
              </header>
              <div className={styles.body}>
                {!loaded ? (
                  <div className={styles.center}>
                    <Spinner aria-label="Loading" size="small" />
                  </div>
                ) : session ? (
                  <SignedIn host={host} session={session} />
                ) : (
                  <SignIn serverUrl={serverUrl} notice={notice} onSignedIn={(r) => void signedIn(r)} onChangeServer={host.openOptions} />
                )}
              </div>
            </div>
            {/* At the bottom: the panel's top is its header and toolbar. */}
            <AppToaster position="bottom" />
          </ApiProvider>
        </QueryClientProvider>
      </PluginModeProvider>
    </FluentProvider>
  );
}

/** The mini drawer: Run Play runs on the record the drawer shows. */
function PanelMiniDrawer({ session }: { session: StoredSession }) {
  const drawer = useDrawer();
  return (
    <MiniDrawer
      defaultOwnerId={session.user.id}
      runPlayTarget={drawer.target}
      onNewPlay={() => window.open(`${session.serverUrl}/playbooks/new`, '_blank', 'noopener')}
    />
  );
}

function SignedIn({ host, session }: { host: PanelHost; session: StoredSession }) {
  const page = usePageRecord(host);
  return (
    <RealtimeProvider identity={{ uid: session.user.id, oid: session.user.organizationId }} url={realtimeUrl(session.serverUrl)}>
      <DrawerProvider>
        <MiniDrawerProvider>
          {/* The user's long runs (an enrichment or a play over many rows), each with Cancel. */}
          <ActiveRuns style={{ marginBottom: '8px' }} />
          <RecordPanel page={page} userId={session.user.id} />
          <PanelMiniDrawer session={session} />
        </MiniDrawerProvider>
      </DrawerProvider>
    </RealtimeProvider>
  );
}
