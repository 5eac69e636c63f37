// The first view's requests without the API client: answers cached as sent, then checked against
// their contracts once those load (a fitting one kept as parsed, one that does not fit dropped);
// after that, every answer is checked as it arrives.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { ContactDetailsResponse, GetUserResponse, MatchEmailsResponse } from '@dealscout/shared/contracts';
import { contractsLoaded, firstViewApi, resetContracts } from './first-view-api';
import { matchQueryKey } from './prefetch';

const CONTRACTS = { MatchEmailsResponse, ContactDetailsResponse, GetUserResponse };
const JANE = { id: 'c0000000-0000-4000-8000-000000000001', firstName: 'Jane', lastName: 'Doe', email: 'jane@acme.example' };

function setup(answer: unknown) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } }));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const api = firstViewApi({ baseUrl: 'https://ds.example.com', getToken: () => 'tok-1', fetch }, queryClient);
  const key = matchQueryKey([JANE.email]);
  const load = () => queryClient.fetchQuery({ queryKey: key, queryFn: () => api.matchEmails([JANE.email], key) });
  return { fetch, queryClient, key, load };
}

afterEach(resetContracts);

describe('firstViewApi', () => {
  it('caches the answer as sent, with the token, and keeps it as its contract parses it once the contracts load', async () => {
    const t = setup({ success: true, contacts: [{ ...JANE, primaryCompany: null, extra: 1 }] });
    await t.load();
    expect(t.fetch).toHaveBeenCalledWith(
      'https://ds.example.com/api/v1/contact/match-emails',
      expect.objectContaining({ method: 'POST', headers: expect.objectContaining({ authorization: 'Bearer tok-1' }) }),
    );
    expect(t.queryClient.getQueryData(t.key)).toEqual({ success: true, contacts: [{ ...JANE, primaryCompany: null, extra: 1 }] });
    contractsLoaded(CONTRACTS);
    expect(t.queryClient.getQueryData(t.key)).toEqual({ success: true, contacts: [{ ...JANE, primaryCompany: null }] });
  });

  it('an answer that does not fit its contract is dropped from the cache once the contracts load', async () => {
    const t = setup({ success: true, contacts: [{ id: 'not-a-contact' }] });
    await t.load();
    expect(t.queryClient.getQueryData(t.key)).toBeTruthy();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    contractsLoaded(CONTRACTS);
    expect(t.queryClient.getQueryData(t.key)).toBeUndefined();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('once the contracts have loaded, an answer is checked as it arrives', async () => {
    contractsLoaded(CONTRACTS);
    await expect(setup({ success: true, contacts: [{ id: 'not-a-contact' }] }).load()).rejects.toThrow();
    const ok = setup({ success: true, contacts: [{ ...JANE, primaryCompany: null, extra: 1 }] });
    await expect(ok.load()).resolves.toEqual({ success: true, contacts: [{ ...JANE, primaryCompany: null }] });
  });
});
