import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@dealscout/shared/client';
import { isCancelledError } from '@tanstack/react-query';
import { createQueryClient } from '../../app/queryClient';
import { api } from '../../app/api';
import { installSessionController, signOut } from './session-controller';
import { USER_KEY, fetchSignedInUser } from './hooks/useSession';
import { USER } from './user.fixture';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('session (spec 000 §4)', () => {
  let calls: string[];
  let navigate: ReturnType<typeof vi.fn<(to: string) => void>>;
  let navigatedBeforeLogout: boolean | null;

  beforeEach(() => {
    calls = [];
    navigatedBeforeLogout = null;
    navigate = vi.fn<(to: string) => void>();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push(`${init?.method ?? 'GET'} ${url}`);
        if (url === '/api/account/logout') navigatedBeforeLogout ??= navigate.mock.calls.length > 0;
        if (url === '/api/account/logout') return json(200, { success: true, message: 'Logged out' });
        if (url === '/api/v1/organization') return json(401, { success: false, message: 'Unauthorized: please sign in' });
        if (url === '/api/v1/organization/users') return json(500, { success: false, message: 'Database down' });
        if (url === '/api/v1/user/settings')
          return json(403, { success: false, message: 'Forbidden: you do not have permission to do this' });
        return json(404, { success: false, message: 'Not found' });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  const flush = () => new Promise((r) => setTimeout(r, 0));

  it('signs a signed-in user out on a 401: server logout, user cleared, /login', async () => {
    const qc = createQueryClient();
    installSessionController(qc, navigate);
    qc.setQueryData(USER_KEY, USER);
    // The 401 signs out at once, which cancels the signed-in queries, this one among them.
    await expect(
      qc.fetchQuery({ queryKey: ['organization', 'details'], queryFn: () => api.organization.get(), retry: false }),
    ).rejects.toSatisfy((e) => e instanceof ApiError || isCancelledError(e));
    await vi.waitFor(() => expect(calls).toContain('POST /api/account/logout'));
    expect(qc.getQueryData(USER_KEY)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
    // The signed-in screens left before the server session ended (no request of theirs meets a 401).
    expect(navigatedBeforeLogout).toBe(true);
  });

  it('ignores a 401 when nobody is signed in (a wrong password on the sign-in page)', async () => {
    const qc = createQueryClient();
    installSessionController(qc, navigate);
    await expect(api.organization.get()).rejects.toBeInstanceOf(ApiError);
    await flush();
    expect(calls).not.toContain('POST /api/account/logout');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('keeps the user signed in on other errors', async () => {
    const qc = createQueryClient();
    installSessionController(qc, navigate);
    qc.setQueryData(USER_KEY, USER);
    await expect(
      qc.fetchQuery({ queryKey: ['organization', 'users'], queryFn: () => api.organization.users(), retry: false }),
    ).rejects.toBeInstanceOf(ApiError);
    await flush();
    expect(navigate).not.toHaveBeenCalled();
    expect(qc.getQueryData(USER_KEY)).toEqual(USER);
  });

  it('only logs a failed settings save, even an authentication-type one', async () => {
    const qc = createQueryClient();
    installSessionController(qc, navigate);
    qc.setQueryData(USER_KEY, USER);
    const mutation = qc
      .getMutationCache()
      .build(qc, { mutationFn: () => api.user.saveSettings({ navigationExpanded: false }), meta: { authSignOut: false } });
    await expect(mutation.execute(undefined)).rejects.toBeInstanceOf(ApiError);
    await flush();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('signs out with an authentication-type error from any other mutation', async () => {
    const qc = createQueryClient();
    installSessionController(qc, navigate);
    qc.setQueryData(USER_KEY, USER);
    const mutation = qc.getMutationCache().build(qc, { mutationFn: () => api.user.saveSettings({ navigationExpanded: false }) });
    await expect(mutation.execute(undefined)).rejects.toBeInstanceOf(ApiError);
    await flush();
    await flush();
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('still leaves when the server logout fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const qc = createQueryClient();
    installSessionController(qc, navigate);
    qc.setQueryData(USER_KEY, USER);
    await signOut();
    expect(qc.getQueryData(USER_KEY)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
  });
});

describe('signed-out page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks nothing without the session cookie (no 401 in the console), and asks with it', async () => {
    const fetchMock = vi.fn(async () => json(200, { success: true, user: USER }));
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('document', { cookie: 'theme=light' });
    expect(await fetchSignedInUser()).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
    vi.stubGlobal('document', { cookie: 'theme=light; ds_csrf=abc' });
    expect(await fetchSignedInUser()).toEqual(USER);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
