// The first view's requests, sent before React renders: the email's people matched, then the
// first person's contact and the user, left in the query cache under the keys the pane, the drawer
// and Workspace use.
import { describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '@dealscout/shared/ui';
import type { MailItem, OutlookHost } from '../office/outlook';
import type { FirstViewApi } from './first-view-api';
import { USER_QUERY_KEY, matchQueryKey, prefetchFirstView } from './prefetch';

const JANE = 'c0000000-0000-4000-8000-000000000001';
const read: MailItem = {
  mode: 'read',
  kind: 'message',
  id: 'm1',
  subject: 'Q3',
  from: { displayName: 'Jane Doe', email: 'Jane@Acme.example' },
  to: [
    { displayName: 'Me', email: 'me@corp.example' },
    { displayName: 'Nina', email: 'nina@northwind.example' },
  ],
  cc: [],
};

function setup(item: MailItem | null, known: boolean) {
  const host = { currentItem: async () => item, userEmail: () => 'me@corp.example' } as unknown as OutlookHost;
  const matchEmails = vi.fn(async (emails: string[]) => ({
    success: true as const,
    contacts: known ? [{ id: JANE, firstName: 'Jane', lastName: 'Doe', email: emails[0], primaryCompany: null }] : [],
  }));
  const details = vi.fn(async (id: string) => ({ success: true as const, contact: { id } }));
  const user = vi.fn(async () => ({ success: true as const, user: { id: 'u1' } }));
  const api = { matchEmails, contactDetails: details, user } as unknown as FirstViewApi;
  return { host, api, matchEmails, details, user, queryClient: new QueryClient() };
}

describe('prefetchFirstView', () => {
  it("matches the email's people, then fetches the first one's contact and the user at once", async () => {
    const t = setup(read, true);
    await prefetchFirstView(t.host, t.api, t.queryClient);
    const key = matchQueryKey(['jane@acme.example', 'nina@northwind.example']);
    expect(t.matchEmails).toHaveBeenCalledWith(['jane@acme.example', 'nina@northwind.example'], key);
    expect(t.details).toHaveBeenCalledWith(JANE, queryKeys.contact(JANE));
    expect(t.queryClient.getQueryData(USER_QUERY_KEY)).toEqual({ success: true, user: { id: 'u1' } });
    expect(t.queryClient.getQueryData(matchQueryKey(['jane@acme.example', 'nina@northwind.example']))).toBeTruthy();
    expect(t.queryClient.getQueryData(queryKeys.contact(JANE))).toEqual({ success: true, contact: { id: JANE } });
  });

  it('takes the email as already read, without reading it again', async () => {
    const t = setup(null, true);
    await prefetchFirstView(t.host, t.api, t.queryClient, Promise.resolve(read));
    expect(t.matchEmails).toHaveBeenCalledWith(['jane@acme.example', 'nina@northwind.example'], expect.anything());
    expect(t.details).toHaveBeenCalledWith(JANE, queryKeys.contact(JANE));
  });

  it('an unknown sender: no contact request; no item: nothing at all; a failure is only logged', async () => {
    const unknown = setup(read, false);
    await prefetchFirstView(unknown.host, unknown.api, unknown.queryClient);
    expect(unknown.details).not.toHaveBeenCalled();
    expect(unknown.user).not.toHaveBeenCalled();
    const none = setup(null, true);
    await prefetchFirstView(none.host, none.api, none.queryClient);
    expect(none.matchEmails).not.toHaveBeenCalled();
    const failing = setup(read, true);
    failing.matchEmails.mockRejectedValueOnce(new Error('offline'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(prefetchFirstView(failing.host, failing.api, failing.queryClient)).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
