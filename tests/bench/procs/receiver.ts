// A process holding part of a realtime benchmark's receiving sockets (tests/bench/procs.ts
// openRemoteFleet), so that the sockets do not share one event loop with the bench's bookkeeping
// (its database writes, statistics, the other sockets). Driven over IPC by the bench process:
//   {type: 'open', sockets: [{i, url, token?, paths?}]}   open them (with a token: auth, then subscribe
//                                                        to paths, as the product's clients do) → {type: 'opened'}
//   {type: 'collect'}                                    → {type: 'arrivals', arrivals, frames, closedEarly}
//   {type: 'reset'}                                      forget what was received and not collected
//   {type: 'close'}                                      close every socket → {type: 'closed'}
// The time of a frame is taken first thing in its 'message' handler (performance.timeOrigin +
// performance.now(): wall-clock milliseconds with sub-millisecond resolution, comparable with the
// other processes of this machine); the frame is kept as text and parsed only on 'collect', between
// runs, so parsing one frame never delays the timestamp of the next. Every frame is kept.
import { setPriority } from 'node:os';
import WebSocket from 'ws';

// RECEIVER_NICE (from openRemoteFleet): this process's nice value, so that on a machine it shares
// with the servers it stands in for clients on other machines rather than taking their cores.
if (Number(process.env.RECEIVER_NICE) > 0) setPriority(Number(process.env.RECEIVER_NICE));

interface SocketSpec {
  i: number;
  url: string;
  token?: string;
  paths?: string[];
}
type Incoming = { type: 'open'; sockets: SocketSpec[] } | { type: 'collect' } | { type: 'reset' } | { type: 'close' };

const wallNow = (): number => performance.timeOrigin + performance.now();
const sockets: WebSocket[] = [];
/** Flat triples: arrival time, socket index, frame text. */
let store: (number | string)[] = [];
let closedEarly = 0;
let closing = false;
const reply = (m: unknown) => process.send!(m);

function open(spec: SocketSpec): Promise<void> {
  const ws = new WebSocket(spec.url, { perMessageDeflate: false });
  sockets.push(ws);
  const { i } = spec;
  return new Promise<void>((resolve, reject) => {
    let stage: 'auth' | 'subscribe' | 'live' = spec.token ? 'auth' : 'live';
    const timer = setTimeout(() => reject(new Error(`socket ${i}: no ${stage} answer within 30 s`)), 30_000);
    ws.on('message', (raw) => {
      const at = wallNow();
      const text = raw.toString();
      if (stage === 'live') {
        if (text.startsWith('{"type":"events"')) store.push(at, i, text);
        return;
      }
      const msg = JSON.parse(text) as { type: string };
      if (stage === 'auth' && msg.type === 'ready') {
        stage = 'subscribe';
        ws.send(JSON.stringify({ type: 'subscribe', paths: spec.paths ?? [] }));
      } else if (stage === 'subscribe' && msg.type === 'subscribed') {
        stage = 'live';
        clearTimeout(timer);
        resolve();
      } else if (msg.type === 'refused' || msg.type === 'error') {
        clearTimeout(timer);
        reject(new Error(`socket ${i}: ${text}`));
      }
    });
    ws.once('open', () => {
      if (spec.token) ws.send(JSON.stringify({ type: 'auth', token: spec.token }));
      else {
        clearTimeout(timer);
        resolve();
      }
    });
    ws.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    ws.on('close', () => {
      if (!closing && stage === 'live') closedEarly += 1;
    });
  });
}

function collect(): void {
  const taken = store;
  store = [];
  const arrivals: unknown[] = [];
  let frames = 0;
  for (let k = 0; k < taken.length; k += 3) {
    const msg = JSON.parse(taken[k + 2] as string) as {
      events: { seq: number; key: string | null; kind: string; at: string; data: unknown }[];
    };
    frames += 1;
    for (const e of msg.events) {
      // The filler that gives the benchmark's events their size is not needed for the figures.
      const data =
        e.data && typeof e.data === 'object' && 'pad' in e.data ? { ...(e.data as Record<string, unknown>), pad: undefined } : e.data;
      arrivals.push({ at: taken[k], socket: taken[k + 1], seq: e.seq, key: e.key, kind: e.kind, eventAt: Date.parse(e.at), data });
    }
  }
  reply({ type: 'arrivals', arrivals, frames, closedEarly });
}

process.on('message', (m: Incoming) => {
  if (m.type === 'open') {
    let next = 0;
    void Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < m.sockets.length) await open(m.sockets[next++]);
      }),
    ).then(
      () => reply({ type: 'opened' }),
      (err: Error) => reply({ type: 'error', message: err.message }),
    );
  } else if (m.type === 'collect') {
    collect();
  } else if (m.type === 'reset') {
    store = [];
  } else if (m.type === 'close') {
    closing = true;
    void Promise.all(
      sockets.map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === WebSocket.CLOSED) return resolve();
            ws.once('close', () => resolve());
            ws.close();
            setTimeout(() => {
              ws.terminate();
              resolve();
            }, 5000).unref();
          }),
      ),
    ).then(() => reply({ type: 'closed' }));
  }
});
process.on('disconnect', () => process.exit(0));
reply({ type: 'started' });
