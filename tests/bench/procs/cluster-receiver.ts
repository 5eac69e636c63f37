// Realtime sockets of the cluster bench (tests/bench/cluster.ts) that behave as the product's client
// does when its API process goes away: each socket, closed by the server (SIGTERM: 1001) or cut
// (kill -9), fetches a new token through the balancer with its session cookie, reconnects through
// the balancer and subscribes again with `since` = the last sequence number it saw, so the server
// replays what it missed. Driven over IPC by the bench process:
//   {type: 'open', sockets: [{i, url, base, cookie, paths}]}  → {type: 'opened'}
//   {type: 'status'}                                         → {type: 'status', notLive}
//   {type: 'collect'}                                        → {type: 'state', sockets: [...]}
//   {type: 'close'}                                          → {type: 'closed'}
import WebSocket from 'ws';

interface Spec {
  i: number;
  url: string;
  base: string;
  cookie: string;
  paths: string[];
}
type Incoming = { type: 'open'; sockets: Spec[] } | { type: 'status' } | { type: 'collect' } | { type: 'close' };

interface Sock {
  spec: Spec;
  ws: WebSocket | null;
  /** The sequence number of the first subscription (events after it must all arrive). */
  startSeq: number | null;
  lastSeq: number;
  /** Flat pairs: seq, key ('' for none). */
  got: (number | string)[];
  reconnects: number;
  /** ms from a close to the next 'subscribed'. */
  resumeMs: number[];
  resets: number;
  downAt: number | null;
  live: boolean;
}

const socks: Sock[] = [];
let closing = false;
const reply = (m: unknown) => process.send!(m);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function token(s: Sock): Promise<string> {
  for (;;) {
    try {
      const res = await fetch(`${s.spec.base}/api/v1/notifications/token`, {
        headers: { cookie: s.spec.cookie },
        signal: AbortSignal.timeout(10_000),
      });
      if (res.ok) return ((await res.json()) as { token: string }).token;
    } catch {
      /* the balancer has no process for us yet: try again */
    }
    if (closing) throw new Error('closing');
    await sleep(200 + Math.random() * 300);
  }
}

function connect(s: Sock, first: boolean): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    void token(s).then(
      (tok) => {
        const ws = new WebSocket(s.spec.url, { perMessageDeflate: false });
        s.ws = ws;
        let stage: 'auth' | 'subscribe' | 'live' = 'auth';
        let settled = false;
        const settle = (err?: Error) => {
          if (settled) return;
          settled = true;
          if (err) reject(err);
          else resolve();
        };
        const timer = setTimeout(() => ws.terminate(), 30_000);
        ws.on('message', (raw) => {
          const text = raw.toString();
          const msg = JSON.parse(text) as {
            type: string;
            seq?: number;
            events?: { seq: number; key: string | null }[];
          };
          if (msg.type === 'events') {
            for (const e of msg.events!) {
              s.got.push(e.seq, e.key ?? '');
              if (e.seq > s.lastSeq) s.lastSeq = e.seq;
            }
          } else if (msg.type === 'ready' && stage === 'auth') {
            stage = 'subscribe';
            const since = s.startSeq === null ? undefined : s.lastSeq;
            ws.send(JSON.stringify({ type: 'subscribe', paths: s.spec.paths, ...(since !== undefined ? { since } : {}) }));
          } else if (msg.type === 'subscribed' && stage === 'subscribe') {
            stage = 'live';
            clearTimeout(timer);
            if (s.startSeq === null) {
              s.startSeq = msg.seq!;
              s.lastSeq = msg.seq!;
            } else if (msg.seq! > s.lastSeq) s.lastSeq = msg.seq!;
            if (s.downAt !== null) {
              s.resumeMs.push(performance.now() - s.downAt);
              s.downAt = null;
            }
            s.live = true;
            settle();
          } else if (msg.type === 'reset') {
            s.resets += 1;
            s.lastSeq = msg.seq!;
          } else if (msg.type === 'refused' || msg.type === 'error') {
            if (first) settle(new Error(`socket ${s.spec.i}: ${text}`));
          }
        });
        ws.once('open', () => ws.send(JSON.stringify({ type: 'auth', token: tok })));
        ws.on('error', () => {});
        ws.once('close', () => {
          clearTimeout(timer);
          s.live = false;
          if (closing) return settle();
          if (s.downAt === null) s.downAt = performance.now();
          if (stage === 'live') s.reconnects += 1;
          // As the product's client: back off a little (spread over half a second), then reconnect.
          setTimeout(
            () => {
              connect(s, false).then(
                () => settle(),
                () => {},
              );
            },
            100 + Math.random() * 400,
          );
        });
      },
      (err: Error) => reject(err),
    );
  });
}

process.on('message', (m: Incoming) => {
  void (async () => {
    try {
      if (m.type === 'open') {
        const mine = m.sockets.map((spec): Sock => ({
          spec,
          ws: null,
          startSeq: null,
          lastSeq: 0,
          got: [],
          reconnects: 0,
          resumeMs: [],
          resets: 0,
          downAt: null,
          live: false,
        }));
        socks.push(...mine);
        let next = 0;
        await Promise.all(
          Array.from({ length: 25 }, async () => {
            while (next < mine.length) await connect(mine[next++], true);
          }),
        );
        reply({ type: 'opened' });
      } else if (m.type === 'status') {
        reply({ type: 'status', notLive: socks.filter((s) => !s.live).length });
      } else if (m.type === 'collect') {
        reply({
          type: 'state',
          sockets: socks.map((s) => ({
            i: s.spec.i,
            startSeq: s.startSeq,
            got: s.got,
            reconnects: s.reconnects,
            resumeMs: s.resumeMs,
            resets: s.resets,
            live: s.live,
            down: s.downAt !== null,
          })),
        });
      } else if (m.type === 'close') {
        closing = true;
        await Promise.all(
          socks.map(
            (s) =>
              new Promise<void>((resolve) => {
                const ws = s.ws;
                if (!ws || ws.readyState === WebSocket.CLOSED) return resolve();
                ws.once('close', () => resolve());
                ws.close();
                setTimeout(() => {
                  ws.terminate();
                  resolve();
                }, 3000).unref();
              }),
          ),
        );
        reply({ type: 'closed' });
      }
    } catch (err) {
      reply({ type: 'error', message: String((err as Error).stack ?? err) });
    }
  })();
});
process.on('disconnect', () => process.exit(0));
reply({ type: 'started' });
