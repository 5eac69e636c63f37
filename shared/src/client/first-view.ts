// A client's first view without its zod contracts (some 350 schemas built at module load, with zod
// itself): the first view's requests are answered as sent and go into the query cache so, and once
// the client has loaded its contracts after the first view (contractsLoaded) each such answer is
// checked against its contract — one that does not fit is then dropped from the cache and asked for
// again through the API client (api.ts), which checks every answer. An answer that arrives once the
// contracts are in is checked as it arrives. This module imports no contract: only their types.
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import type * as C from '../contracts';
import type { IdeaListBody, PlaybookBody, TableQuery } from '../contracts';
import { Http, type HttpOptions } from './http';

/** The contracts, as the module that loads them hands them over: `import * as C from '@dealscout/shared/contracts'`. */
export type Contracts = typeof C;
/** The name of an answer's contract, e.g. 'GetUserResponse'. */
export type ContractName = { [K in keyof Contracts]: Contracts[K] extends z.ZodType ? K : never }[keyof Contracts];
export type Answer<K extends ContractName> = z.output<Contracts[K]>;

/** The contract named `name`. */
export function contractOf<K extends ContractName>(c: Contracts, name: K): z.ZodType<Answer<K>> {
  return c[name] as unknown as z.ZodType<Answer<K>>;
}

/** A request and the contract of its answer. */
export interface Route<K extends ContractName> {
  method: 'GET' | 'POST';
  path: string;
  contract: K;
  body?: unknown;
}

const route = <K extends ContractName>(method: 'GET' | 'POST', path: string, contract: K, body?: unknown): Route<K> => ({
  method,
  path,
  contract,
  body,
});
const entityTypeQuery = (entityType?: 'company' | 'contact') => (entityType ? `?entityType=${entityType}` : '');

/** The routes the clients' first views ask for before their contracts have loaded; the API client asks them the same way. */
export const firstViewRoutes = {
  setupStatus: () => route('GET', '/api/v1/setup', 'SetupStatusResponse'),
  user: () => route('GET', '/api/v1/user', 'GetUserResponse'),
  companiesPage: (q: TableQuery) => route('POST', '/api/v1/company/get-companies', 'CompaniesPage', q),
  contactsPage: (q: TableQuery) => route('POST', '/api/v1/contact/get-contacts', 'ContactsPage', q),
  fields: (entityType?: 'company' | 'contact') => route('GET', `/api/v1/entity/fields${entityTypeQuery(entityType)}`, 'GetFieldsResponse'),
  filterFields: (entityType?: 'company' | 'contact') =>
    route('GET', `/api/v1/entity/filters-fields${entityTypeQuery(entityType)}`, 'GetFilterFieldsResponse'),
  tableLayouts: (entityType: 'company' | 'contact') => route('GET', `/api/v1/user/tablelayout/${entityType}`, 'TableLayoutsResponse'),
  list: (id: string) => route('GET', `/api/v1/list-company/${encodeURIComponent(id)}`, 'ListResponse'),
  ideas: (q: IdeaListBody) => route('POST', '/api/v1/list-company/idea/list', 'IdeaListResponse', q),
  listEnrichments: (listId: string) => route('GET', `/api/v1/enrichment/${encodeURIComponent(listId)}/list`, 'ListEnrichmentsResponse'),
  playbook: (body: PlaybookBody = {}) => route('POST', '/api/v1/play/playbook', 'PlaybookResponse', body),
  playbookUsers: () => route('GET', '/api/v1/play/playbook-users', 'PlaybookUsersResponse'),
  matchEmails: (emails: string[]) => route('POST', '/api/v1/contact/match-emails', 'MatchEmailsResponse', { emails }),
  contactDetails: (id: string) => route('GET', `/api/v1/contact/details/${encodeURIComponent(id)}`, 'ContactDetailsResponse'),
};

let contracts: Contracts | null = null;
const waiting: ((c: Contracts) => void)[] = [];

/**
 * The contracts have loaded: every answer taken without them is checked now — in a task of its own,
 * so that an answer that arrived just before is in the query cache by then.
 */
export function contractsLoaded(c: Contracts): Promise<void> {
  contracts = c;
  const checks = waiting.splice(0);
  return new Promise((resolve) =>
    setTimeout(() => {
      for (const check of checks) check(c);
      resolve();
    }, 0),
  );
}

/** For tests: back to the state before the contracts loaded. */
export function resetContracts(): void {
  contracts = null;
  waiting.length = 0;
}

export interface FirstViewClient {
  /**
   * The answer of `r`, cached under `key` as `select` makes it (the whole answer by default): as sent
   * while the contracts have not loaded, checked once they have; checked at once after that.
   */
  take<K extends ContractName, T = Answer<K>>(r: Route<K>, key: QueryKey, select?: (answer: Answer<K>) => T): Promise<T>;
}

export function firstViewClient(options: HttpOptions, queryClient: QueryClient): FirstViewClient {
  const http = new Http(options);
  return {
    async take<K extends ContractName, T = Answer<K>>(r: Route<K>, key: QueryKey, select?: (answer: Answer<K>) => T): Promise<T> {
      const pick = (answer: Answer<K>) => (select ? select(answer) : (answer as T));
      const json = await http.unvalidated(r.method, r.path, r.body);
      if (contracts) return pick(contractOf(contracts, r.contract).parse(json));
      const taken = pick(json as Answer<K>);
      waiting.push((c) => {
        const checked = contractOf(c, r.contract).safeParse(json);
        if (!checked.success) {
          console.warn(`The answer of ${r.method} ${r.path} does not fit its contract`, checked.error);
          // Dropped, and asked for again by the query's own function (the API client) where it is shown.
          if (queryClient.getQueryData(key) === taken) void queryClient.resetQueries({ queryKey: key, exact: true });
          return;
        }
        // Only the answer still cached is replaced: a newer one came through a checked path.
        if (queryClient.getQueryData(key) === taken) queryClient.setQueryData(key, pick(checked.data));
      });
      return taken;
    },
  };
}
