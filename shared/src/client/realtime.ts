// The realtime client shared by the three clients (no React): one WebSocket to /api/v1/realtime,
// authenticated with a short-lived token, subscriptions by path, reconnect with exponential backoff
// and jitter, and resume from the last sequence number so nothing is missed or seen twice.
//
//   const rt = createRealtimeClient({ url: realtimeUrl(location.origin), getToken: () => api.notifications.token() });
//   const off = rt.subscribe(realtimePaths.activities(oid), (e) => queryClient.invalidateQueries(...));
//   rt.onStatus((s) => { if (s.status === 'failed') toast(s.message) });
//   rt.start();
import type { RealtimeEvent, RealtimeServerMessage } from '../contracts';
import { pathMatches, REALTIME_MESSAGES, REALTIME_FINAL_CLOSE_CODES } from '../domain';

/** The part of the WebSocket API the client uses (the browser's, Node 22's global, or `ws`). */
export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason?: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}
export type SocketFactory = (url: string) => SocketLike;

export type RealtimeStatus =
  | { status: 'idle' }
  | { status: 'connecting'; attempt: number }
  | { status: 'open' }
  | { status: 'reconnecting'; attempt: number; delayMs: number }
  /** Could not connect `failAfter` times in a row: show the message; the client keeps trying. */
  | { status: 'failed'; message: string }
  /** The session ended (logout, disabled, deleted): no more reconnects; sign in again. */
  | { status: 'closed'; message: string };

export interface RealtimeClientOptions {
  /** ws(s)://host/api/v1/realtime (see realtimeUrl). */
  url: string;
  /** A fresh token for each connection (api.notifications.token). */
  getToken: () => Promise<{ token: string }>;
  /** Defaults to the global WebSocket. */
  socketFactory?: SocketFactory;
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** 0..1: each delay is scaled by a random factor in [1 − jitter, 1]. */
  jitter?: number;
  /** Consecutive failed attempts before status 'failed' (the spec's toast). */
  failAfter?: number;
  /** App-level ping (also detects half-open connections): 0 turns it off. */
  pingIntervalMs?: number;
  /** Resume after this sequence number (e.g. kept across a page's lifetime). */
  lastSeq?: number | null;
  random?: () => number;
  timers?: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };
}

export type RealtimeHandler = (event: RealtimeEvent) => void;

/** The socket address for a server origin: https://x → wss://x/api/v1/realtime. */
export function realtimeUrl(origin: string): string {
  return `${origin.replace(/^http/, 'ws').replace(/\/$/, '')}/api/v1/realtime`;
}

const OPEN = 1;

export class RealtimeClient {
  private socket: SocketLike | null = null;
  private readonly handlers = new Map<string, Set<RealtimeHandler>>();
  private readonly statusListeners = new Set<(s: RealtimeStatus) => void>();
  private readonly resetListeners = new Set<() => void>();
  private readonly refusedListeners = new Set<(path: string, message: string) => void>();
  private current: RealtimeStatus = { status: 'idle' };
  private attempt = 0;
  private failures = 0;
  private failureAnnounced = false;
  private reconnectTimer: unknown = null;
  private pingTimer: unknown = null;
  private stopped = true;
  private ready = false;
  private subscribedOnce = false;
  /** The last sequence number handled; events at or below it are duplicates. */
  lastSeq: number | null;
  private readonly o: Required<Omit<RealtimeClientOptions, 'lastSeq' | 'socketFactory'>> & { socketFactory: SocketFactory };

  constructor(opts: RealtimeClientOptions) {
    const g = globalThis as unknown as { WebSocket?: new (url: string) => SocketLike };
    this.o = {
      url: opts.url,
      getToken: opts.getToken,
      socketFactory:
        opts.socketFactory ??
        ((url) => {
          if (!g.WebSocket) throw new Error('No WebSocket implementation');
          return new g.WebSocket(url);
        }),
      initialDelayMs: opts.initialDelayMs ?? 500,
      maxDelayMs: opts.maxDelayMs ?? 30_000,
      jitter: opts.jitter ?? 0.3,
      failAfter: opts.failAfter ?? 5,
      pingIntervalMs: opts.pingIntervalMs ?? 30_000,
      random: opts.random ?? Math.random,
      timers: opts.timers ?? {
        setTimeout: (fn, ms) => setTimeout(fn, ms),
        clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      },
    };
    this.lastSeq = opts.lastSeq ?? null;
  }

  get status(): RealtimeStatus {
    return this.current;
  }

  onStatus(fn: (s: RealtimeStatus) => void): () => void {
    this.statusListeners.add(fn);
    return () => this.statusListeners.delete(fn);
  }

  /** Events were missed for good (older than the server keeps): reload the data. */
  onReset(fn: () => void): () => void {
    this.resetListeners.add(fn);
    return () => this.resetListeners.delete(fn);
  }

  onRefused(fn: (path: string, message: string) => void): () => void {
    this.refusedListeners.add(fn);
    return () => this.refusedListeners.delete(fn);
  }

  /** Receives the events on `path` and below it; answers the function that stops it. */
  subscribe(path: string, handler: RealtimeHandler): () => void {
    let set = this.handlers.get(path);
    const isNew = !set;
    if (!set) this.handlers.set(path, (set = new Set()));
    set.add(handler);
    if (isNew && this.ready) this.send({ type: 'subscribe', paths: [path] });
    return () => {
      const s = this.handlers.get(path);
      if (!s) return;
      s.delete(handler);
      if (s.size === 0) {
        this.handlers.delete(path);
        if (this.ready) this.send({ type: 'unsubscribe', paths: [path] });
      }
    };
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.connect();
  }

  /** Stops for good (until start()). */
  stop(): void {
    this.stopped = true;
    this.clearTimers();
    const s = this.socket;
    this.socket = null;
    this.ready = false;
    if (s && s.readyState <= OPEN) s.close(1000, 'Client closed');
    this.setStatus({ status: 'idle' });
  }

  private setStatus(s: RealtimeStatus): void {
    this.current = s;
    for (const fn of this.statusListeners) fn(s);
  }

  private clearTimers(): void {
    if (this.reconnectTimer) this.o.timers.clearTimeout(this.reconnectTimer);
    if (this.pingTimer) this.o.timers.clearTimeout(this.pingTimer);
    this.reconnectTimer = null;
    this.pingTimer = null;
  }

  private send(msg: unknown): void {
    if (this.socket && this.socket.readyState === OPEN) this.socket.send(JSON.stringify(msg));
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.attempt += 1;
    this.setStatus({ status: 'connecting', attempt: this.attempt });
    let token: string;
    try {
      token = (await this.o.getToken()).token;
    } catch {
      this.scheduleReconnect();
      return;
    }
    if (this.stopped) return;
    let socket: SocketLike;
    try {
      socket = this.o.socketFactory(this.o.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.ready = false;
    this.subscribedOnce = false;
    socket.onopen = () => socket.send(JSON.stringify({ type: 'auth', token }));
    socket.onmessage = (ev) => this.onMessage(socket, ev.data);
    socket.onerror = () => {};
    socket.onclose = (ev) => this.onClose(socket, ev.code);
  }

  private onMessage(socket: SocketLike, raw: unknown): void {
    if (socket !== this.socket) return;
    let msg: RealtimeServerMessage;
    try {
      msg = JSON.parse(typeof raw === 'string' ? raw : String(raw)) as RealtimeServerMessage;
    } catch {
      return;
    }
    this.armPing();
    switch (msg.type) {
      case 'ready': {
        this.ready = true;
        const paths = [...this.handlers.keys()];
        if (paths.length > 0) {
          // One subscribe with everything: `since` resumes only on a socket's first subscription.
          this.send({ type: 'subscribe', paths, ...(this.lastSeq !== null ? { since: this.lastSeq } : {}) });
        } else {
          if (this.lastSeq === null) this.lastSeq = msg.seq;
          this.opened();
        }
        return;
      }
      case 'subscribed':
        if (!this.subscribedOnce) {
          this.subscribedOnce = true;
          if (this.lastSeq === null) this.lastSeq = msg.seq;
          this.opened();
        }
        return;
      case 'events':
        for (const e of msg.events) this.dispatch(e);
        return;
      case 'reset':
        this.lastSeq = msg.seq;
        for (const fn of this.resetListeners) fn();
        return;
      case 'refused':
        for (const fn of this.refusedListeners) fn(msg.path, msg.message);
        return;
      default:
    }
  }

  private opened(): void {
    this.attempt = 0;
    this.failures = 0;
    this.failureAnnounced = false;
    this.setStatus({ status: 'open' });
  }

  private dispatch(e: RealtimeEvent): void {
    if (this.lastSeq !== null && e.seq <= this.lastSeq) return;
    this.lastSeq = e.seq;
    for (const [path, set] of this.handlers) {
      if (!pathMatches(path, e.path)) continue;
      for (const h of set) h(e);
    }
  }

  private armPing(): void {
    if (!this.o.pingIntervalMs) return;
    if (this.pingTimer) this.o.timers.clearTimeout(this.pingTimer);
    // Quiet for a whole interval: ping; quiet for another: the connection is dead.
    this.pingTimer = this.o.timers.setTimeout(() => {
      this.send({ type: 'ping' });
      this.pingTimer = this.o.timers.setTimeout(() => this.socket?.close(4000, 'No answer to ping'), this.o.pingIntervalMs);
    }, this.o.pingIntervalMs);
  }

  private onClose(socket: SocketLike, code: number): void {
    if (socket !== this.socket) return;
    this.socket = null;
    this.ready = false;
    this.clearTimers();
    if (this.stopped) return;
    if (REALTIME_FINAL_CLOSE_CODES.includes(code)) {
      this.stopped = true;
      this.setStatus({ status: 'closed', message: REALTIME_MESSAGES.sessionEnded });
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    if (this.current.status !== 'open') this.failures += 1;
    const base = Math.min(this.o.maxDelayMs, this.o.initialDelayMs * 2 ** Math.max(0, this.attempt - 1));
    const delayMs = Math.round(base * (1 - this.o.jitter * this.o.random()));
    if (this.failures >= this.o.failAfter && !this.failureAnnounced) {
      this.failureAnnounced = true;
      this.setStatus({ status: 'failed', message: REALTIME_MESSAGES.cannotConnect });
    } else {
      this.setStatus({ status: 'reconnecting', attempt: this.attempt, delayMs });
    }
    this.reconnectTimer = this.o.timers.setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, delayMs);
  }
}

export function createRealtimeClient(opts: RealtimeClientOptions): RealtimeClient {
  return new RealtimeClient(opts);
}
