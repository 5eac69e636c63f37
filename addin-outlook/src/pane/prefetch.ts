// What the pane's first view needs, fetched without waiting for React: the email's people matched
// (POST /contact/match-emails) and, as soon as that answers, the first person's contact
// (GET /contact/details/:id) and the user (GET /user, the drawer's saved config) — requests the
// drawer would only make after the pane has rendered the match and the connected and drawer chunks
// have loaded. They go into the pane's query cache under the keys Pane, the shared drawer and
// Workspace use, so those pick the answers (or the requests in flight) up. They go out through
// first-view-api.ts: the API client and its contracts are not part of the first chunk.
import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '@dealscout/shared/ui';
import type { MailItem, OutlookHost } from '../office/outlook';
import type { FirstViewApi } from './first-view-api';
import { participantsOf } from './people';

export const matchQueryKey = (emails: string[]) => ['mailbox-match', emails] as const;
export const USER_QUERY_KEY = ['user'] as const;

/** `item`: the email as already read (startPane); read here when not given. */
export async function prefetchFirstView(
  host: OutlookHost,
  api: FirstViewApi,
  queryClient: QueryClient,
  item: Promise<MailItem | null> = host.currentItem(),
): Promise<void> {
  try {
    const emails = participantsOf(await item, host.userEmail()).map((p) => p.email);
    if (emails.length === 0) return;
    const key = matchQueryKey(emails);
    const match = await queryClient.fetchQuery({ queryKey: key, queryFn: () => api.matchEmails(emails, key) });
    const first = match.contacts.find((c) => c.email === emails[0]);
    if (!first) return;
    const contact = queryKeys.contact(first.id);
    await Promise.all([
      queryClient.prefetchQuery({ queryKey: contact, queryFn: () => api.contactDetails(first.id, contact) }),
      queryClient.prefetchQuery({ queryKey: USER_QUERY_KEY, queryFn: () => api.user(USER_QUERY_KEY), staleTime: Infinity }),
    ]);
  } catch (e) {
    // The pane asks again the usual way and shows the error there.
    console.warn("Could not prefetch the email's people", e);
  }
}
