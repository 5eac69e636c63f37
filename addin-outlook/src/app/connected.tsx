// The signed-in pane past its first view, a chunk of its own (see App.tsx): the API client with
// its zod contracts (which also check the first view's answers: contractsLoaded), the realtime
// socket, the drawer and mini drawer providers, the toaster and the full Pane.
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { contractsLoaded, createApi, realtimeUrl, type RealtimeClientOptions } from '@dealscout/shared/client';
import * as contracts from '@dealscout/shared/contracts';
import { migrateUserConfig } from '@dealscout/shared/domain';
import { ApiProvider, AppToaster, DrawerProvider, MiniDrawerProvider, RealtimeProvider, useApi } from '@dealscout/shared/ui';
import type { OutlookHost } from '../office/outlook';
import type { Session, SessionStore } from '../session/session';
import { Pane } from '../pane/Pane';
import { USER_QUERY_KEY } from '../pane/prefetch';
import type { MailItemState } from '../pane/useMailItem';

void contractsLoaded(contracts);

/** The realtime socket waits this long at most for the first view's requests. */
export const SOCKET_AFTER_FIRST_VIEW_MAX_MS = 1500;

export interface SignedInPartsProps {
  host: OutlookHost;
  store: SessionStore;
  session: Session;
  realtimeOptions?: Partial<Omit<RealtimeClientOptions, 'url' | 'getToken'>>;
  /** Settles when the first view's requests have (null: none were made before the first render). */
  firstView: Promise<void> | null;
  mail: MailItemState;
}

export function SignedInParts({ host, store, session, realtimeOptions, firstView, mail }: SignedInPartsProps) {
  // One client per sign-in (App keys the signed-in pane by the token): a new client would reopen the
  // realtime socket.
  const [api] = useState(() => createApi(store.apiOptions(session.serverUrl, session)));
  // The realtime socket (a token request, then the upgrade) opens, and the user's runs are asked
  // for, once the first view's requests are answered, so they do not compete with them for the
  // pane's thread and the server.
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
      <RealtimeProvider
        identity={live ? { uid: session.user.id, oid: session.user.organizationId } : null}
        url={realtimeUrl(session.serverUrl)}
        clientOptions={realtimeOptions}
      >
        <DrawerProvider initialVisibility="Visible">
          <MiniDrawerProvider>
            <Workspace host={host} store={store} session={session} mail={mail} firstViewDone={live} />
          </MiniDrawerProvider>
        </DrawerProvider>
      </RealtimeProvider>
      <AppToaster />
    </ApiProvider>
  );
}

/** Shows the pane at once; the drawer waits for the user's saved config (section states, tab), loaded once. */
interface WorkspaceProps {
  host: OutlookHost;
  store: SessionStore;
  session: Session;
  mail: MailItemState;
  firstViewDone: boolean;
}

function Workspace({ host, store, session, mail, firstViewDone }: WorkspaceProps) {
  const api = useApi();
  const user = useQuery({ queryKey: USER_QUERY_KEY, queryFn: () => api.user.get(), staleTime: Infinity });
  useEffect(() => {
    if (user.data) store.updateUser(user.data.user);
  }, [user.data, store]);
  // Taken once, in the render where the user has come (no extra commit and effect pass before the drawer).
  const [config, setConfig] = useState<ReturnType<typeof migrateUserConfig> | null>(null);
  if (!config && (user.data || user.isError)) setConfig(migrateUserConfig((user.data?.user ?? session.user).settings));
  const u = user.data?.user ?? session.user;
  return (
    <Pane
      host={host}
      mail={mail}
      userId={u.id}
      userName={`${u.firstName} ${u.lastName}`.trim() || u.email}
      initialConfig={config}
      onSignOut={() => void store.signOut()}
      firstViewDone={firstViewDone}
    />
  );
}
