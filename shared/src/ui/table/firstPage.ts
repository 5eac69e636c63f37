// A record table's first page as the table asks for it when it opens (page 0, the default page
// size and sort, no search, no filters), and what its columns and filters are made of (the
// entity's fields, its filterable fields, the user's column layout): the web app starts these
// requests with the page's first load, beside the user's, and the table finds them in the query
// cache (same keys, same calls) instead of asking once it has rendered.
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

type EntityType = 'company' | 'contact';

/** The entity's fields (the custom columns), as EntityTable asks for them. */
export const entityFieldsQuery = (api: Api, entityType: EntityType) => ({
  queryKey: queryKeys.fields(entityType),
  queryFn: async () => (await api.fields.list(entityType)).fields,
  staleTime: 60_000,
});

/** The fields the filter bar offers, as EntityTable asks for them. */
export const entityFilterFieldsQuery = (api: Api, entityType: EntityType) => ({
  queryKey: queryKeys.filterFields(entityType),
  queryFn: async () => (await api.fields.filterFields(entityType)).fields,
  staleTime: 60_000,
});

/** The user's saved column layouts of a table (useTableLayout takes the first). */
export const tableLayoutsQuery = (api: Api, entityType: EntityType) => ({
  queryKey: queryKeys.tableLayouts(entityType),
  queryFn: async () => (await api.tableLayouts.list(entityType)).layouts,
  staleTime: Infinity,
  retry: false,
});

export function prefetchFirstTablePage(qc: QueryClient, api: Api, entityType: 'company' | 'contact', defaultSort: SortState | null): void {
  const query = firstTableQuery(defaultSort);
  // Started before the user is known: what a signed-out answer means is the user request's to say.
  const meta = { authSignOut: false };
  void (entityType === 'company'
    ? qc.prefetchQuery({ queryKey: queryKeys.companiesPage(query), queryFn: () => api.companies.page(query), meta })
    : qc.prefetchQuery({ queryKey: queryKeys.contactsPage(query), queryFn: () => api.contacts.page(query), meta }));
  void qc.prefetchQuery({ ...entityFieldsQuery(api, entityType), meta });
  void qc.prefetchQuery({ ...entityFilterFieldsQuery(api, entityType), meta });
  void qc.prefetchQuery({ ...tableLayoutsQuery(api, entityType), meta });
}
