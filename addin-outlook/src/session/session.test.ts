// The pane's sign-in over a fake fetch that answers as the server's auth routes do.
import { describe, expect, it, vi } from 'vitest';
import type { OutlookHost } from '../office/outlook';
import { SERVER_URL_SETTING, SessionStore, TOKEN_STORAGE_KEY, normalizeServerUrl } from './session';

const USER = {
  id: 'u1',
  organizationId: 'o1',
  email: 'rep@corp.example',
  firstName: 'Rep',
  lastName: 'One',
  role: 'User',
  isAdmin: false,
  status: 'active',
  settings: {},
  calendar: {},
};

function fakes() {
  const roaming = new Map<string, string>();
  const host = {
    settings: {
      get: (k: string) => roaming.get(k) ?? null,
      set: async (k: string, v: string | null) => {
        if (v === null) roaming.delete(k);
        else roaming.set(k, v);
      },
    },
  } as unknown as OutlookHost;
  const mem = new Map<string, string>();
  const storage = {
    getItem: (k: string) => mem.get(k) ?? null,
    setItem: (k: string, v: string) => void mem.set(k, v),
    removeItem: (k: string) => void mem.delete(k),
  };
  const calls: { url: string; method: string; auth: string | null; body: unknown }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    calls.push({
      url,
      method: init.method ?? 'GET',
      auth: headers.authorization ?? null,
      body: init.body ? JSON.parse(String(init.body)) : null,
    });
    if (url.endsWith('/api/v1/auth/token') && init.method === 'POST') {
      const body = JSON.parse(String(init.body));
      if (body.password !== 'Secret123')
        return new Response(JSON.stringify({ success: false, message: 'Invalid email or password' }), { status: 401 });
      return new Response(
        JSON.stringify({ success: true, token: 'tok-1', tokenId: 't1', expiresAt: '2099-01-01T00:00:00.000Z', user: USER }),
        { status: 200 },
      );
    }
    if (url.endsWith('/api/v1/auth/token') && init.method === 'DELETE')
      return new Response(JSON.stringify({ success: true, message: 'Token revoked' }), { status: 200 });
    if (url.endsWith('/api/v1/user')) return new Response(JSON.stringify({ success: false, message: 'Unauthorized' }), { status: 401 });
    return new Response('{}', { status: 404 });
  });
  return { host, roaming, mem, storage, calls, fetch: fetch as unknown as typeof globalThis.fetch };
}

describe('the pane session', () => {
  it('normalizes a typed server address', () => {
    expect(normalizeServerUrl(' https://ds.example.com/app/ ')).toBe('https://ds.example.com');
    expect(normalizeServerUrl('ds.example.com')).toBe('https://ds.example.com');
    expect(normalizeServerUrl('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(normalizeServerUrl('ftp://x')).toBeNull();
    expect(normalizeServerUrl('')).toBeNull();
  });

  it('signs in with a labelled bearer token, keeps it, and the server address roams', async () => {
    const f = fakes();
    const store = new SessionStore({ host: f.host, origin: 'https://pane.example.com', storage: f.storage, fetch: f.fetch });
    expect(store.serverUrl()).toBe('https://pane.example.com');
    await expect(store.signIn('https://ds.example.com', 'rep@corp.example', 'nope1')).rejects.toThrow('Invalid email or password');
    expect(store.current()).toBeNull();
    await store.signIn('https://ds.example.com', 'rep@corp.example', 'Secret123');
    expect(f.calls.at(-1)).toMatchObject({
      url: 'https://ds.example.com/api/v1/auth/token',
      method: 'POST',
      body: { email: 'rep@corp.example', password: 'Secret123', label: 'Outlook add-in' },
    });
    expect(store.current()).toMatchObject({ token: 'tok-1', serverUrl: 'https://ds.example.com', user: { id: 'u1' } });
    expect(f.roaming.get(SERVER_URL_SETTING)).toBe('https://ds.example.com');
    expect(store.serverUrl()).toBe('https://ds.example.com');
    // A new pane (a reload) finds the session.
    expect(new SessionStore({ host: f.host, storage: f.storage, fetch: f.fetch }).current()?.token).toBe('tok-1');
  });

  it('calls carry the token; a 401 signs out', async () => {
    const f = fakes();
    const store = new SessionStore({ host: f.host, storage: f.storage, fetch: f.fetch });
    const session = await store.signIn('https://ds.example.com', 'rep@corp.example', 'Secret123');
    const seen = vi.fn();
    store.subscribe(seen);
    await expect((await store.api(session.serverUrl, session)).user.get()).rejects.toThrow();
    expect(f.calls.at(-1)).toMatchObject({ url: 'https://ds.example.com/api/v1/user', auth: 'Bearer tok-1' });
    expect(store.current()).toBeNull();
    expect(f.mem.has(TOKEN_STORAGE_KEY)).toBe(false);
    expect(seen).toHaveBeenCalled();
  });

  it('sign-out revokes the token on the server and forgets it', async () => {
    const f = fakes();
    const store = new SessionStore({ host: f.host, storage: f.storage, fetch: f.fetch });
    await store.signIn('https://ds.example.com', 'rep@corp.example', 'Secret123');
    await store.signOut();
    expect(f.calls.at(-1)).toMatchObject({ url: 'https://ds.example.com/api/v1/auth/token', method: 'DELETE', auth: 'Bearer tok-1' });
    expect(store.current()).toBeNull();
    expect(f.mem.has(TOKEN_STORAGE_KEY)).toBe(false);
  });

  it('an expired token is dropped on load', () => {
    const f = fakes();
    f.mem.set(
      TOKEN_STORAGE_KEY,
      JSON.stringify({
        serverUrl: 'https://ds.example.com',
        token: 'old',
        tokenId: 't0',
        expiresAt: '2020-01-01T00:00:00.000Z',
        user: USER,
      }),
    );
    const store = new SessionStore({ host: f.host, storage: f.storage, fetch: f.fetch });
    expect(store.current()).toBeNull();
    expect(f.mem.has(TOKEN_STORAGE_KEY)).toBe(false);
  });
});
