// What the pane's first view needs, fetched without waiting for React: the email's people matched
// (POST /contact/match-emails) and, as soon as that answers, the first person's contact
// (GET /contact/details/:id) — the request the drawer would only make after the pane has rendered
// the match and the drawer's chunk has loaded. Both go into the pane's query cache under the keys
// Pane and the shared drawer use, so they pick the answers (or the requests in flight) up.
import type { QueryClient } from '@tanstack/react-query';
import type { Api } from '@dealscout/shared/client';
import { queryKeys } from '@dealscout/shared/ui';
import type { OutlookHost } from '../office/outlook';
import { participantsOf } from './people';

export const matchQueryKey = (emails: string[]) => ['mailbox-match', emails] as const;

export async function prefetchFirstView(host: OutlookHost, api: Api, queryClient: QueryClient): Promise<void> {
  try {
    const emails = participantsOf(await host.currentItem(), host.userEmail()).map((p) => p.email);
    if (emails.length === 0) return;
    const match = await queryClient.fetchQuery({ queryKey: matchQueryKey(emails), queryFn: () => api.mailbox.matchEmails(emails) });
    const first = match.contacts.find((c) => c.email === emails[0]);
    if (first) await queryClient.prefetchQuery({ queryKey: queryKeys.contact(first.id), queryFn: () => api.contacts.details(first.id) });
  } catch (e) {
    // The pane asks again the usual way and shows the error there.
    console.warn("Could not prefetch the email's people", e);
  }
}
