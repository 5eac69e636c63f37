// The realtime hub's own JavaScript per delivery, without the kernel or Node's stream write
// (docs/benchmarks.md, realtime at 10,000 sockets): one hub, SOCKETS fake sockets subscribed to one
// organization's executions, broadcasts dispatched as the LISTEN connection would (a second event
// in every third round, which goes through the several-events path), each round flushed; the
// sockets' write only counts. Prints the CPU per delivery of the measured rounds.
//
//   node --import tsx tests/bench/hub-cpu.ts            # SOCKETS=5000 ROUNDS=200
import { EventEmitter } from 'node:events';
import type { MikroORM } from '@mikro-orm/postgresql';
import pino from 'pino';
import { RealtimeHub } from '../../server/src/modules/realtime/hub';

const SOCKETS = Number(process.env.SOCKETS ?? 5000);
const ROUNDS = Number(process.env.ROUNDS ?? 200);
const oid = '00000000-0000-4000-8000-000000000001';

let writes = 0;
/** What the hub reads and writes of a `ws` socket (frame.ts: its TCP socket, its sender's state). */
class FakeSocket extends EventEmitter {
  readyState = 1;
  extensions = '';
  bufferedAmount = 0;
  _socket = { writable: true, write: () => (writes++, true) };
  _sender = { _state: 0, _queue: [] as unknown[] };
  send() {
    writes++;
  }
  close() {}
  terminate() {}
  ping() {}
}

interface FakeConn {
  uid: string | null;
  oid: string | null;
  sid: string | null;
  subscribed: boolean;
}
/** The hub's private parts a signed-in, subscribed socket sets (authenticate() and subscribe() with a database). */
interface HubInternals {
  conns: Set<FakeConn>;
  byOrg: Map<string, Set<FakeConn>>;
  addSubscription(c: FakeConn, path: string, start: number): void;
  dispatch(oid: string, ev: unknown, arrived: number): void;
}

const hub = new RealtimeHub({
  connectionString: '',
  orm: null as unknown as MikroORM,
  logger: pino({ level: 'silent' }),
  secret: 'bench',
  maxBufferedBytes: 1e9,
  flushMs: 25,
  replayLimit: 1000,
  sessionCheckSeconds: 3600,
});
const h = hub as unknown as HubInternals;
for (let i = 0; i < SOCKETS; i++) hub.handleSocket(new FakeSocket() as never);
const members = new Set<FakeConn>();
for (const c of h.conns) {
  Object.assign(c, { uid: 'u', oid, sid: 's', subscribed: true });
  members.add(c);
  h.addSubscription(c, `org/${oid}/executions`, 0);
}
h.byOrg.set(oid, members);

let seq = 0;
async function round(events: number): Promise<void> {
  for (let i = 0; i < events; i++) {
    seq += 1;
    const data = { id: `execution-${seq % 7}`, status: 'completed', processed: seq };
    const ev = {
      seq,
      path: `org/${oid}/executions/list`,
      kind: 'execution.updated',
      key: `execution:${seq % 7}`,
      data,
      at: new Date().toISOString(),
    };
    h.dispatch(oid, ev, performance.now());
  }
  await new Promise((r) => setImmediate(r));
  // Past the flush window, so that the next round's sockets are due at once.
  await new Promise((r) => setTimeout(r, 30));
}

for (let i = 0; i < 50; i++) await round(1);
const cpu0 = process.cpuUsage();
const writes0 = writes;
for (let i = 0; i < ROUNDS; i++) await round(i % 3 === 0 ? 2 : 1);
const cpu = process.cpuUsage(cpu0);
const n = writes - writes0;
console.log(`${SOCKETS} sockets, ${ROUNDS} rounds: ${n} frames, ${((cpu.user + cpu.system) / n).toFixed(2)} µs of CPU per frame`);
await hub.close();
