// The stand-in API client: nothing loads before the first call; a call waits for the client and
// makes the same call on it (this bound to its group, arguments as given, its answer or error).
import { describe, expect, it, vi } from 'vitest';
import { createApi, type Api } from './api';
import { lazyApi } from './lazy-api';

describe('lazyApi', () => {
  it('loads the client on the first call, once, and makes each call on it', async () => {
    const fetch = vi.fn(async (url: string | URL | Request) =>
      String(url).endsWith('/api/v1/setup')
        ? new Response(JSON.stringify({ needsSetup: false }), { status: 200 })
        : new Response(JSON.stringify({ message: 'Nope' }), { status: 403 }),
    );
    const load = vi.fn(async (): Promise<Api> => createApi({ baseUrl: 'https://ds.example.com', fetch }));
    const api = lazyApi(load);
    const status = api.setup.status;
    expect(load).not.toHaveBeenCalled();
    await expect(status()).resolves.toEqual({ needsSetup: false });
    await expect(api.companies.remove('c1')).rejects.toMatchObject({ name: 'ApiError', status: 403, message: 'Nope' });
    expect(fetch).toHaveBeenLastCalledWith(
      'https://ds.example.com/api/v1/company/delete/c1',
      expect.objectContaining({ method: 'DELETE' }),
    );
    expect(load).toHaveBeenCalledTimes(1);
  });
});
