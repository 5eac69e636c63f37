// A record table's first page as the table asks for it when it opens (page 0, the default page
// size and sort, no search, no filters), and what its columns and filters are made of (the
// entity's fields, its filterable fields, the user's column layout): the web app starts these
// requests with the page's first load, beside the user's, and the table finds them in the query
// cache (same keys, same calls) instead of asking once it has rendered.
import type { QueryClient } from '@tanstack/react-query';
import type { TableQuery } from '../../contracts';
import { firstViewRoutes as routes, type Api, type FirstViewClient } from '../../client';
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

// Each query's key and options, with its function through the API client (the table's) or the first view's client (the prefetch).
const fieldsOptions = (entityType: EntityType) => ({ queryKey: queryKeys.fields(entityType), staleTime: 60_000 });
const filterFieldsOptions = (entityType: EntityType) => ({ queryKey: queryKeys.filterFields(entityType), staleTime: 60_000 });
const layoutsOptions = (entityType: EntityType) => ({ queryKey: queryKeys.tableLayouts(entityType), staleTime: Infinity, retry: false });

/** The entity's fields (the custom columns), as EntityTable asks for them. */
export const entityFieldsQuery = (api: Api, entityType: EntityType) => ({
  ...fieldsOptions(entityType),
  queryFn: async () => (await api.fields.list(entityType)).fields,
});

/** The fields the filter bar offers, as EntityTable asks for them. */
export const entityFilterFieldsQuery = (api: Api, entityType: EntityType) => ({
  ...filterFieldsOptions(entityType),
  queryFn: async () => (await api.fields.filterFields(entityType)).fields,
});

/** The user's saved column layouts of a table (useTableLayout takes the first). */
export const tableLayoutsQuery = (api: Api, entityType: EntityType) => ({
  ...layoutsOptions(entityType),
  queryFn: async () => (await api.tableLayouts.list(entityType)).layouts,
});

/**
 * The table's first requests, through the first view's client (answers checked once the contracts
 * have loaded, first-view.ts), under the keys and with the options of the table's own queries.
 */
export function prefetchFirstTablePage(
  qc: QueryClient,
  firstView: FirstViewClient,
  entityType: 'company' | 'contact',
  defaultSort: SortState | null,
): Promise<unknown> {
  const query = firstTableQuery(defaultSort);
  // Started before the user is known: what a signed-out answer means is the user request's to say.
  const meta = { authSignOut: false };
  const pageKey = entityType === 'company' ? queryKeys.companiesPage(query) : queryKeys.contactsPage(query);
  const pageRoute = entityType === 'company' ? routes.companiesPage(query) : routes.contactsPage(query);
  const [fields, filterFields, layouts] = [fieldsOptions(entityType), filterFieldsOptions(entityType), layoutsOptions(entityType)];
  return Promise.all([
    qc.prefetchQuery({ queryKey: pageKey, queryFn: () => firstView.take(pageRoute, pageKey), meta }),
    qc.prefetchQuery({ ...fields, queryFn: () => firstView.take(routes.fields(entityType), fields.queryKey, (a) => a.fields), meta }),
    qc.prefetchQuery({
      ...filterFields,
      queryFn: () => firstView.take(routes.filterFields(entityType), filterFields.queryKey, (a) => a.fields),
      meta,
    }),
    qc.prefetchQuery({
      ...layouts,
      queryFn: () => firstView.take(routes.tableLayouts(entityType), layouts.queryKey, (a) => a.layouts),
      meta,
    }),
  ]);
}
