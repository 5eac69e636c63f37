// The pane's sign-in: a bearer token from POST /api/v1/auth/token (the server's add-in and extension
// tokens, TOKEN_TTL_DAYS long), kept in the pane's own storage and sent as `Authorization: Bearer`;
// the server address lives in the mailbox's roaming settings (it follows the rep to every Outlook).
// Sign-out revokes the token on the server (DELETE /api/v1/auth/token) and forgets it here.
// The API client (every zod contract) loads only when a call needs it: the signed-in pane's first
// view renders without it (pane/first-view-api.ts).
import type { Api, HttpOptions } from '@dealscout/shared/client';
import type { UserDto } from '@dealscout/shared/contracts';
import type { OutlookHost } from '../office/outlook';

export const SERVER_URL_SETTING = 'serverUrl';
export const TOKEN_STORAGE_KEY = 'dealscout.addin.session';
export const TOKEN_LABEL = 'Outlook add-in';

export interface Session {
  serverUrl: string;
  token: string;
  tokenId: string;
  expiresAt: string;
  user: UserDto;
}

/** 'https://ds.example.com/' → 'https://ds.example.com'; null when it is no http(s) address. */
export function normalizeServerUrl(raw: string): string | null {
  const s = raw.trim();
  if (!s) return null;
  try {
    const u = new URL(/^[a-z]+:\/\//i.test(s) ? s : `https://${s}`);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    return u.origin;
  } catch {
    return null;
  }
}

export interface SessionStoreOptions {
  host: OutlookHost;
  /** The pane's own origin: the server that served it is the default address. */
  origin?: string;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  fetch?: typeof fetch;
  now?: () => number;
}

type Listener = () => void;

export class SessionStore {
  private session: Session | null;
  private listeners = new Set<Listener>();
  private readonly storage: SessionStoreOptions['storage'];

  constructor(private readonly opts: SessionStoreOptions) {
    this.storage = opts.storage ?? globalThis.localStorage;
    this.session = this.load();
  }

  /** The server the pane talks to: the saved address, else the one that served the pane. */
  serverUrl(): string {
    return normalizeServerUrl(this.opts.host.settings.get(SERVER_URL_SETTING) ?? '') ?? normalizeServerUrl(this.opts.origin ?? '') ?? '';
  }

  current(): Session | null {
    return this.session;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How a client talks to a server; with a session its calls carry the token, and a 401 signs out. */
  apiOptions(serverUrl: string, session: Session | null = null): HttpOptions {
    return {
      baseUrl: serverUrl,
      getToken: () => session?.token ?? null,
      onUnauthorized: () => {
        if (session && this.session?.token === session.token) this.forget();
      },
      fetch: this.opts.fetch,
    };
  }

  /** An API client for a server (apiOptions), its module loaded on first use. */
  async api(serverUrl: string, session: Session | null = null): Promise<Api> {
    const { createApi } = await import('./api-client');
    return createApi(this.apiOptions(serverUrl, session));
  }

  async signIn(serverUrl: string, email: string, password: string): Promise<Session> {
    const res = await (await this.api(serverUrl)).auth.token({ email, password, label: TOKEN_LABEL });
    const session: Session = { serverUrl, token: res.token, tokenId: res.tokenId, expiresAt: res.expiresAt, user: res.user };
    await this.opts.host.settings.set(SERVER_URL_SETTING, serverUrl);
    this.storage?.setItem(TOKEN_STORAGE_KEY, JSON.stringify(session));
    this.set(session);
    return session;
  }

  /** Revokes the token on the server (best effort: offline, it still signs out here). */
  async signOut(): Promise<void> {
    const s = this.session;
    if (!s) return;
    try {
      await (await this.api(s.serverUrl, s)).auth.revokeToken();
    } catch (e) {
      console.warn('Could not revoke the add-in token', e);
    }
    this.forget();
  }

  /** Keeps the user's latest profile (settings, names) with the session. */
  updateUser(user: UserDto): void {
    if (!this.session) return;
    const next = { ...this.session, user };
    this.storage?.setItem(TOKEN_STORAGE_KEY, JSON.stringify(next));
    this.set(next);
  }

  private forget(): void {
    this.storage?.removeItem(TOKEN_STORAGE_KEY);
    this.set(null);
  }

  private set(s: Session | null): void {
    this.session = s;
    for (const l of this.listeners) l();
  }

  private load(): Session | null {
    try {
      const raw = this.storage?.getItem(TOKEN_STORAGE_KEY);
      if (!raw) return null;
      const s = JSON.parse(raw) as Session;
      const now = this.opts.now?.() ?? Date.now();
      if (!s.token || !s.serverUrl || !s.user || Date.parse(s.expiresAt) <= now) {
        this.storage?.removeItem(TOKEN_STORAGE_KEY);
        return null;
      }
      return s;
    } catch {
      return null;
    }
  }
}
