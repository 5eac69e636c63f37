// The first view's requests without the API client: the pane's first chunk holds no zod contract
// (they come with the API client in the connected chunk, app/connected.tsx), so these answers go
// into the query cache as sent and are checked against their contracts once those have loaded —
// an answer that does not fit is then dropped from the cache and asked for again through the API
// client, which checks every answer. Once the contracts are in, an answer is checked as it arrives.
import { Http, type HttpOptions } from '@dealscout/shared/client';
import type * as C from '@dealscout/shared/contracts';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';

/** The contracts of the first view's answers (the connected chunk hands them over: contractsLoaded). */
export type FirstViewContracts = Pick<typeof C, 'MatchEmailsResponse' | 'ContactDetailsResponse' | 'GetUserResponse'>;
type Answer<K extends keyof FirstViewContracts> = z.infer<FirstViewContracts[K]>;

export interface FirstViewApi {
  /** POST /api/v1/contact/match-emails, the answer cached under `key`. */
  matchEmails(emails: string[], key: QueryKey): Promise<Answer<'MatchEmailsResponse'>>;
  /** GET /api/v1/contact/details/:id, cached under `key`. */
  contactDetails(id: string, key: QueryKey): Promise<Answer<'ContactDetailsResponse'>>;
  /** GET /api/v1/user, cached under `key`. */
  user(key: QueryKey): Promise<Answer<'GetUserResponse'>>;
}

let contracts: FirstViewContracts | null = null;
const waiting: ((c: FirstViewContracts) => void)[] = [];

/** The contracts have loaded: every answer taken without them is checked now. */
export function contractsLoaded(c: FirstViewContracts): void {
  contracts = c;
  for (const check of waiting.splice(0)) check(c);
}

/** For tests: back to the state before the contracts loaded. */
export function resetContracts(): void {
  contracts = null;
  waiting.length = 0;
}

export function firstViewApi(options: HttpOptions, queryClient: QueryClient): FirstViewApi {
  const http = new Http(options);
  async function take<K extends keyof FirstViewContracts>(contract: K, key: QueryKey, method: string, path: string, body?: unknown) {
    const json = await http.unvalidated(method, path, body);
    if (contracts) return contracts[contract].parse(json) as Answer<K>;
    waiting.push((c) => {
      const checked = c[contract].safeParse(json);
      // Only the answer still cached is replaced: a newer one came through a checked path.
      if (queryClient.getQueryData(key) !== json) return;
      if (checked.success) queryClient.setQueryData(key, checked.data);
      else {
        console.warn(`The answer of ${method} ${path} does not fit its contract`, checked.error);
        void queryClient.resetQueries({ queryKey: key, exact: true });
      }
    });
    return json as Answer<K>;
  }
  return {
    matchEmails: (emails, key) => take('MatchEmailsResponse', key, 'POST', '/api/v1/contact/match-emails', { emails }),
    contactDetails: (id, key) => take('ContactDetailsResponse', key, 'GET', `/api/v1/contact/details/${encodeURIComponent(id)}`),
    user: (key) => take('GetUserResponse', key, 'GET', '/api/v1/user'),
  };
}
