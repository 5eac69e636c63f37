// `npm run check:pgbouncer`: which PgBouncer pooling mode Dealscout works with, measured. Not part
// of `npm test` (it needs Debian's pgbouncer and a PostgreSQL server):
//   - installs `pgbouncer` from Debian when it is missing (as root, like .ci/run does for Chromium);
//   - PostgreSQL: CHECK_PG_HOST / CHECK_PG_PORT / CHECK_PG_USER (default 127.0.0.1:5432, postgres,
//     trust or PGPASSWORD);
//   - for each mode (session, transaction): runs pgbouncer with deploy/pgbouncer.ini (its pool_mode,
//     listen address and auth file replaced by the check's), a fresh database behind it, then
//       1. probes: LISTEN/NOTIFY across two clients, named prepared statements on a shared pool,
//          a session advisory lock seen by the next statement;
//       2. starts the real server (`main.ts --role both`) with DATABASE_URL through pgbouncer
//          (migrations under their lock included), signs in, opens a realtime socket on the
//          organization's executions, runs an LLM enrichment of ROWS companies against the loopback
//          model fake, and checks that the jobs ran (every result complete) and that the socket
//          received the executions' events;
//   - prints one table; exits 1 when session mode fails (the mode DEPLOY.md recommends).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import pg from 'pg';
import WebSocket from 'ws';
import { FakeOpenAiServer } from '../../server/test/fakes/openai-server';
import { configFor } from '../../server/src/modules/enrichments/configs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const PG = {
  host: process.env.CHECK_PG_HOST ?? '127.0.0.1',
  port: Number(process.env.CHECK_PG_PORT ?? 5432),
  user: process.env.CHECK_PG_USER ?? 'postgres',
};
const ROWS = 10;
const ADMIN = { email: 'operator@pgbouncer-check.example', password: 'Check-pgbouncer-123' };

type Mode = 'session' | 'transaction';
interface Outcome {
  mode: Mode;
  listenNotify: string;
  namedPrepared: string;
  sessionLock: string;
  serverStarted: string;
  jobs: string;
  realtime: string;
}

function pgbouncerBinary(): string {
  for (const p of ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer']) if (fs.existsSync(p)) return p;
  if (process.getuid?.() === 0) {
    console.log("installing Debian's pgbouncer");
    execFileSync('apt-get', ['install', '-y', '-qq', 'pgbouncer'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    // The package starts its own service on 6432; the check runs its own instances.
    try {
      execFileSync('service', ['pgbouncer', 'stop'], { stdio: 'ignore' });
    } catch {
      /* not running */
    }
    for (const p of ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer']) if (fs.existsSync(p)) return p;
  }
  throw new Error('pgbouncer is not installed (apt-get install pgbouncer)');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

async function until<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}

/** deploy/pgbouncer.ini with the check's database, port, mode and files. */
function iniFor(dir: string, db: string, port: number, mode: Mode): string {
  const shipped = fs.readFileSync(path.join(ROOT, 'deploy', 'pgbouncer.ini'), 'utf8');
  const set = (text: string, key: string, value: string) => {
    const re = new RegExp(`^${key}\\s*=.*$`, 'm');
    return re.test(text) ? text.replace(re, `${key} = ${value}`) : text.replace('[pgbouncer]', `[pgbouncer]\n${key} = ${value}`);
  };
  let ini = shipped.replace(
    /\[databases\][\s\S]*?(?=\n\[pgbouncer\])/,
    `[databases]\n${db} = host=${PG.host} port=${PG.port} dbname=${db}\n`,
  );
  for (const [k, v] of Object.entries({
    listen_addr: '127.0.0.1',
    listen_port: String(port),
    pool_mode: mode,
    auth_type: 'trust',
    auth_file: path.join(dir, 'userlist.txt'),
    logfile: path.join(dir, 'pgbouncer.log'),
    pidfile: path.join(dir, 'pgbouncer.pid'),
    unix_socket_dir: '',
    client_tls_sslmode: 'disable',
    server_tls_sslmode: 'disable',
  }))
    ini = set(ini, k, v);
  return ini;
}

async function probes(url: string): Promise<Pick<Outcome, 'listenNotify' | 'namedPrepared' | 'sessionLock'>> {
  // LISTEN on one client, NOTIFY from another.
  let listenNotify: string;
  {
    const a = new pg.Client({ connectionString: url });
    const b = new pg.Client({ connectionString: url });
    await a.connect();
    await b.connect();
    let got = false;
    a.on('notification', () => (got = true));
    await a.query('listen check_channel');
    // Other traffic on the listener's client (as a pooled connection would see).
    await a.query('select 1');
    await b.query(`notify check_channel, 'x'`);
    await new Promise((r) => setTimeout(r, 1000));
    listenNotify = got ? 'works' : 'LOST (no notification)';
    await a.end();
    await b.end();
  }
  // Named prepared statements: 8 clients, each preparing the same name, 40 queries at once.
  let namedPrepared: string;
  {
    const pool = new pg.Pool({ connectionString: url, max: 8 });
    let errors = 0;
    let first = '';
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        pool.query({ name: 'check_named', text: 'select $1::int as n', values: [i] }).catch((err: Error) => {
          errors += 1;
          first ||= err.message;
        }),
      ),
    );
    await pool.end();
    namedPrepared = errors === 0 ? 'works' : `FAILS (${errors}/40: ${first.slice(0, 60)})`;
  }
  // A session advisory lock, then a statement that asks whether this session holds it.
  let sessionLock: string;
  {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    const busy = Array.from({ length: 4 }, () => pool.query('select pg_sleep(0.05)'));
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query('select pg_advisory_lock(424242)');
    let held = 0;
    for (let i = 0; i < 10; i++) {
      await Promise.all([pool.query('select 1'), pool.query('select 1')]);
      const r = await c.query(
        `select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = 424242 and pid = pg_backend_pid()`,
      );
      held += r.rows[0].n;
    }
    await c.query('select pg_advisory_unlock_all()');
    await c.end();
    await Promise.all(busy);
    await pool.end();
    sessionLock = held === 10 ? 'works' : `BREAKS (held on ${held}/10 statements' connection)`;
  }
  return { listenNotify, namedPrepared, sessionLock };
}

async function serverRun(
  url: string,
  fake: FakeOpenAiServer,
  logFile: string,
): Promise<Pick<Outcome, 'serverStarted' | 'jobs' | 'realtime'>> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts'), '--role', 'both'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      WEB_DIST: '/nonexistent',
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DEALSCOUT_ADMIN_EMAIL: ADMIN.email,
      DEALSCOUT_ADMIN_PASSWORD: ADMIN.password,
      DEALSCOUT_ORG_NAME: 'PgBouncer Check',
      OPENAI_API_KEY: 'sk-check',
      OPENAI_BASE_URL: fake.url,
      OPENAI_MODELS: 'gpt-check',
      LLM_MAX_ATTEMPTS: '1',
      JOB_POLL_SECONDS: '0.5',
      SHUTDOWN_GRACE_SECONDS: '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = fs.createWriteStream(logFile);
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const exited = new Promise((r) => child.once('exit', r));
  const out: Pick<Outcome, 'serverStarted' | 'jobs' | 'realtime'> = { serverStarted: 'no', jobs: '-', realtime: '-' };
  let ws: WebSocket | null = null;
  try {
    const started = Date.now();
    await until('the server to be ready', 120_000, async () => {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}); see ${logFile}`);
      return (await fetch(`${base}/ready`)).ok ? true : undefined;
    });
    out.serverStarted = `yes (${((Date.now() - started) / 1000).toFixed(1)} s)`;
    const token = (
      (await (
        await fetch(`${base}/api/v1/auth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...ADMIN, label: 'check' }),
        })
      ).json()) as { token: string }
    ).token;
    const api = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${base}${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 200)}`);
      return JSON.parse(text) as Record<string, unknown>;
    };

    // The realtime socket on the organization's executions.
    const events: { kind: string }[] = [];
    ws = new WebSocket(`${base.replace('http', 'ws')}/api/v1/realtime`);
    const socket = ws;
    const messages: Record<string, unknown>[] = [];
    socket.on('message', (raw) => {
      const m = JSON.parse(raw.toString()) as Record<string, unknown>;
      messages.push(m);
      if (m.type === 'events') events.push(...(m.events as { kind: string }[]));
    });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ type: 'auth', token: (await api('GET', '/api/v1/notifications/token')).token }));
    const ready = await until('the socket to be ready', 10_000, async () => messages.find((m) => m.type === 'ready'));
    socket.send(JSON.stringify({ type: 'subscribe', paths: [`org/${String(ready.oid)}/executions`] }));
    await until('the subscription', 10_000, async () => messages.find((m) => m.type === 'subscribed'));

    const enrichment = await api('POST', '/api/v1/enrichment', {
      configId: configFor('company', 'llm')!.id,
      name: 'Sector',
      prompt: 'Which sector?',
      schema: [{ name: 'answer', type: 'string', description: 'The sector.', required: true }],
    });
    const ids: string[] = [];
    for (let i = 0; i < ROWS; i++) {
      const c = await api('POST', '/api/v1/entity/company', { company: { name: `Check ${i}`, website: `check${i}.example` } });
      ids.push((c.company as { id: string }).id);
    }
    const runAt = Date.now();
    await api('POST', '/api/v1/enrichment/execute', { enrichmentId: enrichment.id, entityType: 'company', entityIds: ids });
    try {
      await until('every result', 60_000, async () => {
        const r = (
          await api('POST', '/api/v1/enrichment/results', { entityType: 'company', entityIds: ids, enrichmentIds: [enrichment.id] })
        ).results as { status: string }[];
        return r.length === ROWS && r.every((x) => x.status === 'complete') ? true : undefined;
      });
      out.jobs = `run (${ROWS}/${ROWS} rows in ${((Date.now() - runAt) / 1000).toFixed(1)} s)`;
    } catch (err) {
      out.jobs = `NOT RUN (${(err as Error).message.slice(0, 80)})`;
    }
    // Give live events a moment after the last result.
    await new Promise((r) => setTimeout(r, 2000));
    const executionEvents = events.filter((e) => e.kind.startsWith('execution')).length;
    out.realtime = executionEvents > 0 ? `arrive (${executionEvents} execution events)` : 'LOST (0 events on the socket)';
  } catch (err) {
    if (out.serverStarted === 'no') out.serverStarted = `NO (${(err as Error).message.slice(0, 80)})`;
    else out.jobs = out.jobs === '-' ? `error: ${(err as Error).message.slice(0, 80)}` : out.jobs;
  } finally {
    ws?.terminate();
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  return out;
}

async function checkMode(bin: string, mode: Mode, fake: FakeOpenAiServer): Promise<Outcome> {
  const db = `dealscout_pgbouncer_${mode}`;
  const admin = new pg.Client({ ...PG, database: 'postgres' });
  await admin.connect();
  await admin.query(`drop database if exists ${db} with (force)`);
  await admin.query(`create database ${db}`);
  await admin.end();

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pgbouncer-${mode}-`));
  fs.writeFileSync(path.join(dir, 'userlist.txt'), `"${PG.user}" ""\n`);
  const port = await freePort();
  fs.writeFileSync(path.join(dir, 'pgbouncer.ini'), iniFor(dir, db, port, mode));
  // PgBouncer refuses to run as root: it switches to the PostgreSQL account (-u).
  const asRoot = process.getuid?.() === 0;
  if (asRoot) fs.chmodSync(dir, 0o777);
  const bouncer = spawn(bin, [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let bouncerOut = '';
  bouncer.stdout!.on('data', (d) => (bouncerOut += d));
  bouncer.stderr!.on('data', (d) => (bouncerOut += d));
  const url = `postgres://${PG.user}@127.0.0.1:${port}/${db}`;
  try {
    await until(`pgbouncer (${mode}) to accept connections`, 15_000, async () => {
      if (bouncer.exitCode !== null) throw new Error(`pgbouncer exited: ${bouncerOut}`);
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.end();
      return true;
    });
    const p = await probes(url);
    const s = await serverRun(url, fake, path.join(dir, 'server.log'));
    console.log(`${mode}: logs in ${dir}`);
    return { mode, ...p, ...s };
  } finally {
    if (bouncer.exitCode === null && bouncer.signalCode === null) {
      bouncer.kill('SIGTERM');
      await new Promise((r) => bouncer.once('exit', r));
    }
    const a = new pg.Client({ ...PG, database: 'postgres' });
    await a.connect();
    await a.query(`drop database if exists ${db} with (force)`);
    await a.end();
  }
}

const bin = pgbouncerBinary();
console.log(execFileSync(bin, ['--version']).toString().split('\n')[0]);
const fake = await FakeOpenAiServer.start({ apiKeys: ['sk-check'] });
const modes: Mode[] = (process.env.CHECK_MODES?.split(',') as Mode[] | undefined) ?? ['session', 'transaction'];
const outcomes: Outcome[] = [];
try {
  for (const mode of modes) outcomes.push(await checkMode(bin, mode, fake));
} finally {
  await fake.close();
}
const cols: (keyof Outcome)[] = ['mode', 'listenNotify', 'namedPrepared', 'sessionLock', 'serverStarted', 'jobs', 'realtime'];
console.log(`| ${cols.join(' | ')} |\n|${cols.map(() => '---').join('|')}|`);
for (const o of outcomes) console.log(`| ${cols.map((c) => o[c]).join(' | ')} |`);
const session = outcomes.find((o) => o.mode === 'session');
const ok = (o: Outcome) => o.serverStarted.startsWith('yes') && o.jobs.startsWith('run') && o.realtime.startsWith('arrive');
process.exit(session && !ok(session) ? 1 : 0);
