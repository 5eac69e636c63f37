import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isAuthError } from '@dealscout/shared/domain';
import { ApiError } from '@dealscout/shared/client';
import { sessionEvents } from '../modules/session/session-events';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { authSignOut?: boolean };
    mutationMeta: { authSignOut?: boolean };
  }
}

// Spec 000 §4 'Session': authentication-type errors sign the user out. Queries and mutations that
// must not (public pages, the config save) set meta.authSignOut = false.
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.authSignOut !== false && isAuthError(error)) sessionEvents.authError(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        if (mutation.meta?.authSignOut !== false && isAuthError(error)) sessionEvents.authError(error);
      },
    }),
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        staleTime: 30_000,
        // Client errors (4xx) are answers, not glitches: no retry.
        retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      },
      mutations: { retry: false },
    },
  });
}
