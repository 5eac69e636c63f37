// The realtime hub of one API process: its WebSockets, and one dedicated PostgreSQL connection that
// LISTENs for the events every process writes (the realtime_event trigger NOTIFYs at commit, in
// commit order). Worker processes never build it; they only write events.
//
// Guarantees, per socket: events arrive in sequence order; an event the client missed while
// disconnected is replayed when it resumes with `since`; nothing is sent twice. Events that share
// a key are coalesced (only the newest is sent) within a flush window and in a replay. A socket
// whose send buffer grows over the bound is closed (4008) rather than buffered without limit; the
// client reconnects and resumes.
import pg from 'pg';
import type { WebSocket, RawData } from 'ws';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { RealtimeClientMessage, type RealtimeEvent, type RealtimeServerMessage } from '@dealscout/shared/contracts';
import { canSubscribe, pathMatches, REALTIME_MESSAGES, REALTIME_CLOSE_CODES } from '@dealscout/shared/domain';
import { verifyRealtimeToken } from './token';
import { textFrame, writeFrame } from './frame';
import { currentSeq } from './publish';
import { tenantSql, unscopedSql } from '../../db/sql';

export interface HubOptions {
  connectionString: string;
  orm: MikroORM;
  logger: Logger;
  secret: string;
  /** Close a socket whose unsent data exceeds this (bytes). */
  maxBufferedBytes: number;
  /** Events for one socket are sent at most once per this window (ms); same-key events in it coalesce. */
  flushMs: number;
  /** A resume that would replay more events than this gets 'reset' instead. */
  replayLimit: number;
  /** How often every socket's session is re-checked (seconds), besides the NOTIFY on revocation. */
  sessionCheckSeconds: number;
  authTimeoutMs?: number;
  heartbeatMs?: number;
}

export const REALTIME_CHANNEL = 'ds_realtime';
export const REALTIME_AUTH_CHANNEL = 'ds_realtime_auth';
const MAX_MESSAGE_BYTES = 16 * 1024;
const REPLAY_CHUNK = 500;

interface HubEvent extends RealtimeEvent {
  /** The event serialized once, shared by every socket it goes to. */
  json?: string;
  /** The WebSocket frame carrying this event alone, encoded once for every socket that gets just this event. */
  frame?: Buffer;
  /** When this process had the event (performance.now(): its notification arrived, or it was read to fill a gap). */
  arrived?: number;
}

const eventJson = (e: HubEvent): string =>
  (e.json ??= JSON.stringify({ seq: e.seq, path: e.path, kind: e.kind, key: e.key, data: e.data, at: e.at }));

function encodeEvents(events: HubEvent[]): Buffer {
  let body = '{"type":"events","events":[';
  for (let i = 0; i < events.length; i++) body += (i ? ',' : '') + eventJson(events[i]);
  return textFrame(Buffer.from(`${body}]}`));
}

interface Conn {
  id: number;
  socket: WebSocket;
  uid: string | null;
  oid: string | null;
  sid: string | null;
  /** path → only events with a greater seq are delivered on it. */
  subs: Map<string, number>;
  subscribed: boolean;
  /** > 0 while a subscription is settling: live events wait in `held`. */
  hold: number;
  held: HubEvent[];
  /**
   * The events waiting for the socket's next flush, in sequence order, one per key. The usual case,
   * one event, lives in `one` (no map touched per socket in a broadcast); a second one moves both to
   * `many`. At most one of the two holds events.
   */
  one: HubEvent | null;
  many: Map<string, HubEvent> | null;
  /** A flush of the pending events is scheduled. */
  queued: boolean;
  lastFlush: number;
  alive: boolean;
  closed: boolean;
  queue: Promise<void>;
  /** The dispatch that last reached this socket (a socket subscribed to two paths an event matches gets it once). */
  reached: number;
}

/**
 * What the realtime_event trigger NOTIFYs, once per statement and organization: the range of
 * sequence numbers written (`m` to `s`) with the events (`e`) when they fit, else only the range
 * (read from the table). `p`…`t` / `f` without `m` is the older one-event-per-NOTIFY form.
 */
interface NotifyPayload {
  o: string;
  s: number | string;
  m?: number | string;
  e?: { s: number | string; p: string; k: string; y: string | null; d: unknown; t: string }[];
  p?: string;
  k?: string;
  y?: string | null;
  d?: unknown;
  t?: string;
  f?: boolean;
}

interface EventRow {
  seq: string | number;
  path: string;
  kind: string;
  key: string | null;
  data: unknown;
  created_at: Date | string;
}

function toEvent(r: EventRow): HubEvent {
  return { seq: Number(r.seq), path: r.path, kind: r.kind, key: r.key, data: r.data, at: new Date(r.created_at).toISOString() };
}

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The subscriptions an event on `path` reaches (pathMatches): the path itself and every segment
 * prefix of it, e.g. org/{oid}/executions/enrichment/company → org/{oid}/executions/enrichment, org/{oid}/executions, ….
 */
function subscriptionsOf(path: string): string[] {
  const out = [path];
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) out.push(path.slice(0, i));
  return out;
}

const keyOf = (e: HubEvent): string => e.key ?? `#${e.seq}`;

/** Keeps only the newest event of each key, in sequence order. */
function coalesce(events: HubEvent[]): HubEvent[] {
  const byKey = new Map<string, HubEvent>();
  for (const e of events) {
    const k = keyOf(e);
    byKey.delete(k);
    byKey.set(k, e);
  }
  return [...byKey.values()];
}

export class RealtimeHub {
  private readonly conns = new Set<Conn>();
  private readonly byOrg = new Map<string, Set<Conn>>();
  /**
   * Per organization, subscription path → the sockets subscribed to it: an event goes only through
   * the sockets of the subscriptions it matches, not through every socket of its organization (a
   * run's thousands of execution events reach no socket subscribed elsewhere, at the cost of a few
   * map lookups each).
   */
  private readonly subscribers = new Map<string, Map<string, Set<Conn>>>();
  /** subscriptionsOf() per event path (a few distinct paths per organization). */
  private readonly matchCache = new Map<string, string[]>();
  private dispatchId = 0;
  /** The last sequence number dispatched per organization that has sockets here. */
  private readonly lastSeq = new Map<string, number>();
  private client: pg.Client | null = null;
  private listening: Promise<void> | null = null;
  private chain: Promise<void> = Promise.resolve();
  private nextId = 1;
  private closing = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private readonly authTimeoutMs: number;
  private readonly heartbeatMs: number;
  /** Sockets whose flush is due in the round after the current turn (setImmediate). */
  private immediate: Conn[] | null = null;
  /** Sockets whose flush is due at a later time (ms): one timer per distinct time, not one per socket. */
  private readonly due = new Map<number, Conn[]>();
  /** Frames of several events, encoded once per flush round for every socket that gets the same events. */
  private readonly frames = new Map<string, Buffer>();
  /** Counters for tests, the log and GET /metrics (events: sent to a socket, coalesced before they went, dropped with a slow socket). */
  readonly stats = {
    dispatched: 0,
    droppedSlow: 0,
    closedSession: 0,
    reconnects: 0,
    eventsSent: 0,
    eventsCoalesced: 0,
    eventsDropped: 0,
  };
  /**
   * Called once per flush round with the seconds from the arrival of the round's oldest event to
   * its last frame handed to the kernel (GET /metrics: dealscout_realtime_fanout_seconds). For a
   * broadcast, every socket the event reaches is in one round: the server's own fan-out time.
   */
  onFanout: ((seconds: number) => void) | null = null;

  constructor(private readonly opts: HubOptions) {
    this.authTimeoutMs = opts.authTimeoutMs ?? 10_000;
    this.heartbeatMs = opts.heartbeatMs ?? 30_000;
  }

  get socketCount(): number {
    return this.conns.size;
  }

  /** Starts the LISTEN connection (lazily, with the first socket; idempotent). */
  ensureListening(): Promise<void> {
    if (this.closing) return Promise.reject(new Error('realtime hub is closed'));
    if (!this.listening) {
      this.listening = this.connectListener().then(
        () => this.startTimers(),
        (err) => {
          this.listening = null;
          throw err;
        },
      );
    }
    return this.listening;
  }

  private async connectListener(): Promise<void> {
    const client = new pg.Client({ connectionString: this.opts.connectionString, application_name: 'dealscout-realtime' });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      client.removeAllListeners('notification');
      if (this.closing) return;
      this.opts.logger.warn({ err }, 'realtime listener lost its database connection; reconnecting');
      this.scheduleReconnect(0);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (msg) => this.onNotification(msg.channel, msg.payload));
    await client.connect();
    await client.query(`listen ${REALTIME_CHANNEL}`);
    await client.query(`listen ${REALTIME_AUTH_CHANNEL}`);
    this.client = client;
  }

  private scheduleReconnect(attempt: number): void {
    if (this.closing || this.reconnectTimer) return;
    const delay = Math.min(30_000, 250 * 2 ** attempt);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connectListener()
        .then(() => {
          this.stats.reconnects += 1;
          // Whatever was committed while we were not listening is read from the table.
          this.chain = this.chain.then(() => this.catchUp()).catch((err) => this.opts.logger.error({ err }, 'realtime catch-up failed'));
        })
        .catch(() => this.scheduleReconnect(attempt + 1));
    }, delay);
  }

  private startTimers(): void {
    if (!this.sweepTimer) {
      this.sweepTimer = setInterval(() => {
        void this.sweepSessions().catch((err) => this.opts.logger.error({ err }, 'realtime session sweep failed'));
      }, this.opts.sessionCheckSeconds * 1000);
      this.sweepTimer.unref();
    }
    if (!this.heartbeatTimer) {
      this.heartbeatTimer = setInterval(() => this.heartbeat(), this.heartbeatMs);
      this.heartbeatTimer.unref();
    }
  }

  /** For tests and benchmarks: drop the LISTEN connection as a network failure would. */
  simulateListenerLoss(): void {
    void this.client?.end();
  }

  // ---------- database side ----------

  private onNotification(channel: string, payload: string | undefined): void {
    if (!payload) return;
    if (channel === REALTIME_AUTH_CHANNEL) {
      try {
        const p = JSON.parse(payload) as { sid?: string; uid?: string };
        for (const c of this.conns) {
          if ((p.sid && c.sid === p.sid) || (p.uid && c.uid === p.uid)) this.endSession(c);
        }
      } catch {
        /* not ours */
      }
      return;
    }
    const arrived = performance.now();
    this.chain = this.chain
      .then(() => this.processNotification(payload, arrived))
      .catch((err) => this.opts.logger.error({ err }, 'realtime dispatch failed'));
  }

  private async processNotification(payload: string, arrived: number): Promise<void> {
    const p = JSON.parse(payload) as NotifyPayload;
    const oid = p.o;
    const upTo = Number(p.s);
    const from = p.m !== undefined ? Number(p.m) : upTo;
    if (!this.byOrg.get(oid)?.size) return;
    const last = this.lastSeq.get(oid);
    if (last !== undefined && upTo <= last) return;
    if (last !== undefined && from > last + 1) await this.fill(oid, last, from - 1);
    let events: HubEvent[];
    if (p.e) events = p.e.map((x) => toEvent({ seq: x.s, path: x.p, kind: x.k, key: x.y ?? null, data: x.d ?? null, created_at: x.t }));
    else if (p.m === undefined && !p.f)
      events = [toEvent({ seq: upTo, path: p.p!, kind: p.k!, key: p.y ?? null, data: p.d ?? null, created_at: p.t! })];
    else events = await this.readEvents(oid, from - 1, upTo);
    const seen = this.lastSeq.get(oid);
    for (const ev of events) if (seen === undefined || ev.seq > seen) this.dispatch(oid, ev, arrived);
    this.lastSeq.set(oid, upTo);
  }

  private async readEvents(oid: string, after: number, upTo: number): Promise<HubEvent[]> {
    const rows = await tenantSql(this.opts.orm.em.fork(), oid).all<EventRow>(
      `select seq, path, kind, key, data, created_at from realtime_event where organization_id = ? and seq > ? and seq <= ? order by seq`,
      [oid, after, upTo],
    );
    return rows.map(toEvent);
  }

  private async fill(oid: string, after: number, upTo: number): Promise<void> {
    const events = await this.readEvents(oid, after, upTo);
    const arrived = performance.now();
    for (const ev of events) this.dispatch(oid, ev, arrived);
    this.lastSeq.set(oid, upTo);
  }

  /** After a reconnect of the listener: everything after what each organization last saw. */
  private async catchUp(): Promise<void> {
    for (const [oid, conns] of this.byOrg) {
      if (conns.size === 0) continue;
      let from = this.lastSeq.get(oid);
      if (from === undefined) {
        const starts = [...conns].flatMap((c) => [...c.subs.values()]).filter(Number.isFinite);
        if (starts.length === 0) continue;
        from = Math.min(...starts);
      }
      const upTo = await currentSeq(this.opts.orm.em.fork(), oid);
      if (upTo > from) await this.fill(oid, from, upTo);
    }
  }

  private dispatch(oid: string, ev: HubEvent, arrived: number): void {
    if (!this.byOrg.has(oid)) return;
    this.stats.dispatched += 1;
    ev.arrived ??= arrived;
    const index = this.subscribers.get(oid);
    if (!index) return;
    let paths = this.matchCache.get(ev.path);
    if (!paths) {
      if (this.matchCache.size >= 10_000) this.matchCache.clear();
      this.matchCache.set(ev.path, (paths = subscriptionsOf(ev.path)));
    }
    const id = ++this.dispatchId;
    const now = Date.now();
    for (const p of paths) {
      const conns = index.get(p);
      if (!conns) continue;
      for (const c of conns) {
        if (c.reached === id) continue;
        if (c.hold > 0 || c.closed) {
          c.reached = id;
          this.deliver(c, ev);
          continue;
        }
        // The index matched the path; only the subscription's start is left to check (another
        // matching subscription of the socket may still let the event through).
        if (!(ev.seq > c.subs.get(p)!)) continue;
        c.reached = id;
        this.enqueue(c, ev, now);
      }
    }
  }

  /** Adds the socket's subscription to `path` to the fan-out index (its start goes in c.subs). */
  private addSubscription(c: Conn, path: string, start: number): void {
    c.subs.set(path, start);
    let index = this.subscribers.get(c.oid!);
    if (!index) this.subscribers.set(c.oid!, (index = new Map()));
    let conns = index.get(path);
    if (!conns) index.set(path, (conns = new Set()));
    conns.add(c);
  }

  private removeSubscription(c: Conn, path: string): void {
    if (!c.subs.delete(path)) return;
    const index = this.subscribers.get(c.oid!);
    const conns = index?.get(path);
    if (!index || !conns) return;
    conns.delete(c);
    if (conns.size === 0) index.delete(path);
    if (index.size === 0) this.subscribers.delete(c.oid!);
  }

  // ---------- socket side ----------

  private deliver(c: Conn, ev: HubEvent): void {
    if (c.closed) return;
    if (c.hold > 0) {
      c.held.push(ev);
      return;
    }
    if (!this.wants(c, ev)) return;
    this.enqueue(c, ev, Date.now());
  }

  /** Adds an event the socket wants to its pending ones (the newest of a key replaces the older) and schedules their flush. */
  private enqueue(c: Conn, ev: HubEvent, now: number): void {
    if (c.one === null && !c.many?.size) c.one = ev;
    else {
      const many = (c.many ??= new Map());
      if (c.one !== null) {
        many.set(keyOf(c.one), c.one);
        c.one = null;
      }
      const k = keyOf(ev);
      if (many.delete(k)) this.stats.eventsCoalesced += 1;
      many.set(k, ev);
    }
    this.schedule(c, now);
  }

  /**
   * Flushes a socket's pending events once its window allows: at once (all the sockets an event
   * reaches together, in one round after the current turn) or when its window ends.
   */
  private schedule(c: Conn, now: number): void {
    if (c.queued) return;
    c.queued = true;
    if (c.lastFlush + this.opts.flushMs <= now) {
      // Every socket due now joins one round, even when the clock ticks during a dispatch.
      if (!this.immediate) {
        const batch: Conn[] = (this.immediate = []);
        setImmediate(() => {
          this.immediate = null;
          this.runRound(batch);
        });
      }
      this.immediate.push(c);
      return;
    }
    const at = c.lastFlush + this.opts.flushMs;
    let list = this.due.get(at);
    if (!list) {
      const batch: Conn[] = [];
      this.due.set(at, (list = batch));
      setTimeout(() => {
        this.due.delete(at);
        this.runRound(batch);
      }, at - now);
    }
    list.push(c);
  }

  private runRound(batch: Conn[]): void {
    let oldest = Infinity;
    for (const x of batch) {
      const t = this.flush(x);
      if (t < oldest) oldest = t;
    }
    if (oldest !== Infinity) this.onFanout?.((performance.now() - oldest) / 1000);
  }

  private wants(c: Conn, ev: HubEvent): boolean {
    for (const [path, start] of c.subs) if (ev.seq > start && pathMatches(path, ev.path)) return true;
    return false;
  }

  /** Sends the socket's pending events; returns when the oldest of them arrived (Infinity: nothing sent). */
  private flush(c: Conn): number {
    c.queued = false;
    if (c.closed) return Infinity;
    const one = c.one;
    if (one !== null) {
      // One event (a broadcast's usual case): its frame is shared by every socket it goes to.
      c.one = null;
      c.lastFlush = Date.now();
      if (this.overBuffer(c, 1)) return Infinity;
      this.stats.eventsSent += 1;
      writeFrame(c.socket, (one.frame ??= encodeEvents([one])));
      return one.arrived ?? Infinity;
    }
    if (!c.many?.size) return Infinity;
    const events = [...c.many.values()];
    c.many.clear();
    c.lastFlush = Date.now();
    this.sendEvents(c, events);
    let oldest = Infinity;
    for (const e of events) if (e.arrived !== undefined && e.arrived < oldest) oldest = e.arrived;
    return oldest;
  }

  private sendEvents(c: Conn, events: HubEvent[]): void {
    if (c.closed || events.length === 0 || this.overBuffer(c, events.length)) return;
    this.stats.eventsSent += events.length;
    writeFrame(c.socket, this.frameOf(c.oid ?? '', events));
  }

  /**
   * The `events` frame, encoded once: per event when it goes alone (an event object belongs to one
   * organization), per flush round for a group (keyed by organization and sequence numbers, which
   * count per organization).
   */
  private frameOf(oid: string, events: HubEvent[]): Buffer {
    if (events.length === 1) return (events[0].frame ??= encodeEvents(events));
    let key = oid;
    for (const e of events) key += `:${e.seq}`;
    let frame = this.frames.get(key);
    if (!frame) {
      if (this.frames.size === 0) setImmediate(this.clearFrames);
      this.frames.set(key, (frame = encodeEvents(events)));
    }
    return frame;
  }

  private readonly clearFrames = (): void => this.frames.clear();

  /** Closes a socket whose unsent data is over the bound (4008), counting the `sending` events and the pending ones as dropped. */
  private overBuffer(c: Conn, sending: number): boolean {
    if (c.socket.bufferedAmount <= this.opts.maxBufferedBytes) return false;
    this.stats.droppedSlow += 1;
    this.stats.eventsDropped += sending + (c.one ? 1 : 0) + (c.many?.size ?? 0);
    this.drop(c, REALTIME_CLOSE_CODES.tooSlow, REALTIME_MESSAGES.tooSlow);
    return true;
  }

  private send(c: Conn, msg: RealtimeServerMessage): void {
    if (!c.closed) c.socket.send(JSON.stringify(msg));
  }

  private drop(c: Conn, code: number, reason: string): void {
    if (c.closed) return;
    this.forget(c);
    try {
      c.socket.close(code, reason);
    } catch {
      c.socket.terminate();
    }
  }

  private endSession(c: Conn): void {
    this.stats.closedSession += 1;
    this.drop(c, REALTIME_CLOSE_CODES.sessionEnded, REALTIME_MESSAGES.sessionEnded);
  }

  private forget(c: Conn): void {
    if (c.closed) return;
    c.closed = true;
    c.one = null;
    c.many = null;
    c.held = [];
    this.conns.delete(c);
    if (c.oid) {
      for (const path of [...c.subs.keys()]) this.removeSubscription(c, path);
      const set = this.byOrg.get(c.oid);
      set?.delete(c);
      if (set && set.size === 0) {
        this.byOrg.delete(c.oid);
        this.lastSeq.delete(c.oid);
      }
    }
  }

  /** A new WebSocket on /api/v1/realtime. */
  handleSocket(socket: WebSocket): void {
    if (this.closing) {
      socket.close(REALTIME_CLOSE_CODES.goingAway, 'Server shutting down');
      return;
    }
    const c: Conn = {
      id: this.nextId++,
      socket,
      uid: null,
      oid: null,
      sid: null,
      subs: new Map(),
      subscribed: false,
      hold: 0,
      held: [],
      one: null,
      many: null,
      queued: false,
      lastFlush: 0,
      alive: true,
      closed: false,
      queue: Promise.resolve(),
      reached: 0,
    };
    this.conns.add(c);
    const authTimer = setTimeout(() => {
      if (!c.uid) this.drop(c, REALTIME_CLOSE_CODES.unauthorized, REALTIME_MESSAGES.notAuthenticated);
    }, this.authTimeoutMs);
    authTimer.unref();
    socket.on('message', (raw: RawData, isBinary: boolean) => {
      c.queue = c.queue
        .then(() => this.onMessage(c, raw, isBinary))
        .catch((err) => {
          this.opts.logger.error({ err }, 'realtime message failed');
          this.drop(c, 1011, 'Internal error');
        });
    });
    socket.on('pong', () => {
      c.alive = true;
    });
    socket.on('close', () => {
      clearTimeout(authTimer);
      this.forget(c);
    });
    socket.on('error', () => {
      clearTimeout(authTimer);
      this.forget(c);
    });
  }

  private async onMessage(c: Conn, raw: RawData, isBinary: boolean): Promise<void> {
    if (c.closed) return;
    const size = Array.isArray(raw) ? raw.reduce((n, b) => n + b.length, 0) : (raw as Buffer | ArrayBuffer).byteLength;
    if (isBinary || size > MAX_MESSAGE_BYTES) return this.drop(c, REALTIME_CLOSE_CODES.protocol, REALTIME_MESSAGES.badMessage);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString());
    } catch {
      parsed = null;
    }
    const msg = RealtimeClientMessage.safeParse(parsed);
    if (!msg.success) {
      if (!c.uid) return this.drop(c, REALTIME_CLOSE_CODES.protocol, REALTIME_MESSAGES.badMessage);
      return this.send(c, { type: 'error', message: REALTIME_MESSAGES.badMessage });
    }
    const m = msg.data;
    if (m.type === 'auth') return this.authenticate(c, m.token);
    if (!c.uid) return this.drop(c, REALTIME_CLOSE_CODES.unauthorized, REALTIME_MESSAGES.notAuthenticated);
    if (m.type === 'ping') return this.send(c, { type: 'pong' });
    if (m.type === 'unsubscribe') {
      for (const p of m.paths) this.removeSubscription(c, p);
      return this.send(c, { type: 'unsubscribed', paths: m.paths });
    }
    return this.subscribe(c, m.paths, m.since);
  }

  private async authenticate(c: Conn, token: string): Promise<void> {
    if (c.uid) return this.send(c, { type: 'error', message: REALTIME_MESSAGES.badMessage });
    const claims = verifyRealtimeToken(token, this.opts.secret);
    if (!claims) return this.drop(c, REALTIME_CLOSE_CODES.unauthorized, REALTIME_MESSAGES.invalidToken);
    // Listen first and register the session id before checking it, so a logout that races this
    // check still reaches the socket.
    await this.ensureListening();
    c.sid = claims.sid;
    const rows = await tenantSql(this.opts.orm.em.fork(), claims.oid).all<{ id: string }>(
      `select s.id from session s join app_user u on u.organization_id = s.organization_id and u.id = s.user_id
        where s.id = ? and s.user_id = ? and s.organization_id = ? and s.revoked_at is null and s.expires_at > now()
          and u.status = 'active' and not u.deleted`,
      [claims.sid, claims.uid, claims.oid],
    );
    if (c.closed) return;
    if (rows.length === 0) return this.endSession(c);
    c.uid = claims.uid;
    c.oid = claims.oid;
    let set = this.byOrg.get(claims.oid);
    if (!set) this.byOrg.set(claims.oid, (set = new Set()));
    set.add(c);
    this.send(c, { type: 'ready', uid: claims.uid, oid: claims.oid, seq: await currentSeq(this.opts.orm.em.fork(), claims.oid) });
  }

  private async subscribe(c: Conn, paths: string[], since: number | undefined): Promise<void> {
    const who = { oid: c.oid!, uid: c.uid! };
    const ok: string[] = [];
    for (const path of new Set(paths)) {
      const check = canSubscribe(path, who);
      if (check === 'ok') ok.push(path);
      else
        this.send(c, { type: 'refused', path, message: check === 'invalid' ? REALTIME_MESSAGES.invalidPath : REALTIME_MESSAGES.refused });
    }
    if (ok.length === 0) return;
    // `since` resumes only on a socket's first subscription (a reconnect re-subscribes everything at once).
    const resume = since !== undefined && !c.subscribed;
    c.subscribed = true;
    // A path the socket already has keeps its place in the stream (subscribing twice changes nothing).
    const fresh = ok.filter((p) => !c.subs.has(p));
    c.hold += 1;
    try {
      for (const p of fresh) this.addSubscription(c, p, Number.POSITIVE_INFINITY);
      const em = this.opts.orm.em.fork();
      const upTo = await currentSeq(em, c.oid!);
      let replay: HubEvent[] = [];
      let reset = false;
      if (resume) {
        if (since! > upTo) reset = true;
        else if (since! < upTo) {
          const [{ min }] = await tenantSql(em, c.oid!).all<{ min: string | number | null }>(
            `select min(seq) as min from realtime_event where organization_id = ?`,
            [c.oid],
          );
          if (min === null || Number(min) > since! + 1) reset = true;
          else {
            const rows = await tenantSql(em, c.oid!).all<EventRow>(
              `select seq, path, kind, key, data, created_at from realtime_event
                where organization_id = ? and seq > ? and seq <= ?
                  and (path in (select jsonb_array_elements_text(?::jsonb))
                       or exists (select 1 from jsonb_array_elements_text(?::jsonb) as p(pattern) where realtime_event.path like p.pattern))
                order by seq limit ?`,
              [c.oid, since, upTo, JSON.stringify(ok), JSON.stringify(ok.map((p) => `${likeEscape(p)}/%`)), this.opts.replayLimit + 1],
            );
            if (rows.length > this.opts.replayLimit) reset = true;
            else {
              replay = coalesce(rows.map(toEvent));
              this.stats.eventsCoalesced += rows.length - replay.length;
            }
          }
        }
      }
      if (c.closed) return;
      // Live events up to `upTo` were either replayed or happened before the subscription.
      for (const p of fresh) c.subs.set(p, upTo);
      if (reset) this.send(c, { type: 'reset', seq: upTo, message: REALTIME_MESSAGES.reset });
      for (let i = 0; i < replay.length; i += REPLAY_CHUNK) this.sendEvents(c, replay.slice(i, i + REPLAY_CHUNK));
      this.send(c, { type: 'subscribed', paths: ok, seq: upTo });
    } finally {
      c.hold -= 1;
      if (c.hold === 0 && !c.closed) {
        const held = c.held;
        c.held = [];
        for (const ev of held) this.deliver(c, ev);
      }
    }
  }

  private async sweepSessions(): Promise<void> {
    const bySid = new Map<string, Conn[]>();
    for (const c of this.conns) if (c.sid && c.uid) bySid.set(c.sid, [...(bySid.get(c.sid) ?? []), c]);
    if (bySid.size === 0) return;
    const rows = await unscopedSql(this.opts.orm.em.fork(), 'sign-in').all<{ id: string }>(
      `select s.id from session s join app_user u on u.organization_id = s.organization_id and u.id = s.user_id
        where s.id in (select (jsonb_array_elements_text(?::jsonb))::uuid) and s.revoked_at is null and s.expires_at > now()
          and u.status = 'active' and not u.deleted`,
      [JSON.stringify([...bySid.keys()])],
    );
    const live = new Set(rows.map((r) => r.id));
    for (const [sid, conns] of bySid) if (!live.has(sid)) for (const c of conns) this.endSession(c);
  }

  private heartbeat(): void {
    for (const c of this.conns) {
      if (!c.alive) {
        this.forget(c);
        c.socket.terminate();
        continue;
      }
      c.alive = false;
      try {
        c.socket.ping();
      } catch {
        /* closing */
      }
    }
  }

  /** For tests: resolves once every notification received so far has been dispatched. */
  async settled(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.chain;
      await current;
    } while (current !== this.chain);
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const t of [this.reconnectTimer, this.sweepTimer, this.heartbeatTimer]) if (t) clearTimeout(t);
    for (const c of [...this.conns]) this.drop(c, REALTIME_CLOSE_CODES.goingAway, 'Server shutting down');
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => {});
  }
}
