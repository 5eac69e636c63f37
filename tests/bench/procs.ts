// Processes and sockets for the realtime and jobs benchmarks: API processes (`--role api`)
// and a worker process (`--role worker`) started as separate Node processes from the app's own
// entry point, the raw-infrastructure processes they are compared with, and a fleet of real `ws`
// clients authenticated with tokens from GET /api/v1/notifications/token.
import { spawn, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Wall-clock milliseconds with sub-millisecond resolution, comparable between processes of this machine. */
export const wallNow = (): number => performance.timeOrigin + performance.now();

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface Proc {
  name: string;
  child: ChildProcess;
  /** stdout and stderr so far (for errors and readiness lines). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `node --import tsx <script> ...args` from the repository root; resolves once `ready(output)` holds. */
export async function startProc(
  name: string,
  script: string,
  args: string[],
  env: Record<string, string>,
  ready: (out: string) => boolean | Promise<boolean>,
  timeoutMs = 90_000,
): Promise<Proc> {
  // BENCH_NODE_ARGS: extra Node options for the started processes, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (d: Buffer) => {
    out += d.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const proc: Proc = {
    name,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(t);
    },
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${out.slice(-3000)}`);
    if (await ready(out)) return proc;
    if (Date.now() > deadline) {
      await proc.stop();
      throw new Error(`${name} did not start within ${timeoutMs / 1000} s:\n${out.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Server settings shared by every app process of a benchmark (one secret, so tokens work on any API process). */
export function appEnv(dbUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: dbUrl,
    HOST: '127.0.0.1',
    WEB_DIST: '/nonexistent',
    REALTIME_SECRET: 'bench-realtime-secret-0123456789abcdef0123456789',
    SECRETS_KEY: 'bench-secrets-key-0123456789abcdef0123456789abcd',
    ...extra,
  };
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

/** An API process: `server/src/main.ts --role api`, the app's entry point as deployed. */
export async function startApi(dbUrl: string, name: string, extraEnv: Record<string, string> = {}): Promise<Proc & { base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const p = await startProc(
    name,
    'server/src/main.ts',
    ['--role', 'api'],
    appEnv(dbUrl, { PORT: String(port), PUBLIC_URL: base, ...extraEnv }),
    () => answers(`${base}/api/v1/health`),
  );
  return { ...p, base };
}

/**
 * A worker process: the app's entry point with `--role worker`, plus a no-op handler for the
 * benchmark's execution type (no product handler is registered yet; see procs/noop-worker.ts).
 */
export async function startWorker(dbUrl: string, name: string, extraEnv: Record<string, string> = {}): Promise<Proc> {
  return startProc(
    name,
    'tests/bench/procs/noop-worker.ts',
    ['--role', 'worker'],
    appEnv(dbUrl, { LOG_LEVEL: 'info', ...extraEnv }),
    (out) => out.includes('worker started'),
  );
}

// ---------- sessions and sockets ----------

export class Session {
  private cookie = '';
  constructor(readonly base: string) {}

  async login(email: string, password: string): Promise<void> {
    const res = await fetch(`${this.base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
    this.cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  }

  async token(): Promise<string> {
    const res = await fetch(`${this.base}/api/v1/notifications/token`, {
      headers: { cookie: this.cookie },
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok) throw new Error(`token: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { token: string }).token;
  }
}

export interface Arrival {
  /** Wall-clock ms when the frame's message event fired. */
  at: number;
  socket: number;
  seq: number;
  key: string | null;
  kind: string;
  /** The event's `at` (its insert in the writer's transaction), ms since the epoch. */
  eventAt: number;
  data: unknown;
}

export interface Fleet {
  size: number;
  arrivals: Arrival[];
  /** Frames with events received (a frame may carry several coalesced events). */
  frames: number;
  closedEarly: number;
  reset(): void;
  close(): Promise<void>;
}

/**
 * Opens `count` sockets spread over the given API bases (round robin), each authenticated with its
 * own token (GET /api/v1/notifications/token through one of the sessions) and subscribed to `paths`.
 * Every event that arrives is recorded with its arrival time; `record` filters what is kept.
 */
export async function openFleet(opts: {
  count: number;
  sessions: Session[];
  wsUrls: string[];
  paths: string[];
  record?: (kind: string, data: unknown) => boolean;
  concurrency?: number;
}): Promise<Fleet> {
  const sockets: WebSocket[] = [];
  const fleet: Fleet = {
    size: opts.count,
    arrivals: [],
    frames: 0,
    closedEarly: 0,
    reset() {
      fleet.arrivals = [];
      fleet.frames = 0;
    },
    async close() {
      await Promise.all(
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
      );
    },
  };
  let closing = false;
  const open = async (i: number) => {
    const session = opts.sessions[i % opts.sessions.length];
    const token = await session.token();
    const ws = new WebSocket(opts.wsUrls[i % opts.wsUrls.length], { perMessageDeflate: false });
    sockets.push(ws);
    await new Promise<void>((resolve, reject) => {
      let stage: 'auth' | 'subscribe' | 'live' = 'auth';
      const timer = setTimeout(() => reject(new Error(`socket ${i}: no ${stage} answer within 30 s`)), 30_000);
      ws.on('message', (raw) => {
        const at = wallNow();
        const text = raw.toString();
        if (stage === 'live') {
          if (!text.startsWith('{"type":"events"')) return;
          fleet.frames += 1;
          const msg = JSON.parse(text) as { events: { seq: number; key: string | null; kind: string; at: string; data: unknown }[] };
          for (const e of msg.events) {
            if (opts.record && !opts.record(e.kind, e.data)) continue;
            fleet.arrivals.push({ at, socket: i, seq: e.seq, key: e.key, kind: e.kind, eventAt: Date.parse(e.at), data: e.data });
          }
          return;
        }
        const msg = JSON.parse(text) as { type: string };
        if (stage === 'auth' && msg.type === 'ready') {
          stage = 'subscribe';
          ws.send(JSON.stringify({ type: 'subscribe', paths: opts.paths }));
        } else if (stage === 'subscribe' && msg.type === 'subscribed') {
          stage = 'live';
          clearTimeout(timer);
          resolve();
        } else if (msg.type === 'refused' || msg.type === 'error') {
          clearTimeout(timer);
          reject(new Error(`socket ${i}: ${text}`));
        }
      });
      ws.once('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
      ws.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      ws.on('close', () => {
        if (!closing && stage === 'live') fleet.closedEarly += 1;
      });
    });
  };
  const concurrency = opts.concurrency ?? 50;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < opts.count) await open(next++);
    }),
  );
  const close = fleet.close;
  fleet.close = () => {
    closing = true;
    return close();
  };
  return fleet;
}

/** Raw `ws` clients of the raw-infrastructure servers (no auth, no subscribe): every frame's arrival is recorded. */
export async function openRawFleet(count: number, wsUrls: string[]): Promise<Fleet & { send(text: string): void }> {
  const sockets: WebSocket[] = [];
  const fleet = {
    /** Sends on the first socket (a control client of the raw server). */
    send(text: string) {
      sockets[0].send(text);
    },
    size: count,
    arrivals: [] as Arrival[],
    frames: 0,
    closedEarly: 0,
    reset() {
      fleet.arrivals = [];
      fleet.frames = 0;
    },
    async close() {
      await Promise.all(
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
      );
    },
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < count) {
        const i = next++;
        const ws = new WebSocket(wsUrls[i % wsUrls.length], { perMessageDeflate: false });
        sockets.push(ws);
        ws.on('message', (raw) => {
          const at = wallNow();
          fleet.frames += 1;
          const msg = JSON.parse(raw.toString()) as {
            events: { seq: number; key: string | null; kind: string; at: string; data: unknown }[];
          };
          for (const e of msg.events)
            fleet.arrivals.push({ at, socket: i, seq: e.seq, key: e.key, kind: e.kind, eventAt: Date.parse(e.at), data: e.data });
        });
        await new Promise<void>((resolve, reject) => {
          ws.once('open', () => resolve());
          ws.once('error', reject);
        });
      }
    }),
  );
  return fleet;
}

/** A fleet whose sockets live in child processes: its arrivals are fetched with collect(). */
export interface RemoteFleet extends Fleet {
  /** Appends what the socket processes received since the last call to `arrivals`. */
  collect(): Promise<void>;
  /** The socket processes (for CpuMeter). */
  pids: Record<string, number | undefined>;
}

/**
 * The sockets of openFleet() (with tokens: auth and subscribe) or openRawFleet() (without), spread
 * round robin over `procs` child processes (tests/bench/procs/receiver.ts), so that receiving them
 * does not share one event loop with the bench's own work and they can use both CPUs. Tokens are
 * fetched here, through the sessions, as openFleet() does. Each child timestamps a frame first thing
 * in its 'message' handler and parses it only on collect().
 */
export async function openRemoteFleet(opts: {
  count: number;
  procs: number;
  wsUrls: string[];
  /** With sessions and paths: authenticated, subscribed sockets of our API; without: raw sockets. */
  sessions?: Session[];
  paths?: string[];
  record?: (kind: string, data: unknown) => boolean;
  /** The socket processes' nice value (0: the servers' own priority). */
  nice?: number;
}): Promise<RemoteFleet> {
  const specs: { i: number; url: string; token?: string; paths?: string[] }[] = Array.from({ length: opts.count }, (_, i) => ({
    i,
    url: opts.wsUrls[i % opts.wsUrls.length],
  }));
  if (opts.sessions) {
    const sessions = opts.sessions;
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < specs.length) {
          const s = specs[next++];
          s.token = await sessions[s.i % sessions.length].token();
          s.paths = opts.paths;
        }
      }),
    );
  }
  const children = Array.from({ length: opts.procs }, () =>
    fork(path.join(ROOT, 'tests/bench/procs/receiver.ts'), [], {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, RECEIVER_NICE: String(opts.nice ?? 0) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    }),
  );
  const ask = <T extends { type: string }>(child: ChildProcess, msg: unknown, want: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const onMsg = (m: T) => {
        if (m.type !== want && m.type !== 'error') return;
        child.off('message', onMsg);
        child.off('exit', onExit);
        if (m.type === 'error') reject(new Error((m as unknown as { message: string }).message));
        else resolve(m);
      };
      const onExit = (code: number | null) => {
        child.off('message', onMsg);
        reject(new Error(`socket process exited with ${code}`));
      };
      child.on('message', onMsg);
      child.once('exit', onExit);
      if (msg !== null) child.send(msg as never);
    });
  await Promise.all(children.map((c) => ask(c, null, 'started')));
  await Promise.all(children.map((c, k) => ask(c, { type: 'open', sockets: specs.filter((s) => s.i % opts.procs === k) }, 'opened')));
  const fleet: RemoteFleet = {
    size: opts.count,
    arrivals: [],
    frames: 0,
    closedEarly: 0,
    pids: Object.fromEntries(children.map((c, k) => [`socket process ${k + 1}`, c.pid])),
    /** As openFleet's: what arrived before this call is not counted (IPC keeps the order with a later collect()). */
    reset() {
      fleet.arrivals = [];
      fleet.frames = 0;
      for (const c of children) c.send({ type: 'reset' });
    },
    async collect() {
      const got = await Promise.all(
        children.map((c) =>
          ask<{ type: string; arrivals: Arrival[]; frames: number; closedEarly: number }>(c, { type: 'collect' }, 'arrivals'),
        ),
      );
      fleet.closedEarly = 0;
      for (const g of got) {
        fleet.frames += g.frames;
        fleet.closedEarly += g.closedEarly;
        for (const a of g.arrivals) if (!opts.record || opts.record(a.kind, a.data)) fleet.arrivals.push(a);
      }
    },
    async close() {
      await Promise.all(
        children.map(async (c) => {
          await ask(c, { type: 'close' }, 'closed').catch(() => {});
          c.disconnect();
        }),
      );
    },
  };
  return fleet;
}

// ---------- statistics ----------

export function pct(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export interface Pcts {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  n: number;
}
export function pcts(xs: number[]): Pcts {
  const s = Float64Array.from(xs).sort();
  const at = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
  return { p50: at(50), p95: at(95), p99: at(99), max: s[s.length - 1], n: s.length };
}

/** The median of each percentile over several runs. */
export function medianOf(runs: Pcts[]): Pcts {
  const m = (f: (r: Pcts) => number) => pct(runs.map(f), 50);
  return {
    p50: m((r) => r.p50),
    p95: m((r) => r.p95),
    p99: m((r) => r.p99),
    max: Math.max(...runs.map((r) => r.max)),
    n: runs.reduce((a, r) => a + r.n, 0),
  };
}

/** A figure in ms; '–' where there is none (no sample: the percentiles of an empty run are undefined). */
export const fmtMs = (ms: number | undefined): string =>
  ms === undefined || Number.isNaN(ms) ? '–' : ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);

// ---------- machine load ----------

const CLK_TCK = 100;

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
export function cpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch {
    return 0;
  }
}

/** CPU seconds a process has used so far in user space and in the kernel (system time); zeros once it is gone. */
export function cpuSplit(pid: number | undefined): { user: number; system: number } {
  if (!pid) return { user: 0, system: 0 };
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(f[11]) / CLK_TCK, system: Number(f[12]) / CLK_TCK };
  } catch {
    return { user: 0, system: 0 };
  }
}

/** CPU seconds used so far by every PostgreSQL server process of the machine. */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!comm.startsWith('postgres')) continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(f[11]) + Number(f[12])) / CLK_TCK;
    } catch {
      /* gone */
    }
  }
  return total;
}

/** CPU use of named processes (and PostgreSQL) over a phase: cores used on average. */
export class CpuMeter {
  private t0 = 0;
  private start = new Map<string, number>();
  private load: number[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** `self`: the label of this (the bench's) process. */
  constructor(
    private readonly pids: () => Record<string, number | undefined>,
    private readonly self = 'bench (sockets)',
  ) {}

  begin(): void {
    this.t0 = performance.now();
    this.start = new Map(Object.entries(this.pids()).map(([k, pid]) => [k, cpuSeconds(pid)]));
    this.start.set('PostgreSQL', postgresCpuSeconds());
    this.start.set(this.self, process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6);
    this.load = [os.loadavg()[0]];
    this.timer = setInterval(() => this.load.push(os.loadavg()[0]), 1000);
    this.timer.unref();
  }

  end(): { seconds: number; cores: Record<string, number>; loadMax: number; loadStart: number } {
    if (this.timer) clearInterval(this.timer);
    const seconds = (performance.now() - this.t0) / 1000;
    const now = new Map(Object.entries(this.pids()).map(([k, pid]) => [k, cpuSeconds(pid)]));
    now.set('PostgreSQL', postgresCpuSeconds());
    const u = process.cpuUsage();
    now.set(this.self, u.user / 1e6 + u.system / 1e6);
    const cores: Record<string, number> = {};
    // A process that exited in between drops out of the PostgreSQL sum: never below zero.
    for (const [k, v] of now) cores[k] = Math.max(0, (v - (this.start.get(k) ?? 0)) / seconds);
    this.load.push(os.loadavg()[0]);
    return { seconds, cores, loadMax: Math.max(...this.load), loadStart: this.load[0] };
  }
}
