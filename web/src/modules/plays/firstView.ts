// The playbook table as it opens (page 0, no search, filters or sort) and the users its Created By
// filter lists: the web app starts these requests with the page's first load, beside the user's, and
// PlaybooksPage finds them in the query cache (same keys, same calls) instead of asking once it has rendered.
import type { QueryClient } from '@tanstack/react-query';
import { firstViewRoutes, type Api, type FirstViewClient } from '@dealscout/shared/client';
import type { PlaybookBody } from '@dealscout/shared/contracts';

export const playKeys = {
  all: ['plays'] as const,
  book: (b: PlaybookBody) => ['plays', 'playbook', b] as const,
  users: ['plays', 'users'] as const,
};

/** The body of the table's first view. */
export const PLAYBOOK_FIRST_BODY: PlaybookBody = {
  text: '',
  playType: [],
  createdBy: [],
  createdAt: [],
  pageIndex: 0,
  sortKey: null,
  sortOrder: null,
};

/**
 * How long a page of the table is taken as current: long enough for the first load's prefetch to
 * serve the first render, short enough that opening the page again asks again (a change made here
 * invalidates it at once).
 */
export const PLAYBOOK_STALE_MS = 5_000;

const usersOptions = { queryKey: playKeys.users, staleTime: 60_000 };

export const playbookUsersQuery = (api: Api) => ({
  ...usersOptions,
  queryFn: async () => (await api.plays.users()).users,
});

/** The playbook's first requests, through the first view's client (answers checked once the contracts have loaded). */
export function prefetchPlaybook(qc: QueryClient, firstView: FirstViewClient): Promise<unknown> {
  // Started before the user is known: what a signed-out answer means is the user request's to say.
  const meta = { authSignOut: false };
  const bookKey = playKeys.book(PLAYBOOK_FIRST_BODY);
  return Promise.all([
    qc.prefetchQuery({
      ...usersOptions,
      queryFn: () => firstView.take(firstViewRoutes.playbookUsers(), usersOptions.queryKey, (a) => a.users),
      meta,
    }),
    qc.prefetchQuery({
      queryKey: bookKey,
      queryFn: () => firstView.take(firstViewRoutes.playbook(PLAYBOOK_FIRST_BODY), bookKey),
      staleTime: PLAYBOOK_STALE_MS,
      meta,
    }),
  ]);
}
