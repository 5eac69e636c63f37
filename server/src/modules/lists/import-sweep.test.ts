// The import sweep (import-sweep.job.ts): a CSV source left 'inProgress' whose lease nobody holds (the
// process running it died) is marked failed with its reason, published to the list's watchers, and
// can be removed; an import whose connection still holds its lease (another live process) is left
// alone until that connection is gone; other sources are never touched.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { tenantCopyClient } from '../../db/sql';
import { CSV_MESSAGES, importLeaseKey } from './csv-import';
import { sweepStoppedImports } from './import-sweep.job';

describe('the import sweep', () => {
  let ctx: TestContext;
  let c: TestClient;
  let org: string;
  let user: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    const o = await createOrg(ctx, { name: 'Sweep Co' });
    org = o.organization.id;
    user = o.admin.id;
    c = await signedIn(ctx, o.admin.email);
  });
  afterAll(async () => ctx.close());

  const source = async (listId: string, type: string, status: string) => {
    const id = randomUUID();
    await ctx.em().execute(
      `insert into list_source (id, organization_id, list_id, type, status, parameters, created_by_id, created_at, updated_at)
                            values (?, ?, ?, ?, ?, '{}'::jsonb, ?, now(), now())`,
      [id, org, listId, type, status, user],
    );
    return id;
  };
  type Source = { id: string; status: string; statusSeverity: string | null; statusReason: string | null };
  const sources = async (listId: string) =>
    ((await c.get(`/api/v1/list-company/${listId}`)).json().list.sources as Source[]).map((s) => ({
      id: s.id,
      status: s.status,
      statusSeverity: s.statusSeverity,
      statusReason: s.statusReason,
    }));

  it('fails an import nobody runs, leaves a running one (its lease held) until its connection is gone, and never touches other sources', async () => {
    const list = (await c.post('/api/v1/list-company', { name: 'Swept' })).json().list as { id: string };
    const stopped = await source(list.id, 'csv', 'inProgress');
    const running = await source(list.id, 'csv', 'inProgress');
    const provider = await source(list.id, 'ocean', 'inProgress');
    const done = await source(list.id, 'csv', 'completed');
    // The running import's connection holds its lease, as csv-import.ts takes it.
    const importer = await tenantCopyClient(ctx.dbUrl, org, 'sweep-test');
    expect(await importer.lease(importLeaseKey(running))).toBe(true);
    // A second connection cannot take the same lease.
    const other = await tenantCopyClient(ctx.dbUrl, org, 'sweep-test');
    expect(await other.lease(importLeaseKey(running))).toBe(false);
    await other.end();
    const seqBefore = (
      await ctx.em().execute<{ n: number }[]>(`select count(*)::int as n from realtime_event where organization_id = ?`, [org])
    )[0].n;

    expect(await sweepStoppedImports(ctx.em())).toEqual([{ organizationId: org, listId: list.id, sourceId: stopped }]);
    const failed = { status: 'failed', statusSeverity: 'error', statusReason: CSV_MESSAGES.serverStopped };
    const after = await sources(list.id);
    expect(after.find((s) => s.id === stopped)).toMatchObject(failed);
    expect(after.find((s) => s.id === running)).toMatchObject({ status: 'inProgress', statusReason: null });
    expect(after.find((s) => s.id === provider)).toMatchObject({ status: 'inProgress' });
    expect(after.find((s) => s.id === done)).toMatchObject({ status: 'completed' });
    // The list's watchers hear of it.
    const events = await ctx
      .em()
      .execute<{ path: string; data: { id: string; what: string } }[]>(
        `select path, data from realtime_event where organization_id = ? order by seq offset ?`,
        [org, seqBefore],
      );
    expect(events).toEqual([{ path: `org/${org}/lists/${list.id}`, data: { id: list.id, what: 'sources' } }]);

    // A second sweep changes nothing; once the running import's connection is gone, it is failed too.
    expect(await sweepStoppedImports(ctx.em())).toEqual([]);
    await importer.end();
    expect(await sweepStoppedImports(ctx.em())).toEqual([{ organizationId: org, listId: list.id, sourceId: running }]);
    expect((await sources(list.id)).find((s) => s.id === running)).toMatchObject(failed);

    // The user removes a failed source.
    expect((await c.del(`/api/v1/list-company/source/${stopped}`)).statusCode).toBe(200);
    expect((await sources(list.id)).map((s) => s.id).sort()).toEqual([running, provider, done].sort());
  });
});
