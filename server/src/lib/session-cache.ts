// What the auth hook found for a token, kept for a few seconds per API process (SESSION_CACHE_MS),
// so that a signed-in request costs no session lookup. Correct across processes:
// - a session revoked or deleted, a user disabled, deleted or changed (name, email, role, settings,
//   calendar, signature) — on any process, by any code path — is announced by the database's
//   triggers on `ds_realtime_auth` ({sid}, {uid}; {cu} for a change, on which the realtime hub closes
//   nothing); each cache LISTENs there and drops those entries at once;
// - this process's own changes (sign-out, revoking a token, a user's settings, name, calendar,
//   signature, role) drop the entries right away too (forgetSession / forgetUser), before the answer
//   goes out, so the caller's next request never waits for the notification;
// - SESSION_CACHE_MS bounds what no trigger announces (a session's last-seen time).
// Entries are served only while the LISTEN connection is up: when it drops, the cache is emptied and
// every request looks its session up again until it is back. A lookup that started before an
// invalidation never stores its (possibly stale) answer (the generation check).
// Other per-process caches share the connection (`watch`): the field definitions' cache gets the
// channel's {fo} announcements, and null whenever the connection is lost or comes back.
import pg from 'pg';
import type { Logger } from 'pino';

export const AUTH_CHANNEL = 'ds_realtime_auth';

/** The session and user columns the auth hook needs, as entity data (property names). */
export interface AuthRow {
  session: {
    id: string;
    organization: string;
    user: string;
    kind: string;
    tokenHash: string;
    csrfToken: string | null;
    label: string | null;
    userAgent: string | null;
    ip: string | null;
    createdAt: Date;
    lastSeenAt: Date;
    expiresAt: Date;
    revokedAt: Date | null;
  };
  user: {
    id: string;
    organization: string;
    email: string;
    firstName: string;
    lastName: string;
    role: string;
    status: string;
    deleted: boolean;
    invitationAccepted: boolean;
    settings: Record<string, unknown>;
    calendar: Record<string, unknown>;
    emailSignature: string | null;
    createdAt: Date;
    updatedAt: Date;
  };
}

interface Entry {
  row: AuthRow;
  until: number;
}

/** Every cache of this process (one per app), so the modules' writes reach them without an app at hand. */
const caches = new Set<SessionCache>();

/** This process's own change to a session (revoked): dropped from every cache before the answer goes out. */
export function forgetSession(sessionId: string): void {
  for (const c of caches) c.drop((r) => r.session.id === sessionId);
}

/** This process's own change to a user's row (settings, name, role, sessions revoked). */
export function forgetUser(userId: string): void {
  for (const c of caches) c.drop((r) => r.user.id === userId);
}

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private client: pg.Client | null = null;
  private live = false;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly watchers = new Set<(payload: Record<string, unknown> | null) => void>();

  constructor(private readonly opts: { connectionString: string; ttlMs: number; logger: Logger; maxEntries?: number }) {}

  get enabled(): boolean {
    return this.opts.ttlMs > 0;
  }

  /** Whether the LISTEN connection is up (announcements arrive): only then may anything be served from a cache. */
  get listening(): boolean {
    return this.live;
  }

  /** Another cache of this process: gets every other announcement on the channel, and null on a loss or reconnect. */
  watch(watcher: (payload: Record<string, unknown> | null) => void): void {
    this.watchers.add(watcher);
  }

  /** Connects the LISTEN connection (no-op when the cache is off); lookups are cached once it is up. */
  async start(): Promise<void> {
    if (!this.enabled) return;
    caches.add(this);
    await this.connect().catch((err: Error) => {
      this.opts.logger.warn({ err }, 'session cache: LISTEN connection failed; sessions are looked up on every request');
      this.scheduleRetry(1);
    });
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.opts.connectionString, application_name: 'dealscout-session-cache' });
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      this.live = false;
      this.clear();
      for (const w of this.watchers) w(null);
      if (!this.closed) this.scheduleRetry(0);
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (msg) => this.onNotification(msg.payload));
    await client.connect();
    await client.query(`listen ${AUTH_CHANNEL}`);
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
    this.clear();
    for (const w of this.watchers) w(null);
    this.live = true;
  }

  private scheduleRetry(attempt: number): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(
      () => {
        this.retry = null;
        this.connect().catch(() => this.scheduleRetry(attempt + 1));
      },
      Math.min(30_000, 250 * 2 ** attempt),
    );
    this.retry.unref();
  }

  private onNotification(payload: string | undefined): void {
    if (!payload) return;
    try {
      const p = JSON.parse(payload) as { sid?: string; uid?: string; cu?: string };
      const uid = p.uid ?? p.cu;
      if (p.sid === undefined && uid === undefined) {
        for (const w of this.watchers) w(p);
        return;
      }
      this.drop((r) => (p.sid !== undefined && r.session.id === p.sid) || (uid !== undefined && r.user.id === uid));
    } catch {
      this.clear();
      for (const w of this.watchers) w(null);
    }
  }

  /** The cached row of a token's hash, when fresh. */
  get(tokenHash: string): AuthRow | null {
    if (!this.live) return null;
    const e = this.entries.get(tokenHash);
    if (!e) return null;
    if (e.until <= Date.now()) {
      this.entries.delete(tokenHash);
      return null;
    }
    return e.row;
  }

  /** Taken before a lookup; `set` stores its answer only if nothing was invalidated since. */
  mark(): number {
    return this.generation;
  }

  set(tokenHash: string, row: AuthRow, mark: number): void {
    if (!this.live || mark !== this.generation) return;
    if (this.entries.size >= (this.opts.maxEntries ?? 50_000)) this.entries.clear();
    this.entries.set(tokenHash, { row, until: Date.now() + this.opts.ttlMs });
  }

  /** Keeps the cached `lastSeenAt` in step with the row after the hook touched it. */
  touched(tokenHash: string, at: Date): void {
    const e = this.entries.get(tokenHash);
    if (e) e.row = { ...e.row, session: { ...e.row.session, lastSeenAt: at } };
  }

  drop(match: (row: AuthRow) => boolean): void {
    this.generation += 1;
    for (const [k, e] of this.entries) if (match(e.row)) this.entries.delete(k);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  async close(): Promise<void> {
    this.closed = true;
    caches.delete(this);
    if (this.retry) clearTimeout(this.retry);
    this.live = false;
    this.entries.clear();
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => {});
  }
}
