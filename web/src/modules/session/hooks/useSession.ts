import { createContext, useContext } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { UserDto, UserSettingsBody } from '@dealscout/shared/contracts';
import { migrateUserConfig, type UserConfig } from '@dealscout/shared/domain';
import { api, ApiError } from '../../../app/api';
import { firstViewRoutes, mayHaveSessionCookie, type FirstViewClient } from '@dealscout/shared/client';

export const SETUP_KEY = ['session', 'setup'] as const;
export const USER_KEY = ['session', 'user'] as const;

/** GET /api/v1/setup: whether the first-run screen is needed. */
export const setupQuery = queryOptions({
  queryKey: SETUP_KEY,
  queryFn: () => api.setup.status(),
  staleTime: Infinity,
  meta: { authSignOut: false },
});

export function useSetupStatus() {
  return useQuery(setupQuery);
}

/**
 * GET /api/v1/user: the signed-in user, null when signed out (401). Without the session's cookie
 * the page is signed out for sure and asks nothing: a signed-out page is not an error, and the
 * browser logs every 401 in the console.
 */
export function fetchSignedInUser(): Promise<UserDto | null> {
  return signedInUser(async () => (await api.user.get()).user);
}

async function signedInUser(get: () => Promise<UserDto>): Promise<UserDto | null> {
  if (!mayHaveSessionCookie()) return null;
  try {
    return await get();
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

/** The signed-in user (fetchSignedInUser), cached for the session. */
export const userQuery = queryOptions({
  queryKey: USER_KEY,
  queryFn: fetchSignedInUser,
  staleTime: Infinity,
  retry: false,
  // The auth gate decides what a failed user fetch means (sign-in page or error screen).
  meta: { authSignOut: false },
});

/**
 * The first load's setup check and user, through the first view's client (no contracts yet: the
 * answers are checked once they have loaded), under the same keys as setupQuery and userQuery.
 */
export function prefetchSession(queryClient: QueryClient, firstView: FirstViewClient): Promise<void>[] {
  const setup = queryClient.prefetchQuery({ ...setupQuery, queryFn: () => firstView.take(firstViewRoutes.setupStatus(), SETUP_KEY) });
  if (!mayHaveSessionCookie()) return [setup];
  const user = queryClient.prefetchQuery({
    ...userQuery,
    queryFn: () => signedInUser(() => firstView.take(firstViewRoutes.user(), USER_KEY, (answer) => answer.user)),
  });
  return [setup, user];
}

export function useUserQuery(enabled = true) {
  return useQuery({ ...userQuery, enabled });
}

export function setSignedInUser(queryClient: QueryClient, user: UserDto | null): void {
  queryClient.setQueryData(USER_KEY, user);
}

/** The signed-in user, provided by RequireAuth to everything inside the shell. */
export const UserContext = createContext<UserDto | null>(null);

export function useUser(): UserDto {
  const user = useContext(UserContext);
  if (!user) throw new Error('useUser() is only available inside RequireAuth');
  return user;
}

export function useUserConfig(): UserConfig {
  return migrateUserConfig(useUser().settings);
}

/**
 * PUT /api/v1/user/settings with an optimistic update of the cached user. A failed save is only
 * logged (spec 000 §4): the choice stays for this visit.
 */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: UserSettingsBody) => api.user.saveSettings(patch),
    meta: { authSignOut: false },
    onMutate: (patch) => {
      // Deep merge, as the server does: saving drawer.visibility keeps drawer.company and the rest.
      queryClient.setQueryData<UserDto | null>(USER_KEY, (u) =>
        u ? { ...u, settings: mergeSettings(u.settings, patch as Record<string, unknown>) } : u,
      );
    },
    onError: (error) => {
      console.error('Could not save the user settings', error);
    },
  });
}

/** Plain-object deep merge of a settings patch (arrays and scalars replace). */
export function mergeSettings(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    const cur = out[k];
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && cur && typeof cur === 'object' && !Array.isArray(cur)
        ? mergeSettings(cur as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}
