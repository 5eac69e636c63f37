// A first view's requests without the API client: answers cached as sent, then checked against
// their contracts once those load (a fitting one kept as parsed, one that does not fit dropped and
// asked for again through the API client, which checks it); after that, every answer is checked
// as it arrives.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver, type QueryKey } from '@tanstack/react-query';
import * as contracts from '../contracts';
import { createApi } from './api';
import { contractsLoaded, firstViewClient, firstViewRoutes as routes, resetContracts } from './first-view';

const JANE = { id: 'c0000000-0000-4000-8000-000000000001', firstName: 'Jane', lastName: 'Doe', email: 'jane@acme.example' };
const KEY: QueryKey = ['match', JANE.email];

/** A server answering each request with the next of `answers` (the last one repeated). */
function setup(...answers: unknown[]) {
  let n = 0;
  const fetch = vi.fn(async () => {
    const answer = answers[Math.min(n++, answers.length - 1)];
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const options = { baseUrl: 'https://ds.example.com', getToken: () => 'tok-1', fetch };
  const fv = firstViewClient(options, queryClient);
  const api = createApi(options);
  const load = () => queryClient.fetchQuery({ queryKey: KEY, queryFn: () => fv.take(routes.matchEmails([JANE.email]), KEY) });
  return { fetch, queryClient, fv, api, load };
}

afterEach(resetContracts);

describe('firstViewClient', () => {
  it('caches the answer as sent, with the token, and keeps it as its contract parses it once the contracts load', async () => {
    const t = setup({ success: true, contacts: [{ ...JANE, primaryCompany: null, extra: 1 }] });
    await t.load();
    expect(t.fetch).toHaveBeenCalledWith(
      'https://ds.example.com/api/v1/contact/match-emails',
      expect.objectContaining({ method: 'POST', headers: expect.objectContaining({ authorization: 'Bearer tok-1' }) }),
    );
    expect(t.queryClient.getQueryData(KEY)).toEqual({ success: true, contacts: [{ ...JANE, primaryCompany: null, extra: 1 }] });
    await contractsLoaded(contracts);
    expect(t.queryClient.getQueryData(KEY)).toEqual({ success: true, contacts: [{ ...JANE, primaryCompany: null }] });
  });

  it('checks the whole answer when the cache holds a part of it', async () => {
    const t = setup({ success: true, contacts: [{ ...JANE, primaryCompany: null, extra: 1 }] });
    const key = ['contacts'];
    await t.queryClient.fetchQuery({ queryKey: key, queryFn: () => t.fv.take(routes.matchEmails([JANE.email]), key, (a) => a.contacts) });
    expect(t.queryClient.getQueryData(key)).toEqual([{ ...JANE, primaryCompany: null, extra: 1 }]);
    await contractsLoaded(contracts);
    expect(t.queryClient.getQueryData(key)).toEqual([{ ...JANE, primaryCompany: null }]);
  });

  it('an answer that does not fit its contract is dropped once the contracts load, and asked for again through the API client', async () => {
    const t = setup(
      { success: true, contacts: [{ id: 'not-a-contact' }] },
      { success: true, contacts: [{ ...JANE, primaryCompany: null }] },
    );
    await t.load();
    expect(t.queryClient.getQueryData(KEY)).toEqual({ success: true, contacts: [{ id: 'not-a-contact' }] });
    // The view showing it, whose own query function is the API client's.
    const shown = new QueryObserver(t.queryClient, {
      queryKey: KEY,
      queryFn: () => t.api.mailbox.matchEmails([JANE.email]),
      staleTime: Infinity,
    });
    const unsubscribe = shown.subscribe(() => {});
    expect(t.fetch).toHaveBeenCalledTimes(1);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await contractsLoaded(contracts);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
    await vi.waitFor(() => expect(t.queryClient.getQueryState(KEY)?.status).toBe('success'));
    expect(t.fetch).toHaveBeenCalledTimes(2);
    expect(t.queryClient.getQueryData(KEY)).toEqual({ success: true, contacts: [{ ...JANE, primaryCompany: null }] });
    unsubscribe();
  });

  it('an answer that does not fit and is not shown is dropped from the cache', async () => {
    const t = setup({ success: true, contacts: [{ id: 'not-a-contact' }] });
    await t.load();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await contractsLoaded(contracts);
    warn.mockRestore();
    expect(t.queryClient.getQueryData(KEY)).toBeUndefined();
  });

  it('leaves a newer answer, cached through the API client, as it is', async () => {
    const t = setup({ success: true, contacts: [{ id: 'not-a-contact' }] });
    await t.load();
    const newer = { success: true as const, contacts: [] };
    t.queryClient.setQueryData(KEY, newer);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await contractsLoaded(contracts);
    warn.mockRestore();
    expect(t.queryClient.getQueryData(KEY)).toEqual(newer);
  });

  it('once the contracts have loaded, an answer is checked as it arrives', async () => {
    await contractsLoaded(contracts);
    await expect(setup({ success: true, contacts: [{ id: 'not-a-contact' }] }).load()).rejects.toThrow();
    const ok = setup({ success: true, contacts: [{ ...JANE, primaryCompany: null, extra: 1 }] });
    await expect(ok.load()).resolves.toEqual({ success: true, contacts: [{ ...JANE, primaryCompany: null }] });
  });
});
