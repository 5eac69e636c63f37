// A small WebSocket client for tests (the `ws` package): collects every message, waits for the
// ones a test expects, and records how the socket closed.
import WebSocket from 'ws';
import type { RealtimeEvent, RealtimeServerMessage } from '@dealscout/shared/contracts';

export interface TestSocket {
  ws: WebSocket;
  messages: RealtimeServerMessage[];
  /** Every event received, in arrival order. */
  events(): RealtimeEvent[];
  send(msg: unknown): void;
  /** The next message (after the ones already consumed by earlier waits) that matches. */
  next<T extends RealtimeServerMessage['type']>(type: T, timeoutMs?: number): Promise<Extract<RealtimeServerMessage, { type: T }>>;
  /** Waits until the received events satisfy the predicate. */
  waitForEvents(pred: (events: RealtimeEvent[]) => boolean, timeoutMs?: number): Promise<RealtimeEvent[]>;
  closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

export async function openSocket(url: string, opts: WebSocket.ClientOptions = {}): Promise<TestSocket> {
  const ws = new WebSocket(url, opts);
  const messages: RealtimeServerMessage[] = [];
  const waiters = new Set<() => void>();
  let consumed = 0;
  ws.on('message', (raw) => {
    messages.push(JSON.parse(raw.toString()) as RealtimeServerMessage);
    for (const w of [...waiters]) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const w of [...waiters]) w();
    });
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const waitUntil = <R>(check: () => R | undefined, what: string, timeoutMs: number) =>
    new Promise<R>((resolve, reject) => {
      const tryIt = () => {
        const r = check();
        if (r !== undefined) {
          waiters.delete(tryIt);
          clearTimeout(timer);
          resolve(r);
        } else if (ws.readyState === WebSocket.CLOSED) {
          waiters.delete(tryIt);
          clearTimeout(timer);
          reject(new Error(`socket closed while waiting for ${what}; got ${JSON.stringify(messages).slice(0, 2000)}`));
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(tryIt);
        reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(messages).slice(0, 2000)}`));
      }, timeoutMs);
      waiters.add(tryIt);
      tryIt();
    });
  const events = () => messages.flatMap((m) => (m.type === 'events' ? m.events : []));
  return {
    ws,
    messages,
    events,
    send: (msg) => ws.send(JSON.stringify(msg)),
    next: <T extends RealtimeServerMessage['type']>(type: T, timeoutMs = 10_000) =>
      waitUntil<Extract<RealtimeServerMessage, { type: T }>>(
        () => {
          for (let i = consumed; i < messages.length; i++) {
            if (messages[i].type === type) {
              consumed = i + 1;
              return messages[i] as Extract<RealtimeServerMessage, { type: T }>;
            }
          }
          return undefined;
        },
        `a '${type}' message`,
        timeoutMs,
      ),
    waitForEvents: (pred, timeoutMs = 10_000) => waitUntil(() => (pred(events()) ? events() : undefined), 'events', timeoutMs),
    closed,
    async close() {
      if (ws.readyState !== WebSocket.CLOSED) {
        ws.close();
        await closed;
      }
    },
  };
}
