// Runs (executions/runs.ts): an enrichment over many ideas is one run, whose progress (done /
// failed of total, started at) is read through POST /execution/progress and pushed as 'run.progress'
// events; its rows run in the ideas table's order; POST /execution/run/cancel stops the rows still
// waiting — no model call is made (nothing charged) for them after it — and the run reads cancelled.
// The model is the loopback fake OpenAI server behind the real adapter.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { IdeaDto, RunProgressDto } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { startTestWorker, eventually, type TestWorker } from '../../../test/execution-harness';
import { FakeOpenAiServer, lastUserText } from '../../../test/fakes/openai-server';
import { createQueues } from '../../jobs/definitions';
import { executionJobDefinitions } from './runner';
import { createEnrichmentHandler } from '../enrichments/handler';
import { configFor } from '../enrichments/configs';
import { createSource, insertIdeas, lockList } from '../lists/lists.service';
import { newCompany } from '../../../test/records';

const IDEA_LLM = configFor('idea', 'llm')!.id;
const schema = [{ name: 'answer', type: 'string', description: "Your answer to the user's request.", required: true }];
// One row at a time: the order in which the model sees the ideas is the order the run takes them.
const env = {
  EXECUTION_RETRY_DELAY_SECONDS: '0',
  EXECUTION_RETRY_LIMIT: '1',
  LLM_MAX_ATTEMPTS: '1',
  JOB_POLL_SECONDS: '0.5',
  EXECUTION_WORKER_CONCURRENCY: '1',
  EXECUTION_BATCH_SIZE: '1',
};

interface Org {
  c: TestClient;
  orgId: string;
  userId: string;
}

describe('runs: progress and cancel', () => {
  let ctx: TestContext;
  let fake: FakeOpenAiServer;
  let worker: TestWorker | null = null;
  let a: Org;
  let rival: Org;

  const seedList = async (o: Org, names: string[]): Promise<{ listId: string; ids: Map<string, string> }> => {
    const res = await o.c.post('/api/v1/list-company', { name: `Run list ${randomUUID().slice(0, 6)}` });
    expect(res.statusCode, res.body).toBe(201);
    const listId = res.json().list.id as string;
    await ctx.em().transactional(async (tem) => {
      await lockList(tem, o.orgId, listId);
      const sourceId = await createSource(
        tem,
        { organizationId: o.orgId, userId: o.userId },
        listId,
        'csv',
        { fileName: 'seed.csv' },
        'completed',
      );
      await insertIdeas(
        tem,
        o.orgId,
        listId,
        sourceId,
        names.map((n) => ({
          name: n,
          website: `https://${n.toLowerCase()}.example.com`,
          domain: `${n.toLowerCase()}.example.com`,
          data: {},
        })),
      );
    });
    const page = (await o.c.post('/api/v1/list-company/idea/list', { listCompanyId: listId, pageSize: 100 })).json();
    return { listId, ids: new Map((page.listCompanyIdeas as IdeaDto[]).map((i) => [i.name, i.id])) };
  };
  const ideaEnrichment = async (o: Org, listId: string): Promise<string> => {
    const res = await o.c.post('/api/v1/enrichment', {
      configId: IDEA_LLM,
      entityType: 'idea',
      listId,
      name: `Idea ${randomUUID().slice(0, 6)}`,
      prompt: 'What does it sell?',
      schema,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id;
  };
  const progress = async (c: TestClient, ids?: string[]): Promise<RunProgressDto[]> => {
    const res = await c.post('/api/v1/execution/progress', ids ? { ids } : {});
    expect(res.statusCode, res.body).toBe(200);
    return res.json().runs;
  };
  /** Which idea each model call was about (the idea's name is in the prompt). */
  const seen = (names: string[]) =>
    fake.chatRequests.map(
      (r) => names.find((n) => lastUserText(r).includes(`Name: ${n}`)) ?? names.find((n) => lastUserText(r).includes(n)) ?? '?',
    );

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-test'] });
    ctx = await createTestApp({
      boss: true,
      env: { ...env, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.url, OPENAI_MODELS: 'gpt-test' },
    });
    await createQueues(ctx.boss!, executionJobDefinitions([]), ctx.config);
    const o = await createOrg(ctx, { name: 'Run Progress Co' });
    a = { c: await signedIn(ctx, o.admin.email), orgId: o.organization.id, userId: o.admin.id };
    const o2 = await createOrg(ctx, { name: 'Run Rival Co' });
    rival = { c: await signedIn(ctx, o2.admin.email), orgId: o2.organization.id, userId: o2.admin.id };
  });
  afterAll(async () => {
    await worker?.stop();
    await ctx.close();
    await fake.close();
  });

  it("counts done and failed of the run's total, in the table's order, with run.progress events; another organization sees nothing", async () => {
    const names = ['Delta', 'Alpha', 'Echo', 'Charlie', 'Bravo', 'Foxtrot'];
    const { listId } = await seedList(a, names);
    const id = await ideaEnrichment(a, listId);
    fake.reset();
    fake.when((req) => lastUserText(req).includes('Echo'), {
      status: 400,
      body: { error: { message: 'Bad request to the model', type: 'invalid_request_error' } },
    });
    fake.otherwise({ json: { answer: 'Things' } });
    // All selected, the table sorted by name Z→A (not the order the ideas were stored in).
    const res = await a.c.post('/api/v1/enrichment/execute', {
      entityType: 'idea',
      enrichmentId: id,
      ideaFilters: { listCompanyId: listId, text: '' },
      sort: { key: 'name', order: 'desc' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const runId = res.json().runId as string;
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    const [before] = await progress(a.c, [runId]);
    expect(before).toMatchObject({
      id: runId,
      kind: 'run',
      type: 'enrichment',
      typeId: id,
      entityType: 'idea',
      status: 'running',
      total: 6,
      done: 0,
      failed: 0,
      cancelled: 0,
      finishedAt: null,
    });
    // The user's running runs include it; another organization's read finds nothing.
    expect((await progress(a.c)).map((r) => r.id)).toContain(runId);
    expect(await progress(rival.c, [runId])).toEqual([]);
    expect((await progress(rival.c)).map((r) => r.id)).not.toContain(runId);

    worker = await startTestWorker(ctx.dbUrl, ctx.config, [createEnrichmentHandler({ config: ctx.config })]);
    const after = await eventually(
      async () => {
        const [p] = await progress(a.c, [runId]);
        return p.status === 'completed' ? p : undefined;
      },
      'the run to finish',
      30_000,
    );
    expect(after).toMatchObject({ total: 6, done: 5, failed: 1, cancelled: 0, status: 'completed' });
    expect(after.finishedAt).not.toBeNull();
    // The table's order (name Z→A): the first rows on screen were the first done (Echo's retry comes after).
    expect([...new Set(seen(names))]).toEqual(['Foxtrot', 'Echo', 'Delta', 'Charlie', 'Bravo', 'Alpha']);
    // The feed carried the run's progress up to the end (the newest event counts every row).
    const events = await ctx
      .em()
      .execute<{ path: string; data: RunProgressDto }[]>(
        `select path, data from realtime_event where organization_id = ? and kind = 'run.progress' and key = ? order by seq`,
        [a.orgId, `run:${runId}`],
      );
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events.at(-1)!.path).toBe(`org/${a.orgId}/executions/enrichment/idea`);
    expect(events.at(-1)!.data).toMatchObject({ done: 5, failed: 1, total: 6, status: 'completed' });
    const settled = events.map((e) => e.data.done + e.data.failed);
    expect([...settled].sort((x, y) => x - y)).toEqual(settled);
    // A finished run cannot be cancelled.
    const late = await a.c.post('/api/v1/execution/run/cancel', { runId });
    expect([late.statusCode, late.json().message]).toEqual([409, 'Execution has already finished.']);
  });

  it('Cancel stops the rows still waiting: no further model call or charge, the run reads cancelled', async () => {
    const names = ['C1co', 'C2co', 'C3co', 'C4co', 'C5co', 'C6co', 'C7co', 'C8co'];
    const { listId } = await seedList(a, names);
    const id = await ideaEnrichment(a, listId);
    fake.reset();
    // Each answer takes a while: most rows are still waiting when the user cancels.
    fake.otherwise({ json: { answer: 'Slow things' }, latencyMs: 400 });
    const res = await a.c.post('/api/v1/enrichment/execute', {
      entityType: 'idea',
      enrichmentId: id,
      ideaFilters: { listCompanyId: listId, text: '' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const runId = res.json().runId as string;
    worker ??= await startTestWorker(ctx.dbUrl, ctx.config, [createEnrichmentHandler({ config: ctx.config })]);
    await eventually(async () => (fake.chatRequests.length >= 1 ? true : undefined), 'the first model call', 20_000);

    // Not theirs: 404; a bad id: 400.
    const foreign = await rival.c.post('/api/v1/execution/run/cancel', { runId });
    expect([foreign.statusCode, foreign.json().message]).toEqual([404, 'Execution not found.']);
    expect((await a.c.post('/api/v1/execution/run/cancel', { runId: 'nope' })).statusCode).toBe(400);

    const cancel = await a.c.post('/api/v1/execution/run/cancel', { runId });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toMatchObject({
      success: true,
      message: 'Execution cancelled.',
      run: { id: runId, status: 'cancelled', total: 8 },
    });
    const callsAtCancel = fake.chatRequests.length;
    const chargesAtCancel = await charges(a.orgId);
    // Time for several more rows had it gone on.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(fake.chatRequests.length).toBe(callsAtCancel);
    expect(callsAtCancel).toBeLessThan(names.length);
    expect(await charges(a.orgId)).toBeLessThanOrEqual(chargesAtCancel + 1);
    const [p] = await progress(a.c, [runId]);
    expect(p.status).toBe('cancelled');
    expect(p.done + p.failed + p.cancelled).toBe(8);
    expect(p.cancelled).toBeGreaterThanOrEqual(8 - callsAtCancel);
    const statuses = await ctx
      .em()
      .execute<{ status: string; n: number }[]>(
        `select status, count(*)::int as n from execution where organization_id = ? and run_id = ? group by status`,
        [a.orgId, runId],
      );
    expect(statuses.filter((s) => s.status !== 'cancelled' && s.status !== 'completed')).toEqual([]);
    // Cancelled twice: already finished.
    expect((await a.c.post('/api/v1/execution/run/cancel', { runId })).statusCode).toBe(409);
  });

  it("a companies enrichment over the whole table runs in the companies table's sort (the first rows on screen first), as one run", async () => {
    const names = ['Kilo Freight', 'Lima Freight', 'Juliett Freight', 'Mike Freight', 'India Freight'];
    for (const name of names) await newCompany(a.c, { name, website: `https://${name.split(' ')[0]!.toLowerCase()}.example.com` });
    const res = await a.c.post('/api/v1/enrichment', {
      configId: configFor('company', 'llm')!.id,
      entityType: 'company',
      name: `Company ${randomUUID().slice(0, 6)}`,
      prompt: 'What does it carry?',
      schema,
    });
    expect(res.statusCode, res.body).toBe(201);
    fake.reset();
    fake.otherwise({ json: { answer: 'Freight' } });
    // All selected, the table sorted by name Z→A.
    const run = await a.c.post('/api/v1/enrichment/execute', {
      entityType: 'company',
      enrichmentId: res.json().id,
      entityFilters: { allSelected: true, text: 'Freight', filters: [], excludeIds: [] },
      sort: { key: 'name', order: 'desc' },
    });
    expect(run.statusCode, run.body).toBe(200);
    const runId = run.json().runId as string;
    const done = await eventually(
      async () => {
        const [p] = await progress(a.c, [runId]);
        return p.status === 'completed' ? p : undefined;
      },
      'the run to finish',
      30_000,
    );
    expect(done).toMatchObject({ kind: 'run', type: 'enrichment', entityType: 'company', total: 5, done: 5, cancellable: true });
    expect(seen(names)).toEqual(['Mike Freight', 'Lima Freight', 'Kilo Freight', 'Juliett Freight', 'India Freight']);
  });

  const charges = async (orgId: string) =>
    (await ctx.em().execute<{ n: number }[]>(`select count(*)::int as n from llm_charge where organization_id = ?`, [orgId]))[0].n;
});
