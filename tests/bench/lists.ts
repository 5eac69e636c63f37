// `npm run bench:lists`: lists of ideas at a million rows, through the real server (a child
// process, API and worker, on a database of its own): a CSV upload of 1,000,000 rows (name, website
// and three more columns) through POST /list-company/source, streamed from this process; the server's
// RSS sampled during it; then pages of the one list of a million ideas and shortlisting 500,000
// 'all selected' ideas. Writes the 'Lists' section of docs/benchmarks.md (between its markers).
//
//   npm run bench:lists                               on an embedded PostgreSQL (the settings npm start gives it)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:lists
//   BENCH_LIST_ROWS=100000 npm run bench:lists      a smaller run (printed, not written, unless --write)
//   BENCH_KEEP_DB=1 …                                leaves the database in place (to EXPLAIN against it)
// Each database kind (embedded, another server) has its own block in the report, its settings beside it.
import { hostCpu } from './machine';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Client } from './client';
import { startEmbeddedServer } from './services-db';
import { embeddedServerFlags } from '../../server/src/db/embedded';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPORT = path.join(ROOT, 'docs', 'benchmarks.md');
const ROWS = Number(process.env.BENCH_LIST_ROWS ?? 1_000_000);
const EXTERNAL_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
// The embedded server with the settings `npm start` gives it (memory from the machine, or
// EMBEDDED_PG_SHARED_BUFFERS_MB as for the app; WAL for bulk work); BENCH_PG_FLAGS adds more.
const embedded = EXTERNAL_URL
  ? null
  : await startEmbeddedServer(
      (m) => console.log(m),
      embeddedServerFlags(
        undefined,
        process.env.EMBEDDED_PG_SHARED_BUFFERS_MB ? Number(process.env.EMBEDDED_PG_SHARED_BUFFERS_MB) : undefined,
      ),
    );
const ADMIN_URL = EXTERNAL_URL ?? embedded!.adminUrl;
const DB_KIND = embedded ? 'embedded' : 'server';
const WRITE = ROWS >= 1_000_000 || process.argv.includes('--write');
const EMAIL = 'bench-lists@example.com';
const PASSWORD = 'Bench1234';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const rssMb = (pid: number) => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
};

/** CPU seconds (user + system) of the database server's processes: the postmaster's children now alive (a local server only). */
const serverCpuSeconds = (postmaster: number) => {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After the command's ')': state, ppid, … utime (12th), stime (13th).
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[1]) === postmaster || Number(pid) === postmaster) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      /* gone */
    }
  }
  return ticks / 100;
};
/** The cluster's WAL so far (bytes, full-page images) and its server processes' CPU: what a bulk statement costs, load aside. */
const walNow = async () => {
  const r = (
    await admin.query<{ b: string; fpi: string; pm: number }>(
      `select wal_bytes::text as b, wal_fpi::text as fpi, (select pid from pg_stat_activity where backend_type = 'checkpointer') as pm
         from pg_stat_wal`,
    )
  ).rows[0];
  const stat = fs.readFileSync(`/proc/${r.pm}/stat`, 'utf8');
  const pm = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  return { bytes: Number(r.b), fpi: Number(r.fpi), cpu: serverCpuSeconds(pm) };
};
const walSince = (a: Awaited<ReturnType<typeof walNow>>, b: Awaited<ReturnType<typeof walNow>>) =>
  `WAL ${((b.bytes - a.bytes) / 1024 / 1024).toFixed(0)} MB, ${(b.fpi - a.fpi).toLocaleString('en-US')} full-page images; ` +
  `database CPU ${(b.cpu - a.cpu).toFixed(1)} s`;

const loadStart = os.loadavg()[0];
const dbName = `dealscout_bench_lists_${Date.now()}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`create database "${dbName}"`);
const dbFacts = (
  await admin.query<{ v: string; s: string }>(
    `select split_part(version(), ' on ', 1) as v, (select string_agg(name || '=' || current_setting(name), ', ' order by name) from pg_settings
      where name in ('shared_buffers', 'effective_cache_size', 'max_wal_size', 'checkpoint_timeout', 'wal_compression', 'work_mem', 'maintenance_work_mem',
                     'synchronous_commit', 'fsync')) as s`,
  )
).rows[0];
const u = new URL(ADMIN_URL);
u.pathname = `/${dbName}`;
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], {
  env: {
    ...process.env,
    DATABASE_URL: u.toString(),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    REALTIME_SECRET: 'bench-realtime-secret-0123456789abcdef',
    SECRETS_KEY: 'bench-secrets-key-0123456789abcdef0123456789',
    DEALSCOUT_ADMIN_EMAIL: EMAIL,
    DEALSCOUT_ADMIN_PASSWORD: PASSWORD,
    DEALSCOUT_ORG_NAME: 'Bench Lists',
    DS_IMPORT_TRACE: '1',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
// The import's own phases (csv-import.ts prints them with DS_IMPORT_TRACE): what dominates.
let importTrace = '';
child.stdout!.on('data', (b: Buffer) => {
  const text = b.toString();
  process.stdout.write(text);
  const m = /import: \d+ rows; (.*)/.exec(text);
  if (m) importTrace = m[1];
});
child.on('exit', (code, signal) => console.log(`server exited: code ${code}, signal ${signal}`));
const stop = async () => {
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  if (process.env.BENCH_KEEP_DB) console.log(`kept database ${dbName}`);
  else await admin.query(`drop database if exists "${dbName}" with (force)`);
  await admin.end();
  await embedded?.stop();
};
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      /* starting */
    }
    if (i > 600) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  const api = new Client(base);
  await api.login(EMAIL, PASSWORD);
  const list = JSON.parse((await api.post('/api/v1/list-company', { name: 'Bench million' })).text).list as { id: string };

  // The upload: multipart, the CSV generated while it is sent (never held whole in memory here either).
  const boundary = '----dsbenchboundary';
  const fields = {
    listCompanyId: list.id,
    intentionSourceId: 'csv',
    source: JSON.stringify({ mapping: { name: 'Company', website: 'Website' } }),
  };
  let bytes = 0;
  async function* body() {
    for (const [k, v] of Object.entries(fields))
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="million.csv"\r\nContent-Type: ` +
        `text/csv\r\n\r\nCompany,Website,Country,Employees,Founded\n`,
    );
    const countries = ['DE', 'FR', 'SE', 'US', 'GB', 'NL', 'ES', 'IT'];
    for (let i = 0; i < ROWS; i += 10_000) {
      let chunk = '';
      for (let j = i; j < Math.min(ROWS, i + 10_000); j++)
        chunk += `${j % 2 ? 'Alpha' : 'Beta'} Company ${j},https://www.company-${j}.example.com,${countries[j % 8]},${(j * 7) % 5000},${1950 + (j % 70)}\n`;
      const b = Buffer.from(chunk);
      bytes += b.length;
      yield b;
    }
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  const rss0 = rssMb(child.pid!);
  let rssMax = rss0;
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, rssMb(child.pid!));
  }, 100);
  const wal0 = await walNow().catch(() => null);
  const t0 = performance.now();
  const res = await fetch(`${base}/api/v1/list-company/source`, {
    method: 'POST',
    headers: {
      ...(api as unknown as { headers: Record<string, string> }).headers,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body: Readable.toWeb(Readable.from(body())) as unknown as BodyInit,
    duplex: 'half',
    signal: AbortSignal.timeout(30 * 60_000),
  } as RequestInit & { duplex: 'half' });
  const uploadText = await res.text();
  const uploadMs = performance.now() - t0;
  clearInterval(sampler);
  const wal1 = await walNow().catch(() => null);
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${uploadText.slice(0, 500)}`);
  const up = JSON.parse(uploadText) as { rows: number; inserted: number; rejected: number; ms: number };
  console.log(
    `upload: ${up.rows} rows, ${up.inserted} ideas in ${(uploadMs / 1000).toFixed(1)} s ` +
      `(${Math.round(up.rows / (uploadMs / 1000))} rows/s), RSS ${rss0.toFixed(0)} → max ${rssMax.toFixed(0)} MB`,
  );

  // Pages of the list.
  const first: number[] = [];
  for (let i = 0; i < 30; i++) first.push((await api.post('/api/v1/list-company/idea/list', { listCompanyId: list.id })).ms);
  const totalPages = Math.ceil(ROWS / 10);
  const anyPage: number[] = [];
  for (let i = 0; i < 30; i++) {
    const pageIndex = Math.floor(Math.random() * totalPages);
    anyPage.push((await api.post('/api/v1/list-company/idea/list', { listCompanyId: list.id, pageIndex })).ms);
    console.log(`page ${pageIndex}: ${anyPage[i].toFixed(1)} ms`);
  }
  const lastPage = (await api.post('/api/v1/list-company/idea/list', { listCompanyId: list.id, pageIndex: totalPages - 1 })).ms;
  const searched: number[] = [];
  for (let i = 0; i < 10; i++)
    searched.push((await api.post('/api/v1/list-company/idea/list', { listCompanyId: list.id, text: 'alpha' })).ms);
  const search = JSON.parse((await api.post('/api/v1/list-company/idea/list', { listCompanyId: list.id, text: 'alpha' })).text) as {
    totalRecords: number;
    totalIsEstimate: boolean;
  };
  // Shortlisting every 'alpha' idea (half of the list) as 'all selected'.
  const wal2 = await walNow().catch(() => null);
  const t1 = performance.now();
  const sl = JSON.parse(
    await (async () => {
      const r = await fetch(`${base}/api/v1/list-company/idea/shortlist`, {
        method: 'PUT',
        headers: (api as unknown as { headers: Record<string, string> }).headers,
        body: JSON.stringify({ listId: list.id, status: true, ideaFilters: { text: 'alpha' } }),
      });
      return r.text();
    })(),
  ) as { count: number };
  const shortlistMs = performance.now() - t1;
  const wal3 = await walNow().catch(() => null);
  const costs = wal0 && wal1 && wal2 && wal3 ? `The upload: ${walSince(wal0, wal1)}. Shortlisting: ${walSince(wal2, wal3)}.` : '';
  const f = (x: number) => `${x.toFixed(1)} ms`;
  const dbWhere = embedded
    ? 'an embedded PostgreSQL (temporary folder, the settings `npm start` without DATABASE_URL gives it)'
    : `PostgreSQL at ${String(ADMIN_URL).replace(/\/\/[^@]*@/, '//')}`;
  const report = [
    `<!-- lists-bench-${DB_KIND}:start -->`,
    `### Latest run: lists of ideas, ${embedded ? 'embedded PostgreSQL' : 'an existing PostgreSQL server'}`,
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} cores of ${hostCpu()} ` +
      `(1-minute load ${loadStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end), the real ` +
      `server as a child process, ` +
      `loopback; ${dbWhere}: ${dbFacts.v}; ${dbFacts.s}.`,
    '',
    '| What | Target | Measured |',
    '|---|---|---|',
    `| CSV upload, ${up.rows.toLocaleString('en-US')} rows × 5 columns (${(bytes / 1024 / 1024).toFixed(0)} MB), ` +
      `end to end through POST /list-company/source | ≥ 25,000 rows/s ` +
      `| ${Math.round(up.rows / (uploadMs / 1000)).toLocaleString('en-US')} rows/s ` +
      `(${(uploadMs / 1000).toFixed(1)} s; server side ${(up.ms / 1000).toFixed(1)} s) |`,
    `| Server RSS during the upload | growth ≤ 150 MB | ${rss0.toFixed(0)} → ${rssMax.toFixed(0)} MB (+${(rssMax - rss0).toFixed(0)} MB) |`,
    `| First page of the list of ${up.inserted.toLocaleString('en-US')} ideas (30 requests) | p95 ≤ 50 ms | ` +
      `p50 ${f(pct(first, 50))}, p95 ${f(pct(first, 95))} |`,
    `| Any page (30 random pages; the last page) | ≤ 150 ms | max ${f(Math.max(...anyPage))}, p50 ${f(pct(anyPage, 50))}; last ${f(lastPage)} |`,
    `| Search 'alpha' (${search.totalIsEstimate ? 'about ' : ''}${search.totalRecords.toLocaleString('en-US')} matches), ` +
      `first page | — | p50 ${f(pct(searched, 50))}, p95 ${f(pct(searched, 95))} |`,
    `| Shortlisting ${sl.count.toLocaleString('en-US')} 'all selected' ideas | ≤ 5 s | ${(shortlistMs / 1000).toFixed(2)} s |`,
    '',
    `The upload's phases on the server: ${importTrace || '(not reported)'}.${costs ? ` ${costs}` : ''}`,
    `<!-- lists-bench-${DB_KIND}:end -->`,
  ].join('\n');
  console.log(report);
  if (WRITE) {
    const doc = fs.existsSync(REPORT) ? fs.readFileSync(REPORT, 'utf8') : '# Benchmarks\n';
    const re = new RegExp(`<!-- lists-bench-${DB_KIND}:start -->[\\s\\S]*<!-- lists-bench-${DB_KIND}:end -->`);
    fs.writeFileSync(REPORT, re.test(doc) ? doc.replace(re, report) : `${doc.trimEnd()}\n\n${report}\n`);
  }
} finally {
  await stop();
}
