// The first load's setup check and user come through the first view's client, without the zod
// contracts; once the API client has loaded them, an answer that does not fit its contract is
// dropped and asked for again through the API client, which checks it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryObserver } from '@tanstack/react-query';
import { createQueryClient } from '../../app/queryClient';
import { createFirstView, holdApiUntil } from '../../app/api';
import { SETUP_KEY, USER_KEY, prefetchSession, userQuery } from './hooks/useSession';
import { USER } from './user.fixture';

afterEach(() => vi.unstubAllGlobals());

describe('the first view of the web app', () => {
  it('takes the setup check and the user as sent, and asks again for a user that does not fit its contract', async () => {
    const { email: _, ...withoutEmail } = USER;
    const users = [withoutEmail, USER];
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        calls.push(url);
        const body = url === '/api/v1/setup' ? { needsSetup: false } : { success: true, user: users.shift() };
        return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const queryClient = createQueryClient();
    await Promise.all(prefetchSession(queryClient, createFirstView(queryClient)));
    expect(queryClient.getQueryData(SETUP_KEY)).toEqual({ needsSetup: false });
    expect(queryClient.getQueryData(USER_KEY)).toEqual(withoutEmail);
    // The auth gate showing the user; then the API client and its contracts load.
    const unsubscribe = new QueryObserver(queryClient, userQuery).subscribe(() => {});
    holdApiUntil(null);
    await vi.waitFor(() => expect(queryClient.getQueryData(USER_KEY)).toEqual(USER), { timeout: 5000 });
    expect(calls).toEqual(['/api/v1/setup', '/api/v1/user', '/api/v1/user']);
    expect(warn).toHaveBeenCalledWith('The answer of GET /api/v1/user does not fit its contract', expect.anything());
    expect(queryClient.getQueryData(SETUP_KEY)).toEqual({ needsSetup: false });
    unsubscribe();
    warn.mockRestore();
  });
});
