// A CSV upload's progress line: the upload is an execution of type 'list' (typeId = the source) that
// counts the rows read, published as 'execution.updated' events on the executions path and read
// through POST /execution/progress — rows imported, no total until the end, and no Cancel (an
// upload is added whole or not at all: cancelling it is a 409). A refused upload leaves no line; a
// stopped one (the import sweep) reads failed; another organization sees nothing.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { ExecutionDto, RunProgressDto } from '@dealscout/shared/contracts';
import { EXECUTION_MESSAGES } from '@dealscout/shared/domain';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { CSV_MESSAGES } from './csv-import';
import { createSource } from './lists.service';
import { startImportProgress } from './import-progress';
import { sweepStoppedImports } from './import-sweep.job';

/** A multipart body with the form fields first, then the file (as csv-import.test.ts builds it). */
function multipartBody(
  fields: Record<string, string>,
  file: { name: string; content: string },
): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----ds${randomUUID().replace(/-/g, '')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n`),
  );
  parts.push(Buffer.from(file.content), Buffer.from('\r\n'), Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('the progress of a CSV upload', () => {
  let ctx: TestContext;
  let a: TestClient;
  let b: TestClient;
  let orgA: string;
  let userA: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    const oa = await createOrg(ctx, { name: 'Upload Progress A' });
    const ob = await createOrg(ctx, { name: 'Upload Progress B' });
    orgA = oa.organization.id;
    userA = oa.admin.id;
    a = await signedIn(ctx, oa.admin.email, '10.43.0.1');
    b = await signedIn(ctx, ob.admin.email, '10.43.0.2');
  });
  afterAll(async () => {
    await ctx.close();
  });

  const newList = async () =>
    (await a.post('/api/v1/list-company', { name: `Upload ${randomUUID().slice(0, 6)}` })).json().list as { id: string };
  const upload = (listId: string, content: string, mapping: Record<string, unknown> = { name: 'Company', website: 'Website' }) => {
    const { body, headers } = multipartBody(
      { listCompanyId: listId, intentionSourceId: 'csv', source: JSON.stringify({ mapping }) },
      { name: 'ideas.csv', content },
    );
    return a.request('POST', '/api/v1/list-company/source', body, headers);
  };
  const progress = async (c: TestClient, ids?: string[]): Promise<RunProgressDto[]> => {
    const res = await c.post('/api/v1/execution/progress', ids ? { ids } : {});
    expect(res.statusCode, res.body).toBe(200);
    return res.json().runs;
  };
  const events = (key: string) =>
    ctx
      .em()
      .execute<{ path: string; data: ExecutionDto }[]>(
        `select path, data from realtime_event where organization_id = ? and kind = 'execution.updated' and key = ? order by seq`,
        [orgA, key],
      );

  it('an upload is a line of its own: rows imported (its total once known), realtime events, no Cancel; another organization sees nothing', async () => {
    const list = await newList();
    const rows = Array.from({ length: 120 }, (_, i) => `Carrier ${i + 1},carrier${i + 1}.example.com`);
    const res = await upload(list.id, ['Company,Website', ...rows, 'No site,'].join('\n'));
    expect(res.statusCode, res.body).toBe(201);
    const sourceId = res.json().sourceId as string;

    // The user's recent runs list it: the upload of this source, done, its rows all read.
    const line = (await progress(a)).find((r) => r.type === 'list' && r.typeId === sourceId);
    expect(line).toMatchObject({ kind: 'execution', entityType: 'list', status: 'completed', done: 121, total: 121, cancellable: false });
    expect(line!.finishedAt).not.toBeNull();
    expect(await progress(a, [line!.id])).toEqual([line]);

    // Its events went out on the executions path of lists, from processing to completed.
    const feed = await events(`execution:${line!.id}`);
    expect(feed.length).toBeGreaterThanOrEqual(2);
    expect(feed[0]!.path).toBe(`org/${orgA}/executions/list/list`);
    expect(feed[0]!.data).toMatchObject({ status: 'processing', cancellable: false, typeId: sourceId, entityId: list.id });
    expect(feed.at(-1)!.data).toMatchObject({ status: 'completed', progress: { processed: 121, total: 121 } });

    // Cancel is not offered, and the route refuses it once finished or not.
    const cancel = await a.post('/api/v1/execution/cancel', { executionId: line!.id });
    expect([cancel.statusCode, cancel.json().message]).toEqual([409, EXECUTION_MESSAGES.alreadyFinished]);

    // Another organization: nothing.
    expect(await progress(b, [line!.id])).toEqual([]);
    expect((await progress(b)).map((r) => r.id)).not.toContain(line!.id);
  });

  it('a running upload cannot be cancelled (409), and a refused upload leaves no line', async () => {
    const list = await newList();
    const sourceId = randomUUID();
    await createSource(ctx.em(), { organizationId: orgA, userId: userA }, list.id, 'csv', { fileName: 'x.csv' }, 'inProgress', sourceId);
    const running = await startImportProgress(ctx.em(), { organizationId: orgA, userId: userA, listId: list.id, sourceId });
    running.rows(40);
    await expect.poll(async () => (await progress(a, [running.executionId]))[0]?.done, { timeout: 5_000 }).toBe(40);
    expect((await progress(a, [running.executionId]))[0]).toMatchObject({ status: 'running', total: null, cancellable: false });
    const cancel = await a.post('/api/v1/execution/cancel', { executionId: running.executionId });
    expect([cancel.statusCode, cancel.json().message]).toEqual([409, EXECUTION_MESSAGES.notCancellable]);

    // The process running it died: the sweep fails the source and its line.
    const swept = await sweepStoppedImports(ctx.em().fork());
    expect(swept.map((s) => s.sourceId)).toContain(sourceId);
    expect((await progress(a, [running.executionId]))[0]).toMatchObject({ status: 'error' });
    const [row] = await ctx
      .em()
      .execute<{ status_message: string }[]>(`select status_message from execution where id = ?`, [running.executionId]);
    expect(row!.status_message).toBe(CSV_MESSAGES.serverStopped);

    // A refused upload (the mapping names a column the file lacks) changes nothing: no line.
    const before = (await progress(a)).length;
    const bad = await upload(list.id, 'Company,Website\nAcme,acme.example.com\n', { name: 'Name', website: 'Website' });
    expect(bad.statusCode).toBe(400);
    expect((await progress(a)).length).toBe(before);
  });
});
