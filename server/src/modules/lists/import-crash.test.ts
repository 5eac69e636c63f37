// A CSV import stopped by a crash (kill -9 of the API process in the middle of its COPY), with real
// server processes on one database: another live process starting meanwhile leaves the running
// import alone (its connection holds the lease); the restarted process marks the stopped import
// failed with its reason; the user uploads the file again (imported once) and removes the failed source.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { createTestApp, createOrg, type TestContext } from '../../../test/helpers';
import { eventually } from '../../../test/execution-harness';
import { startServerProcess, streamUpload, importCopyRunning, BearerClient, type ServerProcess } from '../../../test/server-process';
import { CSV_MESSAGES } from './csv-import';

describe('a CSV import stopped by a crash', () => {
  let ctx: TestContext;
  let admin: pg.Client;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    ctx = await createTestApp();
    admin = new pg.Client({ connectionString: ctx.dbUrl });
    await admin.connect();
  });
  afterAll(async () => {
    for (const s of servers) await s.kill();
    await admin?.end();
    await ctx?.close();
  });

  const start = async () => {
    const s = await startServerProcess(ctx.dbUrl, {}, 'api');
    servers.push(s);
    return s;
  };
  const sourceRow = async (listId: string) =>
    (
      await admin.query<{ id: string; status: string; status_severity: string | null; status_reason: string | null }>(
        `select id::text, status, status_severity, status_reason from list_source where list_id = $1`,
        [listId],
      )
    ).rows;

  it('is left alone by another live process, marked failed when its process restarts, and can be uploaded again and removed', async () => {
    const { admin: user } = await createOrg(ctx, { name: 'Crash Import Co' });
    const first = await start();
    const c = await BearerClient.signIn(first.url, user.email);
    const list = (await c.post('/api/v1/list-company', { name: 'Crashed' })).json().list as { id: string };
    const ROWS = 30_000;
    let other: ServerProcess | null = null;
    const seen: string[] = [];
    const upload = streamUpload(first.url, c.token, list.id, ROWS, 10_000, async () => {
      try {
        await importCopyRunning(admin);
        seen.push((await sourceRow(list.id))[0]?.status);
        // Another process starts (its start-up sweep runs) while the import runs: the import is not its to fail.
        other = await start();
        seen.push((await sourceRow(list.id))[0]?.status);
      } finally {
        await first.kill();
      }
    }).then(
      () => null,
      (e: Error) => e,
    );
    const err = await upload;
    expect(seen).toEqual(['inProgress', 'inProgress']);
    expect(err?.message).toMatch(/ECONNRESET|socket hang up|EPIPE|ECONNREFUSED/); // the process answering it died

    // The crashed process starts again: the import it was running is failed, with the reason the list shows.
    const restarted = await start();
    const failed = { status: 'failed', status_severity: 'error', status_reason: CSV_MESSAGES.serverStopped };
    await eventually(
      async () => ((await sourceRow(list.id))[0]?.status === 'failed' ? true : undefined),
      'the stopped import to be failed',
      30_000,
    );
    const [row] = await sourceRow(list.id);
    expect(row).toMatchObject(failed);
    const r = c.on(restarted.url);
    expect((await r.get(`/api/v1/list-company/${list.id}`)).json().list).toMatchObject({
      totalIdeas: 0,
      sources: [{ id: row.id, status: 'failed', statusReason: CSV_MESSAGES.serverStopped }],
    });

    // Upload again: every row once; the failed source is removed.
    const again = await streamUpload(restarted.url, c.token, list.id, ROWS, 0, async () => {});
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body).toMatchObject({ rows: ROWS, inserted: ROWS });
    expect((await r.del(`/api/v1/list-company/source/${row.id}`)).status).toBe(200);
    const {
      rows: [ideas],
    } = await admin.query<{ n: number; d: number }>(
      `select count(*)::int as n, count(distinct domain)::int as d from idea where list_id = $1`,
      [list.id],
    );
    expect(ideas).toEqual({ n: ROWS, d: ROWS });
    expect((await r.get(`/api/v1/list-company/${list.id}`)).json().list).toMatchObject({
      totalIdeas: ROWS,
      sources: [{ status: 'completed', total: ROWS }],
    });
    expect(other!.alive()).toBe(true);
  }, 300_000);
});
