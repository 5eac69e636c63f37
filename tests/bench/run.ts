// `npm run bench`: the companies table at a million rows, measured through the real HTTP API and
// compared with the same statements run directly on the database; writes docs/benchmarks.md.
//
//   npm run bench                      reuse the cached data set (seeded on the first run, ~minutes)
//   npm run bench -- --reseed          drop and rebuild the data set (also BENCH_RESEED=1)
//   npm run bench -- --runs 3 --requests 30
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench
//                                      use that server (database dealscout_bench is created on it);
//                                      without it (and without DATABASE_URL) an embedded PostgreSQL
//                                      keeps its data in BENCH_PG_DIR (default $TMPDIR/dealscout-bench-pg)
//   BENCH_PG_FLAGS="-c shared_buffers=2GB" npm run bench
//                                      extra settings for the embedded PostgreSQL
//   BENCH_SCALE=0.05 npm run bench     a smaller data set in its own database, to try the bench itself
//   npm run bench -- --only random-50,last-50 --no-export --runs 1 --requests 10
//                                      a partial run; partial and scaled runs print their report
//                                      instead of writing docs/benchmarks.md (unless --write)
//   npm run bench -- --plans           add the EXPLAIN (ANALYZE, BUFFERS) of one request per scenario
//
// Loopback only, bounded (BENCH_TIME_LIMIT_MINUTES, default 45: the process exits when it is
// reached), and not part of `npm test`.
import { hostCpu } from './machine';
import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../server/src/config';
import { ormConfig } from '../../server/src/orm-config';
import { buildApp } from '../../server/src/app';
import { serverOrmConfig } from '../../server/src/database';
import { loadQueryContext, whereSql, orderSql, pageIds } from '../../server/src/modules/records/table-query';
import { companyRows } from '../../server/src/modules/records/presenter';
import { exportCsv } from '../../server/src/modules/records/export';
import { selectionWhere } from '../../server/src/modules/records/records.service';
import type { TableFilter } from '@dealscout/shared/domain';
import { openBenchDatabase, ORGS, BENCH_PASSWORD, SCALE, PREFIXES, NOUNS } from './seed';
import { Client } from './client';
import { runServiceBenches, wantsServices, wantsTables } from './services';
import { runEnrichmentBench } from './enrichments';
import { runCrashBench } from './crash';
import { runScoringBench } from './scoring';
import { runPlaysBench } from './plays';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPORT = path.join(ROOT, 'docs', 'benchmarks.md');

// ---------- arguments, time limit ----------

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const numArg = (name: string, def: number) => {
  const i = argv.indexOf(name);
  const v = i >= 0 ? Number(argv[i + 1]) : def;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} needs a positive number`);
  return v;
};
const RESEED = flag('--reseed') || process.env.BENCH_RESEED === '1';
const RUNS = numArg('--runs', 3);
const REQUESTS = numArg('--requests', 30);
const WARMUP = numArg('--warmup', 5);
const ONLY = (() => {
  const i = argv.indexOf('--only');
  return i >= 0 ? argv[i + 1].split(',') : null;
})();
const SKIP_EXPORT = flag('--no-export');
// A partial run (--only, --no-export, fewer runs or requests) prints its report instead of writing it.
const PARTIAL = ONLY !== null || SKIP_EXPORT || RUNS < 3 || REQUESTS < 30;
const WRITE = (SCALE === 1 && !PARTIAL) || flag('--write');
const LIMIT_MIN = Number(process.env.BENCH_TIME_LIMIT_MINUTES ?? '45');

const limit = setTimeout(() => {
  console.error(`bench: time limit of ${LIMIT_MIN} minutes reached, stopping`);
  process.exit(2);
}, LIMIT_MIN * 60_000);
limit.unref();

const log = (m: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${m}`);

// ---------- small statistics ----------

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
const median = (xs: number[]) => pct(xs, 50);
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const mb = (b: number) => (b / 1024 / 1024).toFixed(0);

/** Deterministic pseudo-random numbers (mulberry32), so every run asks for the same pages. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------- the table requests ----------

interface Body {
  pageIndex: number;
  pageSize: number;
  sortKey: string;
  sortOrder: 'asc' | 'desc';
  text: string;
  filters: TableFilter[];
}

const revenueOver = (n: number): TableFilter => ({
  key: 'revenue',
  operator: 'and',
  items: [{ id: 'c1', condition: 'greater_than', data: n }],
});
const industryIs = (v: string): TableFilter => ({ key: 'industry', operator: 'and', items: [{ id: 'c1', condition: 'equals', data: v }] });

const SELECTIVE = PREFIXES[2].toLowerCase(); // 'summit': one prefix word of 100 (~1% of the names)
const BROAD = NOUNS[4].toLowerCase(); // 'holdings': one noun of 12 (~8% of the names)

interface Scenario {
  id: string;
  label: string;
  /** The target for the API p95, ms. */
  target: number;
  targetNote: string;
  base: Omit<Body, 'pageIndex'>;
  /** Page indexes of one run (given the total of the set). */
  pages(total: number, run: number): number[];
}

/** 'Account Owner in [the signed-in admin]' ('my companies'); the id is filled in once the data set is known. */
const OWNER_SELF: TableFilter = { key: 'owner', operator: 'and', items: [{ id: 'c1', condition: 'in', data: [] as string[] }] };

/** 'Created between' ten days of the data set (about 10,000 companies); the days are filled in from the data set. */
const CREATED_RANGE: TableFilter = {
  key: 'created_at',
  operator: 'and',
  items: [{ id: 'c1', condition: 'between', data: [] as string[] }],
};

const nameAsc = { sortKey: 'name', sortOrder: 'asc' as const };
const same = (i: number) => () => Array.from({ length: REQUESTS }, () => i);
const randomPages = (seed: number, pageSize: number) => (total: number, run: number) => {
  const r = rng(seed * 1000 + run);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return Array.from({ length: REQUESTS }, () => Math.floor(r() * pages));
};
const lastPage = (pageSize: number) => (total: number) =>
  Array.from({ length: REQUESTS }, () => Math.max(0, Math.ceil(total / pageSize) - 1));

const SCENARIOS: Scenario[] = [
  {
    id: 'first-search-filter',
    label: `First page of 50 by name, search '${SELECTIVE}' + Revenue > 500`,
    target: 50,
    targetNote: 'first page, search + numeric filter',
    base: { pageSize: 50, ...nameAsc, text: SELECTIVE, filters: [revenueOver(500)] },
    pages: same(0),
  },
  {
    id: 'first-broad-search-filter',
    label: `First page of 50 by name, search '${BROAD}' (less selective) + Revenue > 500`,
    target: 50,
    targetNote: 'first page, search + numeric filter',
    base: { pageSize: 50, ...nameAsc, text: BROAD, filters: [revenueOver(500)] },
    pages: same(0),
  },
  {
    id: 'first-one-letter-search',
    label: "First page of 50 by name, search 'a' (one letter: most names)",
    target: 50,
    targetNote: 'first page, search',
    base: { pageSize: 50, ...nameAsc, text: 'a', filters: [] },
    pages: same(0),
  },
  {
    id: 'first-50',
    label: 'First page of 50 by name, no search or filter',
    target: 150,
    targetNote: 'any page of 50',
    base: { pageSize: 50, ...nameAsc, text: '', filters: [] },
    pages: same(0),
  },
  {
    id: 'random-50',
    label: 'Random pages of 50 by name, no search or filter',
    target: 150,
    targetNote: 'any page of 50',
    base: { pageSize: 50, ...nameAsc, text: '', filters: [] },
    pages: randomPages(1, 50),
  },
  {
    id: 'last-50',
    label: 'Last page of 50 by name, no search or filter',
    target: 150,
    targetNote: 'any page of 50',
    base: { pageSize: 50, ...nameAsc, text: '', filters: [] },
    pages: lastPage(50),
  },
  {
    id: 'random-50-broad',
    label: `Random pages of 50 by name, search '${BROAD}' + Revenue > 500`,
    target: 150,
    targetNote: 'any page of 50',
    base: { pageSize: 50, ...nameAsc, text: BROAD, filters: [revenueOver(500)] },
    pages: randomPages(2, 50),
  },
  {
    id: 'random-50-by-revenue',
    label: 'Random pages of 50 sorted by the custom field Revenue (desc)',
    target: 150,
    targetNote: 'any page of 50',
    base: { pageSize: 50, sortKey: 'revenue', sortOrder: 'desc', text: '', filters: [] },
    pages: randomPages(3, 50),
  },
  {
    id: 'random-50-by-website',
    label: 'Random pages of 50 sorted by Website',
    target: 150,
    targetNote: 'any page of 50',
    base: { pageSize: 50, sortKey: 'website', sortOrder: 'asc', text: '', filters: [] },
    pages: randomPages(5, 50),
  },
  {
    id: 'random-50-by-owner',
    label: 'Random pages of 50 sorted by Account Owner (desc)',
    target: 150,
    targetNote: 'any page of 50',
    base: { pageSize: 50, sortKey: 'owner', sortOrder: 'desc', text: '', filters: [] },
    pages: randomPages(6, 50),
  },
  {
    id: 'random-50-my-companies',
    label: 'Random pages of 50 by name, Account Owner = the signed-in user',
    target: 150,
    targetNote: 'any page of 50',
    base: { pageSize: 50, ...nameAsc, text: '', filters: [OWNER_SELF] },
    pages: randomPages(7, 50),
  },
  {
    id: 'random-50-created-range',
    label: 'Random pages of 50 by name, Created between two days ten days apart',
    target: 150,
    targetNote: 'any page of 50',
    base: { pageSize: 50, ...nameAsc, text: '', filters: [CREATED_RANGE] },
    pages: randomPages(8, 50),
  },
  {
    id: 'first-1000',
    label: 'First page of 1,000 by name, no search or filter',
    target: 250,
    targetNote: 'page of 1,000',
    base: { pageSize: 1000, ...nameAsc, text: '', filters: [] },
    pages: same(0),
  },
  {
    id: 'random-1000',
    label: 'Random pages of 1,000 by name, no search or filter',
    target: 250,
    targetNote: 'page of 1,000',
    base: { pageSize: 1000, ...nameAsc, text: '', filters: [] },
    pages: randomPages(4, 1000),
  },
];

// ---------- HTTP client ----------

// ---------- direct SQL, with a statement log ----------

interface Stmt {
  sql: string;
  params: unknown[];
  ms: number;
}

/** An ORM of its own whose connection records every statement with its time. */
async function instrumentedOrm(url: string): Promise<{ orm: MikroORM; take(): Stmt[] }> {
  const orm = await MikroORM.init(ormConfig(url, { logger: () => {} }));
  const conn = orm.em.getConnection();
  const original = conn.execute.bind(conn) as (...a: unknown[]) => Promise<unknown>;
  let stmts: Stmt[] = [];
  (conn as unknown as { execute: (...a: unknown[]) => Promise<unknown> }).execute = async (...a: unknown[]) => {
    const t0 = performance.now();
    const r = await original(...a);
    const sql = typeof a[0] === 'string' ? a[0] : String((a[0] as { sql?: string })?.sql ?? a[0]);
    stmts.push({ sql, params: Array.isArray(a[1]) ? a[1] : [], ms: performance.now() - t0 });
    return r;
  };
  return {
    orm,
    take: () => {
      const s = stmts;
      stmts = [];
      return s;
    },
  };
}

function kindOfStmt(sql: string): string {
  const s = sql.replace(/\s+/g, ' ').toLowerCase();
  if (s.includes('as materialized')) return 'count + page ids';
  if (s.includes('tablesample')) return 'sample';
  if (s.startsWith('set local')) return 'set local';
  if (s.includes('row_number() over')) return 'boundary map';
  if (s.includes('limit 1 offset')) return 'anchor';
  if (s.includes('from record_count')) return 'count';
  if (s.includes('count(') && !s.includes('company_contact c where')) return 'count';
  if (/^select r\.id from/.test(s.trim()) || s.includes('select r.id from')) return 'page ids';
  if (s.includes('from field_value v where v.organization_id')) return 'field values';
  if (s.includes('from company r') && s.includes('left join app_user')) return 'rows';
  if (s.includes('field_definition')) return 'field context';
  return 'other';
}

// ---------- measurement ----------

interface Stat {
  p50: number;
  p95: number;
}
interface Result {
  scenario: Scenario;
  total: number;
  /** The answers' total was an estimate (more than 10,000 matches: 'about'). */
  estimate: boolean;
  pagesSample: number[];
  api: Stat;
  sql: Stat;
  apiRuns: Stat[];
  sqlRuns: Stat[];
  breakdown: Record<string, number>;
  rows: number;
  bytes: number;
  explain: { kind: string; plan: string }[];
}

function stat(xs: number[]): Stat {
  return { p50: median(xs), p95: pct(xs, 95) };
}

async function main(): Promise<void> {
  const started = new Date();
  const loadStart = os.loadavg()[0];
  const db = await openBenchDatabase({ reseed: RESEED, log });
  let app: FastifyInstance | null = null;
  let orm: MikroORM | null = null;
  let direct: Awaited<ReturnType<typeof instrumentedOrm>> | null = null;
  try {
    // The real server, in this process, on loopback.
    const config = loadConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      DATABASE_URL: db.url,
      HOST: '127.0.0.1',
      PORT: '0',
      PUBLIC_URL: 'http://127.0.0.1',
      WEB_DIST: '/nonexistent',
    });
    const logger = pino({ level: 'silent' });
    orm = await MikroORM.init(serverOrmConfig(db.url, config)); // the server's own pool settings
    app = await buildApp({ config, orm, boss: null, logger });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    log(`server listening on ${base}`);
    const client = new Client(base);
    await client.login(ORGS[0].admin, BENCH_PASSWORD);

    direct = await instrumentedOrm(db.url);
    const dem = (): EntityManager => direct!.orm.em.fork();
    const conn = direct.orm.em.getConnection();
    const q = async <T>(sql: string, params: unknown[] = []) => (await conn.execute(sql, params)) as T;
    const [{ id: orgId }] = await q<{ id: string }[]>(`select id from organization where name = ?`, [ORGS[0].name]);

    // Machine and server facts.
    const [{ version }] = await q<{ version: string }[]>('select version()');
    const settings = await q<{ name: string; setting: string; unit: string | null }[]>(
      `select name, setting, unit from pg_settings where name in ('shared_buffers', 'work_mem', 'effective_cache_size',
        'max_parallel_workers_per_gather', 'random_page_cost', 'jit', 'huge_pages') order by name`,
    );
    // Whether the company table fits PostgreSQL's own cache: searches that visit most of it run
    // ~2× slower when every page is a copy from the OS cache (docs/benchmarks.md 'Companies table at a million rows').
    const [sizes] = await q<{ table_bytes: string; buffer_bytes: string }[]>(
      `select pg_relation_size('company')::text as table_bytes, (select setting::bigint * 8192 from pg_settings where name =
        'shared_buffers')::text as buffer_bytes`,
    );

    // The data set and the selectivity of the searches.
    const counts = await q<Record<string, number>[]>(
      `
      select (select count(*)::int from company where organization_id = ?) as companies,
             (select count(*)::int from company) as all_companies,
             (select count(*)::int from field_value) as field_values,
             (select count(*)::int from contact) as contacts,
             (select count(*)::int from company_contact) as links`,
      [orgId],
    );
    const [self] = await q<{ id: string }[]>(`select id from app_user where email = ?`, [ORGS[0].admin]);
    OWNER_SELF.items[0].data = [self.id];
    const [range] = await q<{ lo: string; hi: string }[]>(
      `select to_char(d - 110, 'YYYY-MM-DD') as lo, to_char(d - 101, 'YYYY-MM-DD') as hi from (select (max(created_at) at time zone
        'UTC')::date as d from company where organization_id = ?) x`,
      [orgId],
    );
    CREATED_RANGE.items[0].data = [range.lo, range.hi];
    const ctx0 = await loadQueryContext(dem(), orgId, 'company');
    const countOf = async (text: string, filters: Body['filters']) => {
      const w = whereSql(ctx0, { text, filters });
      return (await q<{ n: number }[]>(`select count(*)::int as n from company r ${w.text}`, w.params))[0].n;
    };
    const selectivity = {
      selective: await countOf(SELECTIVE, []),
      selectiveFiltered: await countOf(SELECTIVE, [revenueOver(500)]),
      broad: await countOf(BROAD, []),
      broadFiltered: await countOf(BROAD, [revenueOver(500)]),
      oneLetter: await countOf('a', []),
      revenueOver500: await countOf('', [revenueOver(500)]),
      mine: await countOf('', [OWNER_SELF]),
      createdRange: await countOf('', [CREATED_RANGE]),
      software: await countOf('', [industryIs('Software')]),
    };
    log(`data set: ${JSON.stringify(counts[0])}; selectivity: ${JSON.stringify(selectivity)}`);

    const sqlRequest = async (b: Body) => {
      const em = dem();
      const t0 = performance.now();
      const ctx = await loadQueryContext(em, orgId, 'company');
      const { total, ids } = await pageIds(
        em,
        ctx,
        whereSql(ctx, { text: b.text, filters: b.filters }),
        orderSql(ctx, b.sortKey, b.sortOrder),
        b.pageIndex,
        b.pageSize,
      );
      const rows = await companyRows(em, orgId, ids);
      return { ms: performance.now() - t0, total, rows: rows.length };
    };

    const results: Result[] = [];
    let loadMax = os.loadavg()[0];
    for (const sc of SCENARIOS.filter((x) => !ONLY || ONLY.includes(x.id))) {
      loadMax = Math.max(loadMax, os.loadavg()[0]);
      const first = JSON.parse((await client.post('/api/v1/company/get-companies', { ...sc.base, pageIndex: 0 })).text) as {
        totalRecords: number;
        totalIsEstimate?: boolean;
      };
      const total = first.totalRecords;
      if (typeof total !== 'number') throw new Error(`${sc.id}: no totalRecords in the answer`);
      // Warm-up (API and SQL), on pages of the scenario's kind.
      for (const p of sc.pages(total, 99).slice(0, WARMUP)) {
        await client.post('/api/v1/company/get-companies', { ...sc.base, pageIndex: p });
        await sqlRequest({ ...sc.base, pageIndex: p });
      }
      const apiRuns: Stat[] = [];
      const sqlRuns: Stat[] = [];
      const parts: Record<string, number[]> = {};
      let rows = 0;
      let bytes = 0;
      for (let run = 0; run < RUNS; run++) {
        const pages = sc.pages(total, run);
        const apiMs: number[] = [];
        for (const p of pages) {
          const { ms, text } = await client.post('/api/v1/company/get-companies', { ...sc.base, pageIndex: p });
          const body = JSON.parse(text) as { totalRecords?: number; rows: unknown[] };
          if (body.totalRecords !== total) throw new Error(`${sc.id}: totalRecords ${body.totalRecords} (expected ${total})`);
          if (p < Math.ceil(total / sc.base.pageSize) && body.rows.length === 0) throw new Error(`${sc.id}: page ${p} is empty`);
          rows = body.rows.length;
          bytes = text.length;
          apiMs.push(ms);
        }
        const sqlMs: number[] = [];
        direct.take();
        for (const p of pages) {
          const r = await sqlRequest({ ...sc.base, pageIndex: p });
          if (r.total !== total) throw new Error(`${sc.id}: SQL total ${r.total} (expected ${total})`);
          sqlMs.push(r.ms);
          const byKind: Record<string, number> = {};
          for (const s of direct.take()) byKind[kindOfStmt(s.sql)] = (byKind[kindOfStmt(s.sql)] ?? 0) + s.ms;
          for (const [k, v] of Object.entries(byKind)) (parts[k] ??= []).push(v);
        }
        apiRuns.push(stat(apiMs));
        sqlRuns.push(stat(sqlMs));
      }
      // EXPLAIN (ANALYZE, BUFFERS) of the count and page statements of one representative request.
      const repPage = sc.pages(total, 0)[0];
      direct.take();
      await sqlRequest({ ...sc.base, pageIndex: repPage });
      const explain: Result['explain'] = [];
      // A statement that ran after `set local …` (the walks of estimatedPage) is explained under the same settings.
      let settings: string | null = null;
      for (const s of direct.take()) {
        const kind = kindOfStmt(s.sql);
        if (kind === 'set local') {
          settings = s.sql;
          continue;
        }
        const under = settings;
        settings = null;
        if (!['count', 'sample', 'anchor', 'page ids', 'count + page ids'].includes(kind)) continue;
        const plan = await direct.orm.em.fork().transactional(async (tem) => {
          const c = tem.getConnection();
          const trx = tem.getTransactionContext();
          if (under) await c.execute(under, [], 'run', trx);
          return c.execute<Record<string, string>[]>(`explain (analyze, buffers) ${s.sql}`, s.params, 'all', trx);
        });
        explain.push({
          kind: under ? `${kind} (${under.replace(/set local /g, '').replace(/;\s*/g, ', ')})` : kind,
          plan: plan.map((r) => Object.values(r)[0]).join('\n'),
        });
      }
      const res: Result = {
        scenario: sc,
        total,
        estimate: first.totalIsEstimate === true,
        pagesSample: sc.pages(total, 0).slice(0, 5),
        rows,
        bytes,
        api: { p50: median(apiRuns.map((s) => s.p50)), p95: median(apiRuns.map((s) => s.p95)) },
        sql: { p50: median(sqlRuns.map((s) => s.p50)), p95: median(sqlRuns.map((s) => s.p95)) },
        apiRuns,
        sqlRuns,
        breakdown: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, median(v)])),
        explain,
      };
      results.push(res);
      log(
        `${sc.id}: total ${total}, API p50 ${fmt(res.api.p50)} p95 ${fmt(res.api.p95)} ms; SQL ` +
          (`p50 ${fmt(res.sql.p50)} p95 ${fmt(res.sql.p95)} ms; ` +
            `${JSON.stringify(Object.fromEntries(Object.entries(res.breakdown).map(([k, v]) => [k, Number(fmt(v))])))}`),
      );
    }

    const exp = SKIP_EXPORT ? null : await measureExport(client, dem, orgId, selectivity.software);
    if (exp)
      log(
        `export: ${exp.rows} rows in ${exp.totalMs.toFixed(0)} ms (first byte ${exp.ttfbMs.toFixed(0)} ms), ` +
          `RSS ${mb(exp.rssStart)} → peak ${mb(exp.rssPeak)} MB; direct ${exp.directMs.toFixed(0)} ms`,
      );

    const load = { start: loadStart, end: os.loadavg()[0], max: loadMax };
    const report = renderReport({
      started,
      db,
      version,
      settings,
      sizes: { table: Number(sizes.table_bytes), buffers: Number(sizes.buffer_bytes) },
      counts: counts[0],
      selectivity,
      results,
      exp,
      load,
    });
    if (WRITE) {
      writeReport(report);
      log(`wrote ${path.relative(ROOT, REPORT)}`);
    } else {
      log(`${PARTIAL ? 'partial run' : `BENCH_SCALE=${SCALE}`}: docs/benchmarks.md left as it is (--write to write it anyway)`);
      console.log(report);
    }
  } finally {
    await app?.close();
    await orm?.close();
    await direct?.orm.close();
    await db.stop();
  }
}

// ---------- export ----------

interface ExportResult {
  rows: number;
  bytes: number;
  totalMs: number;
  ttfbMs: number;
  directMs: number;
  directRows: number;
  rssStart: number;
  rssPeak: number;
  rssEnd: number;
  heapStart: number;
  heapPeak: number;
  /** RSS when a quarter, half, three quarters and all of the rows had arrived. */
  rssAt: number[];
  /** JS heap after a full garbage collection at those points (second run). */
  liveAt: number[];
  runs: { totalMs: number; rssPeak: number }[];
}

const gc: (() => void) | null = (() => {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return null;
  }
})();

async function measureExport(client: Client, dem: () => EntityManager, orgId: string, expected: number): Promise<ExportResult> {
  const selection = { allSelected: true as const, text: '', filters: [industryIs('Software')], excludeIds: [] };
  const runs: ExportResult[] = [];
  for (let i = 0; i < 2; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 200));
    const m0 = process.memoryUsage();
    let rssPeak = m0.rss;
    let heapPeak = m0.heapUsed;
    const sample = () => {
      const m = process.memoryUsage();
      rssPeak = Math.max(rssPeak, m.rss);
      heapPeak = Math.max(heapPeak, m.heapUsed);
      return m.rss;
    };
    const timer = setInterval(sample, 25);
    const t0 = performance.now();
    const res = await client.fetchRaw('/api/v1/company/export', { selection });
    if (!res.ok || !res.body) throw new Error(`export: ${res.status} ${await res.text()}`);
    const ttfbMs = performance.now() - t0;
    const reader = res.body.getReader();
    let bytes = 0;
    let lines = 0;
    const marks = [0.25, 0.5, 0.75].map((f) => Math.floor(f * expected));
    const rssAt: number[] = [];
    const liveAt: number[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      for (let k = 0; k < value.length; k++) if (value[k] === 10) lines++;
      while (marks.length && lines - 1 >= marks[0]) {
        marks.shift();
        // The second run collects garbage at the marks: what stays is what the export holds.
        if (i === 1) {
          gc?.();
          liveAt.push(process.memoryUsage().heapUsed);
        }
        rssAt.push(sample());
      }
    }
    const totalMs = performance.now() - t0;
    clearInterval(timer);
    rssAt.push(sample());
    const rssEnd = process.memoryUsage().rss;
    if (i === 1) {
      gc?.();
      liveAt.push(process.memoryUsage().heapUsed);
    }
    runs.push({
      rows: lines - 1,
      bytes,
      totalMs,
      ttfbMs,
      directMs: 0,
      directRows: 0,
      rssStart: m0.rss,
      rssPeak,
      rssEnd,
      heapStart: m0.heapUsed,
      heapPeak,
      rssAt,
      liveAt,
      runs: [],
    });
  }
  if (runs.some((r) => r.rows !== expected)) throw new Error(`export: ${runs.map((r) => r.rows).join(', ')} rows, expected ${expected}`);
  // The same export without HTTP: the server's exportCsv on an EntityManager, consumed in process.
  const em = dem();
  const ctx = await loadQueryContext(em, orgId, 'company');
  const t0 = performance.now();
  let directRows = -1;
  for await (const chunk of await exportCsv(em, ctx, selectionWhere(ctx, selection))) {
    for (const ch of String(chunk)) if (ch === '\n') directRows++;
  }
  const directMs = performance.now() - t0;
  // Memory figures of the first run (no forced collection), the slower time of the two, the live heap of the second.
  return {
    ...runs[0],
    totalMs: Math.max(...runs.map((r) => r.totalMs)),
    liveAt: runs[1].liveAt,
    directMs,
    directRows,
    runs: runs.map((r) => ({ totalMs: r.totalMs, rssPeak: r.rssPeak })),
  };
}

// ---------- report ----------

const BEGIN = '<!-- bench:begin (generated by `npm run bench`; edit outside these markers) -->';
const END = '<!-- bench:end -->';

function writeReport(generated: string): void {
  const block = `${BEGIN}\n${generated.trim()}\n${END}`;
  let out: string;
  if (fs.existsSync(REPORT)) {
    const cur = fs.readFileSync(REPORT, 'utf8');
    const a = cur.indexOf(BEGIN.slice(0, 20));
    const b = cur.indexOf(END);
    out = a >= 0 && b > a ? cur.slice(0, a) + block + cur.slice(b + END.length) : `${cur.trimEnd()}\n\n${block}\n`;
  } else {
    out = `# Benchmarks\n\n${block}\n`;
  }
  fs.writeFileSync(REPORT, out);
}

const MB = 1024 ** 2;
const DOES_NOT_FIT =
  ": the table does not fit, so a search that visits most of it copies its pages from the OS cache ('Running it' gives the " +
  'reference configuration)';

/** The machine's reserved huge pages (Linux), which PostgreSQL's `huge_pages = try` uses for its buffer cache when enough are free. */
function hugePagesNote(): string {
  try {
    const m = fs.readFileSync('/proc/meminfo', 'utf8');
    const v = (k: string) => Number(m.match(new RegExp(`^${k}:\\s+(\\d+)`, 'm'))?.[1] ?? NaN);
    const total = v('HugePages_Total');
    const size = v('Hugepagesize');
    if (!Number.isFinite(total)) return '';
    return (
      `; machine: ${total} huge pages of ${size / 1024} MB reserved, ${v('HugePages_Free')} free at the end of the ` +
      `run${total === 0 ? ' (none: the buffer cache uses 4 kB pages)' : ''}`
    );
  } catch {
    return '';
  }
}

function renderReport(d: {
  started: Date;
  db: Awaited<ReturnType<typeof openBenchDatabase>>;
  version: string;
  settings: { name: string; setting: string; unit: string | null }[];
  sizes: { table: number; buffers: number };
  counts: Record<string, number>;
  selectivity: Record<string, number>;
  results: Result[];
  exp: ExportResult | null;
  load: { start: number; end: number; max: number };
}): string {
  const cpu = os.cpus();
  const ok = (v: number, t: number) => (v <= t ? '✅' : '❌');
  const L: string[] = [];
  L.push(`## Latest run`, '');
  L.push(
    `- Date: ${d.started.toISOString().replace('T', ' ').slice(0, 16)} UTC; \`npm run bench\` (${RUNS} runs ` +
      `× ${REQUESTS} requests per figure after ${WARMUP} warm-up requests; p50/p95 are the medians of the runs' ` +
      `p50/p95).`,
  );
  L.push(
    `- Machine: ${cpu.length} CPU ` +
      `(\`nproc\`), ${hostCpu()}, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB ` +
      `memory, ${os.type()} ${os.release()}; Node ${process.version}.`,
  );
  L.push(
    `- Load: 1-minute load average ${d.load.start.toFixed(1)} at the start, up ` +
      `to ${d.load.max.toFixed(1)} during, ${d.load.end.toFixed(1)} at the end (${cpu.length} CPUs; other work on the ` +
      `machine shares them and the figures move with it).`,
  );
  L.push(
    `- PostgreSQL: ${d.version.split(' on ')[0]} — ${d.db.source}; ` +
      `${d.settings.map((s) => `${s.name}=${s.setting}${s.unit ? ` ${s.unit}` : ''}`).join(', ')}${hugePagesNote()}. ` +
      `The company table is ${(d.sizes.table / MB).toFixed(0)} MB, the buffer ` +
      `cache ${(d.sizes.buffers / MB).toFixed(0)} MB` +
      `${d.sizes.table > d.sizes.buffers ? DOES_NOT_FIT : ''}.`,
  );
  L.push(
    `- Data set${SCALE !== 1 ? ` (BENCH_SCALE=${SCALE}, not the reference size)` : ''}: ` +
      `${ORGS.map((o) => `${o.name} ${o.companies.toLocaleString('en-US')} companies / ${o.contacts.toLocaleString('en-US')} key contacts`).join('; ')}; ` +
      (`${d.counts.field_values.toLocaleString('en-US')} custom field values (Revenue, double, ~90% filled, uniform ` +
        `0–1000; Industry, string, ~99.5% filled, 10 values). `) +
      (`Names are word combinations plus a number ('Summit Holdings LLC 48213'), domains ` +
        `unique. ${d.db.seededNow ? `Seeded in this run (${d.db.seedSeconds?.toFixed(0)} s).` : 'Reused from the cache (seeded by an earlier run).'}`),
  );
  L.push(
    `- Search selectivity in the big organization: '${SELECTIVE}' ` +
      `matches ${d.selectivity.selective.toLocaleString('en-US')} companies ` +
      `(${d.selectivity.selectiveFiltered.toLocaleString('en-US')} with Revenue > 500); ` +
      (`the less selective '${BROAD}' ${d.selectivity.broad.toLocaleString('en-US')} (${d.selectivity.broadFiltered.toLocaleString('en-US')} with ` +
        `Revenue > 500); 'a' ${d.selectivity.oneLetter.toLocaleString('en-US')}. Revenue > 500 ` +
        `alone: ${d.selectivity.revenueOver500.toLocaleString('en-US')}; owned by the signed-in ` +
        `admin: ${d.selectivity.mine.toLocaleString('en-US')}; created in the ten days of the Created ` +
        `filter: ${d.selectivity.createdRange.toLocaleString('en-US')}.`),
  );
  L.push(
    `- Server: \`buildApp\` in the bench process on 127.0.0.1, signed in as the big organization's admin (cookie + ` +
      `CSRF), requests through \`fetch\` (keep-alive), one at a time. ` +
      (`"SQL" runs the statements the handler issues (\`loadQueryContext\`, \`pageIds\`, \`companyRows\`) on a ` +
        `MikroORM EntityManager of the same database, without HTTP, auth, validation or serialization.`),
  );
  L.push('');
  L.push('### get-companies (ms)', '');
  L.push('| Scenario | Rows in set | Target (API p95) | API p50 | API p95 | SQL p50 | SQL p95 | API/SQL (p50) | Met |');
  L.push('|---|---:|---:|---:|---:|---:|---:|---:|:-:|');
  for (const r of d.results) {
    L.push(
      `| ${r.scenario.label} | ${r.estimate ? 'about ' : ''}${r.total.toLocaleString('en-US')} | ` +
        (`≤ ${r.scenario.target} | ${fmt(r.api.p50)} | ${fmt(r.api.p95)} | ${fmt(r.sql.p50)} | ${fmt(r.sql.p95)} | ` +
          `${(r.api.p50 / r.sql.p50).toFixed(2)} | ${ok(r.api.p95, r.scenario.target)} |`),
    );
  }
  L.push('', 'Where the SQL time goes (median per request, ms; the count and the page ids of a first page run in parallel):', '');
  const kinds = ['field context', 'count', 'sample', 'anchor', 'page ids', 'count + page ids', 'rows', 'field values', 'other'];
  L.push(`| Scenario | ${kinds.join(' | ')} | answer size |`);
  L.push(`|---|${kinds.map(() => '---:').join('|')}|---:|`);
  for (const r of d.results)
    L.push(
      `| ${r.scenario.id} | ` +
        `${kinds.map((k) => (r.breakdown[k] !== undefined ? fmt(r.breakdown[k]) : '–')).join(' | ')} | ${r.rows} rows, ` +
        `${(r.bytes / 1024).toFixed(0)} KiB ` +
        `|`,
    );
  L.push('', 'Per-run figures (p50/p95, ms):', '');
  for (const r of d.results) {
    L.push(
      `- ${r.scenario.id}: API ${r.apiRuns.map((s) => `${fmt(s.p50)}/${fmt(s.p95)}`).join(', ')}; ` +
        `SQL ${r.sqlRuns.map((s) => `${fmt(s.p50)}/${fmt(s.p95)}`).join(', ')}` +
        `${r.pagesSample.some((p) => p > 0) ? `; first pages asked: ${r.pagesSample.join(', ')}` : ''}`,
    );
  }
  const e = d.exp;
  if (e) {
    L.push('', '### Export to CSV', '');
    L.push(
      `Selection: all companies with Industry = 'Software' (\`allSelected\` with a filter) ` +
        `— ${e.rows.toLocaleString('en-US')} rows, ${(e.bytes / 1024 / 1024).toFixed(1)} MiB of CSV, read as a stream ` +
        `and discarded by the client. Process RSS (server and client share it) sampled every 25 ms.`,
      '',
    );
    L.push('| Figure | Value | Target |', '|---|---:|---|');
    L.push(
      `| Total time (slower ` +
        `of ${e.runs.length} runs: ${e.runs.map((r) => `${(r.totalMs / 1000).toFixed(1)} s`).join(', ')}) ` +
        `| ${(e.totalMs / 1000).toFixed(2)} s | ≤ 10 s ${ok(e.totalMs, 10_000)} |`,
    );
    L.push(`| First byte | ${e.ttfbMs.toFixed(0)} ms | |`);
    L.push(
      `| Same export without HTTP (\`exportCsv\` consumed in process) | ${(e.directMs / 1000).toFixed(2)} s ` +
        `(API/direct ${(e.totalMs / e.directMs).toFixed(2)}) | |`,
    );
    L.push(
      `| RSS at start → peak → end, first run | ${mb(e.rssStart)} → ${mb(e.rssPeak)} → ${mb(e.rssEnd)} MB (peak +${mb(e.rssPeak - e.rssStart)} MB) | flat |`,
    );
    L.push(`| RSS at 25/50/75/100% of the rows, first run | ${e.rssAt.map(mb).join(' / ')} MB | flat |`);
    L.push(`| JS heap used at start → peak (garbage included) | ${mb(e.heapStart)} → ${mb(e.heapPeak)} MB | |`);
    L.push(`| Live JS heap (after a full GC) at 25/50/75/100% of the rows, second run | ${e.liveAt.map(mb).join(' / ')} MB | flat |`);
  }
  if (flag('--plans')) {
    L.push('', '### Plans (EXPLAIN (ANALYZE, BUFFERS) of the count and page statements of one request per scenario)', '');
    for (const r of d.results) {
      L.push(`<details><summary>${r.scenario.id}</summary>`, '');
      for (const x of r.explain) {
        L.push(`${x.kind}:`, '', '```', x.plan.split('\n').slice(0, 40).join('\n'), '```', '');
      }
      L.push('</details>', '');
    }
  }
  return L.join('\n');
}

// Realtime and jobs: tests/bench/services.ts, no million-row seed; `--only realtime,jobs` runs only them.
// Enrichments: tests/bench/enrichments.ts, no million-row seed; `--only enrichments` runs only them.
// Crash recovery: tests/bench/crash.ts; `--only crash` runs only it.
// Plays: tests/bench/plays.ts; `--only plays` runs only it. Scoring: tests/bench/scoring.ts; `--only scoring`.
const ONLY_REST = ONLY && ONLY.filter((id) => id !== 'enrichments' && id !== 'crash' && id !== 'plays' && id !== 'scoring');
if (ONLY_REST === null || ONLY_REST.length > 0) {
  if (wantsTables(ONLY_REST)) await main();
  if (wantsServices(ONLY_REST)) await runServiceBenches({ only: ONLY_REST, argv, log });
}
if (!ONLY || ONLY.includes('enrichments')) await runEnrichmentBench({ argv, log });
if (!ONLY || ONLY.includes('crash')) await runCrashBench({ argv, log });
if (!ONLY || ONLY.includes('plays')) await runPlaysBench({ argv: ONLY ? argv : [...argv, '--write'], log });
if (!ONLY || ONLY.includes('scoring')) await runScoringBench({ argv, log });
clearTimeout(limit);
