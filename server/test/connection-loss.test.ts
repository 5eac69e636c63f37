// Database connections terminated in the middle of each long operation, the way an operator (or a
// failover) does it: `pg_terminate_backend` of every connection to the database. The server runs as
// a real process (server/src/main.ts): an unhandled 'error' event of a database client ends a
// process, which vitest would otherwise report only as a failed test. For each operation: the
// process is still up afterwards and serves new requests on fresh connections, the operation ended
// failed with a reason the user sees (or resumed and finished), and nothing was written twice.
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import pg from 'pg';
import { createTestApp, createOrg, type TestContext } from './helpers';
import { eventually } from './execution-harness';
import { startServerProcess, streamUpload, importCopyRunning, BearerClient, type ServerProcess } from './server-process';

describe('database connections terminated in the middle of long operations (a real server process)', () => {
  let ctx: TestContext;
  let server: ServerProcess;
  let admin: pg.Client;
  let dbName: string;
  const env: Record<string, string> = {};

  beforeAll(async () => {
    ctx = await createTestApp({ boss: true, env });
    dbName = new URL(ctx.dbUrl).pathname.slice(1);
    admin = new pg.Client({ connectionString: ctx.dbUrl, application_name: 'test-admin' });
    admin.on('error', () => {});
    await admin.connect();
    server = await startServerProcess(ctx.dbUrl, env);
  }, 120_000);
  afterEach(() => {
    expect(server.alive(), `the server process died:\n${server.output().slice(-4000)}`).toBe(true);
  });
  afterAll(async () => {
    await server?.kill();
    await admin?.end().catch(() => {});
    await ctx?.close();
  });

  /** Every connection to the test database but the admin's own, as the finder did. */
  const terminateAll = async () => (await admin.query<{ n: number }>(
    `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [dbName])).rows[0].n;
  const query = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await admin.query<T>(sql, params)).rows;

  /** The process answers /health again (on new connections) and serves a signed-in request. */
  async function expectServing(c: BearerClient) {
    await eventually(async () => ((await fetch(`${server.url}/health`)).ok ? true : undefined), 'the server to answer /health', 30_000);
    expect((await c.get('/api/v1/user')).status).toBe(200);
  }

  it('a CSV upload: the source fails with its reason, nothing is written, the process serves on; the same file again imports once', async () => {
    const { admin: user } = await createOrg(ctx, { name: 'Upload Co' });
    const c = await BearerClient.signIn(server.url, user.email);
    const list = (await c.post('/api/v1/list-company', { name: 'Imports' })).json().list as { id: string };
    const ROWS = 60_000;
    const res = await streamUpload(server.url, c.token, list.id, ROWS, 20_000, async () => {
      // The import's COPY is running (it waits for the rest of the file): terminate every connection.
      await importCopyRunning(admin);
      expect(await terminateAll()).toBeGreaterThan(0);
    });
    if (process.env.DS_DEBUG) console.log('first upload answered', res.status, JSON.stringify(res.body));
    expect(server.alive(), server.output().slice(-4000)).toBe(true);
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body.message).toBe('The import was interrupted (the database connection was lost); please upload the file again.');
    const failed = (await c.get(`/api/v1/list-company/${list.id}`)).json().list as { totalIdeas: number; sources: { id: string; status: string }[] };
    expect(failed.totalIdeas).toBe(0);
    expect(failed.sources).toEqual([expect.objectContaining({ status: 'failed', statusSeverity: 'error', statusReason: res.body.message, total: 0 })]);
    expect(await query(`select count(*)::int as n from idea where list_id = $1`, [list.id])).toEqual([{ n: 0 }]);
    await expectServing(c);

    // Retry: the same file imports once; the failed source can be removed.
    const again = await streamUpload(server.url, c.token, list.id, ROWS, 0, async () => {});
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body).toMatchObject({ rows: ROWS, inserted: ROWS, merged: 0, rejected: 0 });
    expect((await c.del(`/api/v1/list-company/source/${failed.sources[0].id}`)).status).toBe(200);
    expect(await query(`select count(*)::int as n, count(distinct domain)::int as d from idea where list_id = $1`, [list.id])).toEqual([{ n: ROWS, d: ROWS }]);
    const after = (await c.get(`/api/v1/list-company/${list.id}`)).json().list as { totalIdeas: number; sources: { status: string; total: number }[] };
    expect(after).toMatchObject({ totalIdeas: ROWS, sources: [{ status: 'completed', total: ROWS }] });
  }, 180_000);
});
