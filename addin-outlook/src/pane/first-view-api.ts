// The first view's requests without the API client: the pane's first chunk holds no zod contract
// (they come with the API client in the connected chunk, app/connected.tsx), so these answers go
// into the query cache as sent and are checked against their contracts once those have loaded
// (shared/src/client/first-view.ts, which the web app's first view uses too).
import { firstViewClient, firstViewRoutes as routes, type Answer, type HttpOptions } from '@dealscout/shared/client';
import type { QueryClient, QueryKey } from '@tanstack/react-query';

export interface FirstViewApi {
  /** POST /api/v1/contact/match-emails, the answer cached under `key`. */
  matchEmails(emails: string[], key: QueryKey): Promise<Answer<'MatchEmailsResponse'>>;
  /** GET /api/v1/contact/details/:id, cached under `key`. */
  contactDetails(id: string, key: QueryKey): Promise<Answer<'ContactDetailsResponse'>>;
  /** GET /api/v1/user, cached under `key`. */
  user(key: QueryKey): Promise<Answer<'GetUserResponse'>>;
}

export function firstViewApi(options: HttpOptions, queryClient: QueryClient): FirstViewApi {
  const fv = firstViewClient(options, queryClient);
  return {
    matchEmails: (emails, key) => fv.take(routes.matchEmails(emails), key),
    contactDetails: (id, key) => fv.take(routes.contactDetails(id), key),
    user: (key) => fv.take(routes.user(), key),
  };
}
