import { describe, it, expect } from 'vitest';
import type { RealtimeEvent } from '../contracts';
import { RealtimeClient, realtimeUrl, type SocketLike, type RealtimeStatus } from './realtime';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  closed: { code?: number } | null = null;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  constructor(public url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number) {
    this.closed = { code };
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

function harness(opts: { tokens?: (() => Promise<{ token: string }>)[]; failAfter?: number; lastSeq?: number } = {}) {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number; id: number }[] = [];
  let nextId = 1;
  const statuses: RealtimeStatus[] = [];
  let tokenCalls = 0;
  const client = new RealtimeClient({
    url: 'ws://server/api/v1/realtime',
    getToken: () => {
      const t = opts.tokens?.[tokenCalls];
      tokenCalls += 1;
      return t ? t() : Promise.resolve({ token: `token-${tokenCalls}` });
    },
    socketFactory: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    initialDelayMs: 500,
    maxDelayMs: 4000,
    jitter: 0.5,
    random: () => 0,
    failAfter: opts.failAfter ?? 3,
    pingIntervalMs: 0,
    lastSeq: opts.lastSeq,
    timers: {
      setTimeout: (fn, ms) => {
        const id = nextId++;
        timers.push({ fn, ms, id });
        return id;
      },
      clearTimeout: (id) => {
        const i = timers.findIndex((t) => t.id === id);
        if (i >= 0) timers.splice(i, 1);
      },
    },
  });
  client.onStatus((s) => statuses.push(s));
  const flush = () => new Promise((r) => setTimeout(r, 0));
  const fireTimer = async () => {
    const t = timers.shift();
    if (!t) throw new Error('no timer scheduled');
    t.fn();
    await flush();
    return t.ms;
  };
  const last = () => sockets[sockets.length - 1];
  return { client, sockets, timers, statuses, flush, fireTimer, last };
}

const ev = (seq: number, path: string, data: unknown = {}): RealtimeEvent => ({
  seq,
  path,
  kind: 'k',
  key: null,
  data,
  at: '2026-01-01T00:00:00.000Z',
});
const P = 'org/11111111-1111-4111-8111-111111111111';

describe('realtime client', () => {
  it('realtimeUrl turns an origin into the socket address', () => {
    expect(realtimeUrl('https://app.example.com/')).toBe('wss://app.example.com/api/v1/realtime');
    expect(realtimeUrl('http://localhost:3000')).toBe('ws://localhost:3000/api/v1/realtime');
  });

  it('authenticates with a fresh token, subscribes every path at once and takes the sequence from the answer', async () => {
    const h = harness();
    const got: number[] = [];
    h.client.subscribe(`${P}/activities`, (e) => got.push(e.seq));
    h.client.subscribe(`${P}/executions`, (e) => got.push(e.seq * 100));
    h.client.start();
    await h.flush();
    h.last().open();
    expect(h.last().sent).toEqual([{ type: 'auth', token: 'token-1' }]);
    h.last().receive({ type: 'ready', uid: 'u', oid: 'o', seq: 7 });
    expect(h.last().sent[1]).toEqual({ type: 'subscribe', paths: [`${P}/activities`, `${P}/executions`] });
    h.last().receive({ type: 'subscribed', paths: [], seq: 10 });
    expect(h.client.lastSeq).toBe(10);
    expect(h.client.status).toEqual({ status: 'open' });
    h.last().receive({
      type: 'events',
      events: [
        ev(10, `${P}/activities`),
        ev(11, `${P}/activities`),
        ev(12, `${P}/executions/play/contact`),
        ev(12, `${P}/activities`),
        ev(13, `${P}/lists`),
      ],
    });
    // 10 is not newer than the subscription; the second 12 is a duplicate; lists has no handler.
    expect(got).toEqual([11, 1200]);
    expect(h.client.lastSeq).toBe(13);
  });

  it('reconnects with growing backoff after a drop and resumes from the last sequence number', async () => {
    const h = harness();
    const got: number[] = [];
    h.client.subscribe(`${P}/activities`, (e) => got.push(e.seq));
    h.client.start();
    await h.flush();
    h.last().open();
    h.last().receive({ type: 'ready', uid: 'u', oid: 'o', seq: 0 });
    h.last().receive({ type: 'subscribed', paths: [], seq: 3 });
    h.last().receive({ type: 'events', events: [ev(4, `${P}/activities`)] });
    h.last().drop(1006);
    expect(h.client.status).toMatchObject({ status: 'reconnecting' });
    expect(await h.fireTimer()).toBe(500);
    h.last().open();
    expect(h.last().sent[0]).toEqual({ type: 'auth', token: 'token-2' });
    h.last().receive({ type: 'ready', uid: 'u', oid: 'o', seq: 9 });
    expect(h.last().sent[1]).toEqual({ type: 'subscribe', paths: [`${P}/activities`], since: 4 });
    h.last().receive({ type: 'events', events: [ev(4, `${P}/activities`), ev(6, `${P}/activities`), ev(9, `${P}/activities`)] });
    h.last().receive({ type: 'subscribed', paths: [], seq: 9 });
    expect(got).toEqual([4, 6, 9]);
    expect(h.client.status).toEqual({ status: 'open' });
  });

  it("after failAfter failed attempts in a row it reports 'failed' once with the spec's message, keeps trying with capped backoff, and recovers", async () => {
    const fail = () => Promise.reject(new Error('offline'));
    const h = harness({ tokens: [fail, fail, fail, fail, fail, fail] });
    h.client.start();
    await h.flush();
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) delays.push(await h.fireTimer());
    const failed = h.statuses.filter((s) => s.status === 'failed');
    expect(failed).toEqual([{ status: 'failed', message: 'Cannot connect to socket server. Please reload the page.' }]);
    expect(delays.every((d, i) => i === 0 || d >= delays[i - 1])).toBe(true);
    expect(Math.max(...delays)).toBeLessThanOrEqual(4000);
    // The server is back.
    h.last()?.open();
    h.last().receive({ type: 'ready', uid: 'u', oid: 'o', seq: 1 });
    expect(h.client.status).toEqual({ status: 'open' });
  });

  it('a session that ended (4003) stops reconnecting', async () => {
    const h = harness();
    h.client.start();
    await h.flush();
    h.last().open();
    h.last().receive({ type: 'ready', uid: 'u', oid: 'o', seq: 1 });
    h.last().drop(4003);
    expect(h.client.status).toEqual({ status: 'closed', message: 'Your session has ended.' });
    expect(h.timers).toHaveLength(0);
  });

  it('later subscriptions are sent without since; the last handler of a path unsubscribes it; reset updates the sequence and tells the app', async () => {
    const h = harness({ lastSeq: 50 });
    let resets = 0;
    h.client.onReset(() => {
      resets += 1;
    });
    h.client.start();
    await h.flush();
    h.last().open();
    h.last().receive({ type: 'ready', uid: 'u', oid: 'o', seq: 60 });
    expect(h.client.status).toEqual({ status: 'open' });
    const off = h.client.subscribe(`${P}/lists`, () => {});
    expect(h.last().sent[1]).toEqual({ type: 'subscribe', paths: [`${P}/lists`] });
    off();
    expect(h.last().sent[2]).toEqual({ type: 'unsubscribe', paths: [`${P}/lists`] });
    h.last().receive({ type: 'reset', seq: 80, message: 'Events were missed; reload the data.' });
    expect(h.client.lastSeq).toBe(80);
    expect(resets).toBe(1);
    h.client.stop();
    expect(h.client.status).toEqual({ status: 'idle' });
  });
});
