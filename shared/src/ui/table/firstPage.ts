// A record table's first page as the table asks for it when it opens (page 0, the default page
// size and sort, no search, no filters): the web app starts this request with the page's first
// load, beside the user's, and the table finds it in the query cache (same key, same call).
import type { QueryClient } from '@tanstack/react-query';
import type { TableQuery } from '../../contracts';
import type { Api } from '../../client';
import { queryKeys } from '../ApiContext';
import { initialTableState, type SortState } from './tableState';

/** The query of a table's first page, as EntityTable builds it from its initial state. */
export function firstTableQuery(defaultSort: SortState | null): TableQuery {
  const s = initialTableState(defaultSort);
  return {
    pageIndex: s.pageIndex,
    pageSize: s.pageSize,
    sortKey: s.sort?.key ?? null,
    sortOrder: s.sort?.order ?? null,
    text: s.text,
    filters: [],
  };
}

export function prefetchFirstTablePage(qc: QueryClient, api: Api, entityType: 'company' | 'contact', defaultSort: SortState | null): void {
  const query = firstTableQuery(defaultSort);
  // Started before the user is known: what a signed-out answer means is the user request's to say.
  const meta = { authSignOut: false };
  void (entityType === 'company'
    ? qc.prefetchQuery({ queryKey: queryKeys.companiesPage(query), queryFn: () => api.companies.page(query), meta })
    : qc.prefetchQuery({ queryKey: queryKeys.contactsPage(query), queryFn: () => api.contacts.page(query), meta }));
}
