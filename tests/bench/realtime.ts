// Realtime benchmark: 1,000 authenticated sockets on loopback.
//   broadcast   one API process (`--role api`); the bench writes one event (publish() as one
//               statement committed on its own: sequence, insert, NOTIFY at commit) and times its
//               arrival on every socket, from just before the write.
//   multi       two API processes (500 sockets each) and one worker process (`--role worker`) on one
//               database; the bench enqueues executions one at a time, the worker claims and
//               completes them (status events written in its transactions), and each event is timed
//               from its insert in the worker's transaction (the event's `at`, this machine's clock)
//               to its arrival on every socket.
// Each is compared with the raw infrastructure doing the same delivery: plain `ws` servers (one or
// two processes) LISTENing with `pg` and sending each NOTIFY payload to all their sockets.
import { MikroORM } from '@mikro-orm/postgresql';
import pino from 'pino';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { realtimePaths } from '@dealscout/shared/domain';
import { ormConfig } from '../../server/src/orm-config';
import { publish } from '../../server/src/modules/realtime/publish';
import { startBoss } from '../../server/src/jobs/boss';
import { createExecutions } from '../../server/src/modules/executions/commands/create-executions';
import {
  startApi,
  startWorker,
  startProc,
  freePort,
  openFleet,
  openRawFleet,
  openRemoteFleet,
  Session,
  wallNow,
  pcts,
  medianOf,
  CpuMeter,
  cpuSplit,
  type Fleet,
  type RemoteFleet,
  type Pcts,
  type Proc,
} from './procs';
import { createBenchOrg, SERVICES_PASSWORD, type ServicesDb } from './services-db';

export interface LatencyFigure {
  label: string;
  /** Median over the runs of each run's percentiles. */
  ours: Pcts;
  raw: Pcts;
  oursRuns: Pcts[];
  rawRuns: Pcts[];
  /** Plain ws broadcast alone (no database), where measured. */
  wsOnly?: Pcts;
  deliveries: number;
  expected: number;
  missing: number;
  frames: number;
  cpu: ReturnType<CpuMeter['end']>;
  rawCpu: ReturnType<CpuMeter['end']>;
  note: string;
  /** What the API process itself did (broadcast only), apart from the receiving sockets. */
  server?: ServerSide;
}

/**
 * The API process's own part of a broadcast: its fan-out time per flush round (GET /metrics'
 * dealscout_realtime_fanout_seconds: from the notification's arrival to the last frame handed to
 * the kernel), its CPU per delivered event, and its memory per socket (RSS before the sockets, with
 * them open and idle, and after the runs).
 */
export interface ServerSide {
  rounds: number;
  fanoutMeanMs: number;
  /** Upper bounds of the histogram buckets holding the 50th and 99th percentile rounds. */
  fanoutP50LeMs: number;
  fanoutP99LeMs: number;
  cpuUsPerDelivery: number;
  /** Share of that CPU spent in the kernel (system time): on loopback a send also runs the receiving side's TCP. */
  cpuKernelShare: number;
  rssMb: { before: number; idle: number; busy: number };
  kbPerSocket: { idle: number; busy: number };
  /** The same figures of the plain `ws` server in the same run (its send loop per broadcast), the floor to compare with. */
  bareWs?: { loops: number; loopMeanMs: number; loopP99Ms: number; loopMaxMs: number; cpuUsPerDelivery: number; cpuKernelShare: number };
}

/** The plain `ws` server's timed send loops since the last call (procs/raw-ws.ts writes them on SIGUSR2). */
async function rawLoopsMs(pid: number | undefined, file: string): Promise<number[]> {
  if (!pid) return [];
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 50; i++) {
    await sleep(100);
    try {
      const { loopsMs } = JSON.parse(readFileSync(file, 'utf8')) as { loopsMs: number[] };
      rmSync(file);
      return loopsMs;
    } catch {
      // not written yet
    }
  }
  return [];
}

const METRICS_TOKEN = 'bench-realtime-metrics-token';

interface Fanout {
  buckets: [number, number][];
  sum: number;
  count: number;
}

async function scrapeFanout(base: string): Promise<Fanout> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!res.ok) throw new Error(`GET /metrics: ${res.status}`);
  const out: Fanout = { buckets: [], sum: 0, count: 0 };
  for (const line of (await res.text()).split('\n')) {
    if (!line.startsWith('dealscout_realtime_fanout_seconds')) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    const le = /le="([^"]+)"/.exec(line)?.[1];
    if (line.startsWith('dealscout_realtime_fanout_seconds_bucket') && le) out.buckets.push([le === '+Inf' ? Infinity : Number(le), value]);
    else if (line.startsWith('dealscout_realtime_fanout_seconds_sum')) out.sum = value;
    else if (line.startsWith('dealscout_realtime_fanout_seconds_count')) out.count = value;
  }
  return out;
}

/** The smallest bucket bound (ms) holding the q-th share of the rounds between two scrapes. */
function bucketQuantileMs(before: Fanout, after: Fanout, q: number): number {
  const total = after.count - before.count;
  for (const [le, n] of after.buckets) {
    const prev = before.buckets.find(([l]) => l === le)?.[1] ?? 0;
    if (n - prev >= q * total) return le * 1000;
  }
  return Infinity;
}

const rssMbOf = (pid: number | undefined): number => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
};

export interface RealtimeReport {
  sockets: number;
  /** Child processes holding the receiving sockets (0: the bench process itself). */
  socketProcs: number;
  /** The socket processes' nice value. */
  socketNice: number;
  events: number;
  runs: number;
  intervalMs: number;
  broadcast: LatencyFigure;
  multi: LatencyFigure & { enqueueToSocket: Pcts };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PAD = 'x'.repeat(240); // about the size of an execution DTO

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

/**
 * Waits until `check` holds over the fleet's arrivals. Sockets in child processes are asked for
 * what they received only once the run's writes are done plus a grace period (the parse of a
 * run's frames would otherwise run while the last event's frames arrive), then every 100 ms.
 */
async function settle(fleet: Fleet | RemoteFleet, check: () => boolean, timeoutMs: number): Promise<boolean> {
  if (!('collect' in fleet)) return waitFor(check, timeoutMs);
  const deadline = Date.now() + timeoutMs;
  await sleep(250);
  for (;;) {
    await fleet.collect();
    if (check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
}

/** BENCH_SOCKET_PROCS: child processes holding the receiving sockets (default 2; 0 = in the bench process). */
const SOCKET_PROCS = Number(process.env.BENCH_SOCKET_PROCS ?? '2');
const BENCH_LABEL = SOCKET_PROCS > 0 ? 'bench process' : 'bench (sockets)';
/**
 * BENCH_RECEIVER_NICE: the socket processes' nice value (default 10). They stand in for browsers on
 * other machines; at the servers' own priority they take the two cores from the API processes and
 * from the worker (itself at WORKER_NICE), and the figures measure the receivers more than the servers.
 * Ours and raw get the same.
 */
const RECEIVER_NICE = Number(process.env.BENCH_RECEIVER_NICE ?? '10');

function ourFleet(o: {
  count: number;
  sessions: Session[];
  wsUrls: string[];
  paths: string[];
  record: (kind: string, data: unknown) => boolean;
}): Promise<Fleet | RemoteFleet> {
  return SOCKET_PROCS > 0 ? openRemoteFleet({ ...o, procs: SOCKET_PROCS, nice: RECEIVER_NICE }) : openFleet(o);
}

function rawFleetOf(count: number, wsUrls: string[]): Promise<Fleet | RemoteFleet> {
  return SOCKET_PROCS > 0 ? openRemoteFleet({ count, procs: SOCKET_PROCS, wsUrls, nice: RECEIVER_NICE }) : openRawFleet(count, wsUrls);
}

const pidsOf = (f: Fleet | RemoteFleet): Record<string, number | undefined> => ('pids' in f ? f.pids : {});
/** Runs `events` paced triggers per run and returns the latencies (arrival − reference) per run. */
async function paced(opts: {
  fleet: Fleet | RemoteFleet;
  runs: number;
  warmup: number;
  events: number;
  intervalMs: number;
  expectedPerEvent: number;
  trigger: (n: number) => Promise<void>;
  latency: (a: Fleet['arrivals'][number]) => number | null;
  complete: (arrivals: Fleet['arrivals'], triggered: number) => boolean;
}): Promise<{ runs: Pcts[]; deliveries: number; missing: number; frames: number }> {
  const { fleet } = opts;
  let n = 0;
  for (let i = 0; i < opts.warmup; i++) {
    await opts.trigger(n++);
    await sleep(opts.intervalMs);
  }
  await settle(fleet, () => opts.complete(fleet.arrivals, opts.warmup), 10_000);
  const runs: Pcts[] = [];
  let deliveries = 0;
  let missing = 0;
  let frames = 0;
  for (let r = 0; r < opts.runs; r++) {
    fleet.reset();
    for (let i = 0; i < opts.events; i++) {
      const t = performance.now();
      await opts.trigger(n++);
      await sleep(Math.max(0, opts.intervalMs - (performance.now() - t)));
    }
    await settle(fleet, () => opts.complete(fleet.arrivals, opts.events), 15_000);
    const lat = fleet.arrivals.map(opts.latency).filter((x): x is number => x !== null);
    deliveries += lat.length;
    missing += Math.max(0, opts.expectedPerEvent * opts.events - lat.length);
    frames += fleet.frames;
    runs.push(pcts(lat));
  }
  return { runs, deliveries, missing, frames };
}

export async function benchRealtime(
  db: ServicesDb,
  o: { sockets: number; events: number; runs: number; warmup: number; intervalMs: number; log: (m: string) => void },
): Promise<RealtimeReport> {
  const { log } = o;
  const org = await createBenchOrg(db.url, 'Bench Realtime', 10);
  const orm = await MikroORM.init(ormConfig(db.url, { logger: () => {}, pool: { min: 0, max: 4 } }));
  const procs: Proc[] = [];
  const start = async <P extends Proc>(p: Promise<P>) => {
    const x = await p;
    procs.push(x);
    return x;
  };
  const notifier = new pg.Client({ connectionString: db.url });
  await notifier.connect();
  try {
    // ---------- one API process, one event to every socket ----------
    const api1 = await start(startApi(db.url, 'api-1', { METRICS_TOKEN }));
    const sessions = await Promise.all(
      org.emails.map(async (email) => {
        const s = new Session(api1.base);
        await s.login(email, SERVICES_PASSWORD);
        return s;
      }),
    );
    const ws1 = `${api1.base.replace('http', 'ws')}/api/v1/realtime`;
    const path = realtimePaths.activities(org.id);
    log(`realtime: opening ${o.sockets} sockets on one API process`);
    const rssBefore = rssMbOf(api1.child.pid);
    let fleet = await ourFleet({ count: o.sockets, sessions, wsUrls: [ws1], paths: [path], record: (kind) => kind === 'bench.broadcast' });
    await sleep(1000);
    const rssIdle = rssMbOf(api1.child.pid);
    const fanoutBefore = await scrapeFanout(api1.base);
    const perEvent = (arrivals: Fleet['arrivals'], k: number) => arrivals.length >= o.sockets * k;
    const fromT0 = (a: Fleet['arrivals'][number]) => a.at - (a.data as { t0: number }).t0;
    let meter = new CpuMeter(() => ({ 'API process': api1.child.pid, ...pidsOf(fleet) }), BENCH_LABEL);
    meter.begin();
    const split0 = cpuSplit(api1.child.pid);
    const ours = await paced({
      fleet,
      runs: o.runs,
      warmup: o.warmup,
      events: o.events,
      intervalMs: o.intervalMs,
      expectedPerEvent: o.sockets,
      trigger: async (n) => {
        const t0 = wallNow();
        // publish() on its own: one statement (sequence, insert, NOTIFY) committed by itself, as the raw write below.
        await publish(orm.em.fork(), org.id, { path, kind: 'bench.broadcast', data: { n, t0, pad: PAD } });
      },
      latency: fromT0,
      complete: perEvent,
    });
    const cpu = meter.end();
    const split1 = cpuSplit(api1.child.pid);
    const userS = split1.user - split0.user;
    const systemS = split1.system - split0.system;
    const fanoutAfter = await scrapeFanout(api1.base);
    const rssBusy = rssMbOf(api1.child.pid);
    const rounds = fanoutAfter.count - fanoutBefore.count;
    const server: ServerSide = {
      rounds,
      fanoutMeanMs: rounds ? ((fanoutAfter.sum - fanoutBefore.sum) / rounds) * 1000 : 0,
      fanoutP50LeMs: bucketQuantileMs(fanoutBefore, fanoutAfter, 0.5),
      fanoutP99LeMs: bucketQuantileMs(fanoutBefore, fanoutAfter, 0.99),
      // Warm-up events and the runs both count in the meter's window.
      cpuUsPerDelivery: ((cpu.cores['API process'] ?? 0) * cpu.seconds * 1e6) / Math.max(1, o.sockets * (o.events * o.runs + o.warmup)),
      cpuKernelShare: userS + systemS > 0 ? systemS / (userS + systemS) : 0,
      rssMb: { before: rssBefore, idle: rssIdle, busy: rssBusy },
      kbPerSocket: { idle: ((rssIdle - rssBefore) * 1024) / o.sockets, busy: ((rssBusy - rssBefore) * 1024) / o.sockets },
    };
    log(`realtime broadcast (ours): ${JSON.stringify(medianOf(ours.runs))}; server side ${JSON.stringify(server)}`);
    await fleet.close();
    await api1.stop();

    const rawPort = await freePort();
    const rawStats = joinPath(tmpdir(), `ds-bench-raw-ws-${process.pid}.json`);
    const raw1 = await start(
      startProc(
        'raw-ws-1',
        'tests/bench/procs/raw-ws.ts',
        [],
        { DATABASE_URL: db.url, PORT: String(rawPort), RAW_STATS_FILE: rawStats },
        (out) => out.includes('ready'),
      ),
    );
    let rawFleet = await rawFleetOf(o.sockets, [`ws://127.0.0.1:${rawPort}`]);
    // The raw write: the event made durable (one insert) and NOTIFYed in the same transaction, as ours.
    await notifier.query('create table if not exists bench_raw_event (id bigserial primary key, payload jsonb not null)');
    const notify = async (n: number) => {
      const t0 = wallNow();
      const ev = JSON.stringify({
        seq: n + 1,
        path,
        kind: 'bench.broadcast',
        key: null,
        data: { n, t0, pad: PAD },
        at: new Date().toISOString(),
      });
      await notifier.query(
        `with i as (insert into bench_raw_event (payload) values ($1::text::jsonb)) select pg_notify('bench_raw', $1::text)`,
        [ev],
      );
    };
    meter = new CpuMeter(() => ({ 'raw ws process': raw1.child.pid, ...pidsOf(rawFleet) }), BENCH_LABEL);
    meter.begin();
    const raw = await paced({
      fleet: rawFleet,
      runs: o.runs,
      warmup: o.warmup,
      events: o.events,
      intervalMs: o.intervalMs,
      expectedPerEvent: o.sockets,
      trigger: notify,
      latency: fromT0,
      complete: perEvent,
    });
    const rawCpu = meter.end();
    log(`realtime broadcast (raw: insert + NOTIFY + ws): ${JSON.stringify(medianOf(raw.runs))}`);
    // ws alone: a control socket asks the raw server to broadcast (no database at all).
    const control = await openRawFleet(1, [`ws://127.0.0.1:${rawPort}`]);
    await rawLoopsMs(raw1.child.pid, rawStats);
    const rawSplit0 = cpuSplit(raw1.child.pid);
    const wsOnly = await paced({
      fleet: rawFleet,
      runs: o.runs,
      warmup: o.warmup,
      events: o.events,
      intervalMs: o.intervalMs,
      expectedPerEvent: o.sockets,
      trigger: async (n) => {
        const t0 = wallNow();
        control.send(
          `!${JSON.stringify({ seq: n + 1, path, kind: 'bench.broadcast', key: null, data: { n, t0, pad: PAD }, at: new Date().toISOString() })}`,
        );
      },
      latency: fromT0,
      complete: perEvent,
    });
    const rawSplit1 = cpuSplit(raw1.child.pid);
    const loops = (await rawLoopsMs(raw1.child.pid, rawStats)).sort((a, b) => a - b);
    const rawUser = rawSplit1.user - rawSplit0.user;
    const rawSystem = rawSplit1.system - rawSplit0.system;
    server.bareWs = {
      loops: loops.length,
      loopMeanMs: loops.reduce((a, b) => a + b, 0) / Math.max(1, loops.length),
      loopP99Ms: loops[Math.min(loops.length - 1, Math.ceil(loops.length * 0.99) - 1)] ?? 0,
      loopMaxMs: loops[loops.length - 1] ?? 0,
      cpuUsPerDelivery: ((rawUser + rawSystem) * 1e6) / Math.max(1, o.sockets * (o.events * o.runs + o.warmup)),
      cpuKernelShare: rawUser + rawSystem > 0 ? rawSystem / (rawUser + rawSystem) : 0,
    };
    log(`realtime broadcast (raw: ws alone): ${JSON.stringify(medianOf(wsOnly.runs))}; its send loops ${JSON.stringify(server.bareWs)}`);
    await control.close();
    await rawFleet.close();
    await raw1.stop();

    const broadcast: LatencyFigure = {
      label: `${o.sockets} sockets on one API process, one event to all`,
      ours: medianOf(ours.runs),
      raw: medianOf(raw.runs),
      oursRuns: ours.runs,
      rawRuns: raw.runs,
      wsOnly: medianOf(wsOnly.runs),
      deliveries: ours.deliveries,
      expected: o.sockets * o.events * o.runs,
      missing: ours.missing,
      frames: ours.frames,
      cpu,
      rawCpu,
      note: 'from just before the write — publish() as one statement committed on its own: sequence upsert, insert, NOTIFY — to the frame on each socket',
      server,
    };

    // ---------- two API processes and a worker ----------
    const apiA = await start(startApi(db.url, 'api-a'));
    const apiB = await start(startApi(db.url, 'api-b'));
    const worker = await start(startWorker(db.url, 'worker'));
    const wsUrls = [apiA, apiB].map((a) => `${a.base.replace('http', 'ws')}/api/v1/realtime`);
    const sessionsA = await Promise.all(
      org.emails.map(async (email) => {
        const s = new Session(apiA.base);
        await s.login(email, SERVICES_PASSWORD);
        return s;
      }),
    );
    const boss = await startBoss(db.url, pino({ level: 'silent' }), { supervise: false });
    try {
      const execPath = realtimePaths.executions(org.id);
      log(`realtime: opening ${o.sockets} sockets over two API processes; worker process running`);
      fleet = await ourFleet({
        count: o.sockets,
        sessions: sessionsA,
        wsUrls,
        paths: [execPath],
        record: (kind, data) => kind === 'execution.updated' && (data as { status: string }).status !== 'scheduled',
      });
      const enqueuedAt = new Map<string, number>();
      const completedOn = (arrivals: Fleet['arrivals']) =>
        arrivals.filter((a) => (a.data as { status: string }).status === 'completed').length;
      const typeId = randomUUID();
      meter = new CpuMeter(
        () => ({ 'API process A': apiA.child.pid, 'API process B': apiB.child.pid, 'worker process': worker.child.pid, ...pidsOf(fleet) }),
        BENCH_LABEL,
      );
      meter.begin();
      const multi = await paced({
        fleet,
        runs: o.runs,
        warmup: o.warmup,
        events: o.events,
        intervalMs: o.intervalMs,
        expectedPerEvent: o.sockets,
        trigger: async () => {
          const t = wallNow();
          const [s] = await createExecutions(orm.em.fork(), boss, {
            organizationId: org.id,
            createdById: null,
            type: 'list',
            typeId,
            entityType: 'list',
            targets: [{ entityId: null }],
          });
          enqueuedAt.set(s.executionId, t);
        },
        latency: (a) => a.at - a.eventAt,
        complete: (arrivals, k) => completedOn(arrivals) >= o.sockets * k,
      });
      const mcpu = meter.end();
      // Enqueue → 'completed' on the socket (pg-boss wake-up, claim, completion, fan-out), last run.
      const e2e = fleet.arrivals
        .filter((a) => (a.data as { status: string }).status === 'completed')
        .map((a) => a.at - (enqueuedAt.get((a.data as { id: string }).id) ?? a.at));
      log(`realtime multi (ours): ${JSON.stringify(medianOf(multi.runs))}; enqueue→socket ${JSON.stringify(pcts(e2e))}`);
      await fleet.close();
      await Promise.all([apiA.stop(), apiB.stop(), worker.stop()]);

      const ports = [await freePort(), await freePort()];
      const raws = await Promise.all(
        ports.map((p, i) =>
          start(
            startProc(`raw-ws-${i + 1}`, 'tests/bench/procs/raw-ws.ts', [], { DATABASE_URL: db.url, PORT: String(p) }, (out) =>
              out.includes('ready'),
            ),
          ),
        ),
      );
      rawFleet = await rawFleetOf(
        o.sockets,
        ports.map((p) => `ws://127.0.0.1:${p}`),
      );
      meter = new CpuMeter(
        () => ({ 'raw ws process 1': raws[0].child.pid, 'raw ws process 2': raws[1].child.pid, ...pidsOf(rawFleet) }),
        BENCH_LABEL,
      );
      meter.begin();
      const rawMulti = await paced({
        fleet: rawFleet,
        runs: o.runs,
        warmup: o.warmup,
        events: o.events,
        intervalMs: o.intervalMs,
        expectedPerEvent: o.sockets,
        trigger: notify,
        latency: fromT0,
        complete: perEvent,
      });
      const rawMcpu = meter.end();
      log(`realtime multi (raw: insert + NOTIFY + ws ×2): ${JSON.stringify(medianOf(rawMulti.runs))}`);
      await rawFleet.close();
      await Promise.all(raws.map((r) => r.stop()));

      return {
        sockets: o.sockets,
        socketProcs: SOCKET_PROCS,
        socketNice: RECEIVER_NICE,
        events: o.events,
        runs: o.runs,
        intervalMs: o.intervalMs,
        broadcast,
        multi: {
          label: `${o.sockets} sockets over two API processes, events written by a worker process`,
          ours: medianOf(multi.runs),
          raw: medianOf(rawMulti.runs),
          oursRuns: multi.runs,
          rawRuns: rawMulti.runs,
          deliveries: multi.deliveries,
          expected: o.sockets * o.events * o.runs,
          missing: 0,
          frames: multi.frames,
          cpu: mcpu,
          rawCpu: rawMcpu,
          note:
            "from the event's insert in the worker's transaction (its `at`, stored to the microsecond and sent to the " +
            "millisecond) to the frame on each socket; an execution's 'processing' and 'completed' events may arrive in one " +
            'frame',
          enqueueToSocket: pcts(e2e),
        },
      };
    } finally {
      await boss.stop({ graceful: false });
    }
  } finally {
    for (const p of procs) await p.stop().catch(() => {});
    await notifier.end().catch(() => {});
    await orm.close();
  }
}
