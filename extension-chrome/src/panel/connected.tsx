// What the side panel needs once it talks to the server, in a chunk of its own that loads beside
// the panel's first view: the API client (its zod contracts), the sign-in form, and for a signed-in
// panel the realtime socket, the drawer and mini drawer, the user's long runs and the record part.
import { useMemo, type ReactNode } from 'react';
import { createApi, realtimeUrl, type Api } from '@dealscout/shared/client';
import type { TokenResponse } from '@dealscout/shared/contracts';
import { ActiveRuns, ApiProvider, DrawerProvider, MiniDrawer, MiniDrawerProvider, RealtimeProvider, useDrawer } from '@dealscout/shared/ui';
import type { StoredSession } from '../host/types';
import type { PageState } from './usePageRecord';
import { RecordPanel } from './RecordPanel';
import { SignIn } from './SignIn';

interface Connection {
  serverUrl: string;
  token: string | null;
  /** A 401 on a request made with the token. */
  onUnauthorized(): void;
}

function ApiScope({ serverUrl, token, onUnauthorized, children }: Connection & { children: ReactNode }) {
  const api: Api = useMemo(
    () => createApi({ baseUrl: serverUrl, getToken: () => token, onUnauthorized }),
    [serverUrl, token, onUnauthorized],
  );
  return <ApiProvider api={api}>{children}</ApiProvider>;
}

/** Revokes the session's token on its server (sign-out). */
export async function revokeToken(serverUrl: string, token: string): Promise<void> {
  await createApi({ baseUrl: serverUrl, getToken: () => token }).auth.revokeToken();
}

export function SignInScope(
  props: Omit<Connection, 'token'> & { notice: string | null; onSignedIn(res: TokenResponse): void; onChangeServer(): void },
) {
  return (
    <ApiScope serverUrl={props.serverUrl} token={null} onUnauthorized={props.onUnauthorized}>
      <SignIn serverUrl={props.serverUrl} notice={props.notice} onSignedIn={props.onSignedIn} onChangeServer={props.onChangeServer} />
    </ApiScope>
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

export function SignedInParts({ session, page, onUnauthorized }: { session: StoredSession; page: PageState; onUnauthorized(): void }) {
  return (
    <ApiScope serverUrl={session.serverUrl} token={session.token} onUnauthorized={onUnauthorized}>
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
    </ApiScope>
  );
}
