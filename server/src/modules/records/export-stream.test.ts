// The export streams from one cursor in a transaction that lives as long as the stream
// (export.ts): more concurrent exports than pooled connections all finish (an export never holds
// its connection while waiting for another), and a stream abandoned half way ends its transaction.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { loadQueryContext } from './table-query';
import { selectionWhere } from './records.service';
import { exportCsv } from './export';

const ROWS = 2_600; // more than one batch of 2,000

describe('export stream', () => {
  let ctx: TestContext;
  let db: pg.Client;
  let c: TestClient;
  let org: string;

  beforeAll(async () => {
    ctx = await createTestApp(); // its pool has 5 connections
    const o = await createOrg(ctx, { name: 'Streamer' });
    org = o.organization.id;
    c = await signedIn(ctx, o.admin.email, '10.63.0.1');
    db = new pg.Client({ connectionString: ctx.dbUrl });
    await db.connect();
    await db.query(
      `insert into company (id, organization_id, name, website, domain, created_at, updated_at)
       select gen_random_uuid(), $1, 'Streamed ' || i, 'streamed' || i || '.com', 'streamed' || i || '.com', now(), now() from generate_series(1, $2::int) i`,
      [org, ROWS],
    );
  });
  afterAll(async () => {
    await db.end();
    await ctx.close();
  });

  const openTransactions = async () =>
    Number(
      (
        await db.query(
          `select count(*) as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%' and pid <> pg_backend_pid()`,
        )
      ).rows[0].n,
    );

  it('more concurrent exports than pooled connections all finish, complete', async () => {
    const results = await Promise.all(
      Array.from({ length: 7 }, () => c.post('/api/v1/company/export', { selection: { allSelected: true } })),
    );
    for (const res of results) {
      expect(res.statusCode).toBe(200);
      expect(res.body.split('\r\n').filter(Boolean)).toHaveLength(ROWS + 1);
    }
    expect(await openTransactions()).toBe(0);
  });

  it('a stream abandoned after its first batch ends its transaction', async () => {
    const em = ctx.em();
    const qctx = await loadQueryContext(em, org, 'company');
    const stream = await exportCsv(em, qctx, selectionWhere(qctx, { allSelected: true }));
    const it = stream[Symbol.asyncIterator]();
    await it.next(); // header
    const first = await it.next(); // first batch: the cursor's transaction is open
    expect(String(first.value).split('\r\n').filter(Boolean).length).toBe(2_000);
    stream.destroy();
    await new Promise((r) => stream.once('close', r));
    for (let i = 0; i < 50 && (await openTransactions()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await openTransactions()).toBe(0);
    // The pool still answers.
    const page = await c.post('/api/v1/company/get-companies', { pageSize: 10 });
    expect(page.json().totalRecords).toBe(ROWS);
  });

  it('a selection the database refuses fails before anything is streamed (an error answer, not a 200 with a cut file)', async () => {
    const em = ctx.em();
    const qctx = await loadQueryContext(em, org, 'company');
    const where = selectionWhere(qctx, { allSelected: true });
    // A query that fails in the database (a value that is not an integer), as a refused search would.
    await expect(
      exportCsv(em, qctx, { ...where, text: `${where.text} and r.name = ?::int`, params: [...where.params, 'not-a-number'] }),
    ).rejects.toThrow();
    for (let i = 0; i < 50 && (await openTransactions()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await openTransactions()).toBe(0);
  });

  it('a stream destroyed before it was read ends its transaction', async () => {
    const em = ctx.em();
    const qctx = await loadQueryContext(em, org, 'company');
    const stream = await exportCsv(em, qctx, selectionWhere(qctx, { allSelected: true }));
    stream.destroy();
    for (let i = 0; i < 50 && (await openTransactions()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await openTransactions()).toBe(0);
  });
});
