// Signs the user out: on an explicit Logout, on a 401 from any call, and on authentication-type
// errors (spec 000 §4 'Session'). The server logout is best effort; the local state always goes.
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { sessionEvents } from './session-events';
import { USER_KEY } from './hooks/useSession';

type Navigate = (to: string) => void;

let queryClientRef: QueryClient | null = null;
let navigateRef: Navigate | null = null;
let signingOut: Promise<void> | null = null;

export function signOut(): Promise<void> {
  if (signingOut) return signingOut;
  signingOut = (async () => {
    // The signed-in screens go first (their queries, polls and the realtime socket with them), then
    // the server session: a request still running after the session ended would answer 401.
    const qc = queryClientRef;
    if (qc) {
      await qc.cancelQueries();
      qc.setQueryData(USER_KEY, null);
    }
    navigateRef?.('/login');
    qc?.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
    try {
      await api.auth.logout();
    } catch {
      // Best effort: the session may already be gone.
    }
  })().finally(() => {
    signingOut = null;
  });
  return signingOut;
}

function signedIn(): boolean {
  return !!queryClientRef?.getQueryData(USER_KEY);
}

export function installSessionController(queryClient: QueryClient, navigate: Navigate): void {
  queryClientRef = queryClient;
  navigateRef = navigate;
  sessionEvents.register({
    // Only a signed-in user is signed out: a wrong password on the sign-in page is also a 401.
    unauthorized: () => {
      if (signedIn()) void signOut();
    },
    authError: () => {
      if (signedIn()) void signOut();
    },
  });
}
