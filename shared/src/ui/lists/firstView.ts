// A list's ideas table as it opens (page 0 of 10, newest first, no search or filters), the list
// and its enrichments: the web app starts these requests with the page's first load, beside the
// user's, and ListIdeas finds them in the query cache (same keys, same calls) instead of asking
// once it has rendered.
import type { QueryClient } from '@tanstack/react-query';
import type { IdeaListBody } from '../../contracts';
import { firstViewRoutes as routes, type Api, type FirstViewClient } from '../../client';
import { queryKeys } from '../ApiContext';
import type { SortState } from '../table/tableState';

export const IDEA_DEFAULT_SORT: SortState = { key: 'createdAt', order: 'desc' };
export const IDEA_FIRST_PAGE_SIZE = 10;
/** The query key of a list's enrichments (GET /enrichment/{listId}/list). */
export const listEnrichmentsKey = (listId: string) => ['enrichments', 'for-list', listId] as const;

/** The ideas page asked for: the table's search, filters, sort and page. */
export function ideasPageBody(
  listId: string,
  v: {
    text: string;
    inShortlist: boolean | null;
    status: string;
    sourceIds: string[];
    sort: SortState | null;
    pageIndex: number;
    pageSize: number;
  },
): IdeaListBody {
  return {
    listCompanyId: listId,
    text: v.text,
    inShortlist: v.inShortlist,
    recordStatus: (v.status || null) as IdeaListBody['recordStatus'],
    listSourceIds: v.sourceIds,
    pageIndex: v.pageIndex,
    pageSize: v.pageSize,
    sortKey: v.sort?.key ?? null,
    sortOrder: v.sort?.order ?? null,
  };
}

const listOptions = (listId: string) => ({ queryKey: queryKeys.list(listId) });
const ideasPageOptions = (query: IdeaListBody) => ({ queryKey: queryKeys.ideasPage(query.listCompanyId, query) });
const listEnrichmentsOptions = (listId: string) => ({ queryKey: listEnrichmentsKey(listId), staleTime: 30_000 });

export const listQuery = (api: Api, listId: string) => ({
  ...listOptions(listId),
  queryFn: async () => (await api.lists.get(listId)).list,
});
export const ideasPageQuery = (api: Api, query: IdeaListBody) => ({
  ...ideasPageOptions(query),
  queryFn: () => api.lists.ideas(query),
});
export const listEnrichmentsQuery = (api: Api, listId: string) => ({
  ...listEnrichmentsOptions(listId),
  queryFn: () => api.enrichments.forList(listId),
});

/** The ideas table's first requests, through the first view's client (answers checked once the contracts have loaded). */
export function prefetchListIdeas(qc: QueryClient, firstView: FirstViewClient, listId: string): Promise<unknown> {
  // Started before the user is known: what a signed-out answer means is the user request's to say.
  const meta = { authSignOut: false };
  const first = ideasPageBody(listId, {
    text: '',
    inShortlist: null,
    status: '',
    sourceIds: [],
    sort: IDEA_DEFAULT_SORT,
    pageIndex: 0,
    pageSize: IDEA_FIRST_PAGE_SIZE,
  });
  const [list, ideas, enrichments] = [listOptions(listId), ideasPageOptions(first), listEnrichmentsOptions(listId)];
  return Promise.all([
    qc.prefetchQuery({ ...list, queryFn: () => firstView.take(routes.list(listId), list.queryKey, (a) => a.list), meta }),
    qc.prefetchQuery({ ...ideas, queryFn: () => firstView.take(routes.ideas(first), ideas.queryKey), meta }),
    qc.prefetchQuery({ ...enrichments, queryFn: () => firstView.take(routes.listEnrichments(listId), enrichments.queryKey), meta }),
  ]);
}
