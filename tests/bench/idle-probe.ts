// The first table page after the user paused, against pages in a row: what a connection the pool
// had to open again costs a request (docs/benchmarks.md 'After a pause').
//
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx tests/bench/idle-probe.ts
//   DB_POOL_IDLE_SECONDS=10 … (node-postgres's own 10 s, for the comparison)
//
// Uses the bench data set (`npm run bench` seeds it) and the server as `openDatabase` configures it.
import { MikroORM } from '@mikro-orm/postgresql';
import pino from 'pino';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../server/src/config';
import { serverOrmConfig } from '../../server/src/database';
import { buildApp } from '../../server/src/app';
import { ORGS, BENCH_PASSWORD } from './seed';
import { Client } from './client';

const admin = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
if (!admin) throw new Error('BENCH_DATABASE_URL: the server holding the bench database');
const u = new URL(admin);
u.pathname = '/dealscout_bench';
const url = u.toString();
const PAUSE_MS = Number(process.env.PROBE_PAUSE_MS ?? 12_000);
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 5);

const config = loadConfig({
  ...process.env,
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  DATABASE_URL: url,
  HOST: '127.0.0.1',
  PORT: '0',
  PUBLIC_URL: 'http://127.0.0.1',
  WEB_DIST: '/nonexistent',
});
const orm = await MikroORM.init(serverOrmConfig(url, config));
const app = await buildApp({ config, orm, boss: null, logger: pino({ level: 'silent' }) });
await app.listen({ host: '127.0.0.1', port: 0 });
try {
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const client = new Client(base);
  await client.login(ORGS[0].admin, BENCH_PASSWORD);
  // The companies table's first figure: page 0 by name, 'summit' + Revenue > 500.
  const body = {
    pageIndex: 0,
    pageSize: 50,
    sortKey: 'name',
    sortOrder: 'asc',
    text: 'summit',
    filters: [{ key: 'revenue', operator: 'and', items: [{ id: 'c1', condition: 'greater_than', data: 500 }] }],
  };
  const page = async () => (await client.post('/api/v1/company/get-companies', body)).ms;
  for (let i = 0; i < 10; i++) await page();
  const afterPause: number[] = [];
  const inARow: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    await new Promise((res) => setTimeout(res, PAUSE_MS));
    afterPause.push(await page());
    for (let i = 0; i < 5; i++) inARow.push(await page());
  }
  const ms = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
  console.log(`DB_POOL_IDLE_SECONDS=${config.DB_POOL_IDLE_SECONDS}; first page after a ${PAUSE_MS / 1000} s pause (ms): ${ms(afterPause)}`);
  console.log(`the five pages after each of those (ms): ${ms(inARow)}`);
} finally {
  await app.close();
  await orm.close();
}
