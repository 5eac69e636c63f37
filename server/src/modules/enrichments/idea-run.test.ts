// Running an enrichment on a list's ideas (spec 002 §4 'Idea enrichment results', 001 §1,
// §9): POST /enrichment/execute with entityType 'idea' (ids, or the ideas table's filters of the
// list when all are selected) → executions of the ideas → the worker's enrichment handler reads the
// idea (name, website, domain, the source row's columns) → the real LLM adapter against the fake
// OpenAI-compatible server → results with entity_type 'idea', on the idea realtime path, in the
// ideas' DTOs. Another organization's idea or list is never run.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { realtimePaths } from '@dealscout/shared/domain';
import type { EnrichmentResultDto, ExecuteEnrichmentResponse, IdeaDto } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { startTestWorker, eventually, type TestWorker } from '../../../test/execution-harness';
import { FakeOpenAiServer, lastUserText } from '../../../test/fakes/openai-server';
import { createQueues, type JobDefinition } from '../../jobs/definitions';
import { executeEnrichment, createRestOfRun, EXECUTE_REST_QUEUE, ExecuteRestData } from './execute';
import { executeRestDeadLetterJob, executeRestJob } from './execute-rest.job';
import { executionJobDefinitions } from '../executions/runner';
import { createEnrichmentHandler } from './handler';
import { configFor } from './configs';
import { createSource, insertIdeas, lockList } from '../lists/lists.service';

const IDEA_LLM = configFor('idea', 'llm')!.id;
const schema = [{ name: 'answer', type: 'string', description: "Your answer to the user's request.", required: true }];
const env = { EXECUTION_RETRY_DELAY_SECONDS: '0', EXECUTION_RETRY_LIMIT: '1', LLM_MAX_ATTEMPTS: '1', JOB_POLL_SECONDS: '0.5' };

interface Org {
  c: TestClient;
  orgId: string;
  userId: string;
}

describe('enrichments: running on ideas', () => {
  let ctx: TestContext;
  let fake: FakeOpenAiServer;
  let worker: TestWorker | null = null;
  let a: Org;
  let rival: Org;

  const newList = async (o: Org, name: string): Promise<string> => {
    const res = await o.c.post('/api/v1/list-company', { name });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().list.id;
  };
  /** Ideas of a fresh CSV-like source (with an extra column), inserted the way an import does. */
  const seedIdeas = async (o: Org, listId: string, names: string[]): Promise<string[]> => {
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
          data: { Sector: `${n} sector` },
        })),
      );
    });
    const page = (
      await o.c.post('/api/v1/list-company/idea/list', { listCompanyId: listId, pageSize: 100, sortKey: 'name', sortOrder: 'asc' })
    ).json();
    return (page.listCompanyIdeas as IdeaDto[]).filter((i) => names.includes(i.name)).map((i) => i.id);
  };
  const ideaEnrichment = async (o: Org, listId: string | null, body: Record<string, unknown> = {}): Promise<string> => {
    const res = await o.c.post('/api/v1/enrichment', {
      configId: IDEA_LLM,
      entityType: 'idea',
      listId,
      name: `Idea ${randomUUID().slice(0, 6)}`,
      prompt: 'What does it sell?',
      schema,
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id;
  };
  const execute = (c: TestClient, body: Record<string, unknown>) => c.post('/api/v1/enrichment/execute', { entityType: 'idea', ...body });
  const results = async (c: TestClient, entityIds: string[], enrichmentIds?: string[]) =>
    (await c.post('/api/v1/enrichment/results', { entityType: 'idea', entityIds, enrichmentIds })).json().results as EnrichmentResultDto[];
  const done = (c: TestClient, enrichmentId: string, ids: string[]) =>
    eventually(
      async () => {
        const rs = await results(c, ids, [enrichmentId]);
        return rs.length === ids.length && rs.every((r) => r.status === 'complete' || r.status === 'error') ? rs : undefined;
      },
      'the idea results',
      30_000,
    );

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-test'] });
    ctx = await createTestApp({
      boss: true,
      env: { ...env, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.url, OPENAI_MODELS: 'gpt-test' },
    });
    await createQueues(ctx.boss!, executionJobDefinitions([]), ctx.config);
    const o = await createOrg(ctx, { name: 'Idea Run Co' });
    a = { c: await signedIn(ctx, o.admin.email), orgId: o.organization.id, userId: o.admin.id };
    const o2 = await createOrg(ctx, { name: 'Idea Rival Co' });
    rival = { c: await signedIn(ctx, o2.admin.email), orgId: o2.organization.id, userId: o2.admin.id };
  });
  afterAll(async () => {
    await worker?.stop();
    await ctx.close();
    await fake.close();
  });

  it("checks the request: 'Please select an idea.', 'Invalid Enrichment', a foreign idea fails and a foreign list selects nothing", async () => {
    const listId = await newList(a, 'Checks list');
    const [idea] = await seedIdeas(a, listId, ['Checkidea']);
    const id = await ideaEnrichment(a, listId);
    expect((await execute(a.c, { enrichmentId: id, entityIds: [] })).json().message).toBe('Please select an idea.');
    // An idea enrichment is not a company one, and the other way round.
    expect((await execute(a.c, { enrichmentId: id, entityType: 'company', entityIds: [randomUUID()] })).json().message).toBe(
      'Invalid Enrichment',
    );
    // Another organization: its enrichment is a 404; its own enrichment on our idea finds no row of theirs.
    const foreign = await execute(rival.c, { enrichmentId: id, entityIds: [idea] });
    expect([foreign.statusCode, foreign.json().message]).toEqual([404, 'Enrichment not found.']);
    const rivalList = await newList(rival, 'Rival list');
    const theirs = await ideaEnrichment(rival, rivalList);
    const r = await execute(rival.c, { enrichmentId: theirs, entityIds: [idea] });
    expect([r.statusCode, r.json().message]).toEqual([400, 'Please select an idea.']);
    const all = await execute(rival.c, { enrichmentId: theirs, ideaFilters: { listCompanyId: listId, text: '' } });
    expect([all.statusCode, all.json().message]).toEqual([400, 'Please select an idea.']);
    // With one of theirs among ours: ours fail as not found, theirs start.
    const [mine] = await seedIdeas(rival, rivalList, ['Rivalidea']);
    const mixed = (await execute(rival.c, { enrichmentId: theirs, entityIds: [idea, mine] })).json() as ExecuteEnrichmentResponse;
    expect(mixed).toMatchObject({ started: 1, failed: 1 });
    expect(mixed.items!.map((i) => [i.entityId, i.status, i.message ?? null])).toEqual([
      [idea, 'failed', 'Idea not found.'],
      [mine, 'started', null],
    ]);
    expect(
      await ctx.em().execute(`select id from execution where organization_id = ? and entity_id = ?`, [rival.orgId, idea]),
    ).toHaveLength(0);
  });

  it('runs on selected ideas: executions of the ideas, the idea in the prompt, results on the idea path and in the ideas', async () => {
    const listId = await newList(a, 'Run list');
    const [x, y] = await seedIdeas(a, listId, ['Alphaco', 'Betaco']);
    const id = await ideaEnrichment(a, listId, {
      prompt: [
        { type: 'text', text: 'What does it sell? ' },
        { type: 'field-box', id: 'b1', fieldId: await sectorField(a.c) },
      ],
    });
    fake.reset();
    fake.when((req) => lastUserText(req).includes('Alphaco'), { json: { answer: 'Anvils' } });
    // A plain text answer that is not JSON: completed, with the string as the answer.
    fake.when((req) => lastUserText(req).includes('Betaco'), { content: 'Bolts and nuts' });

    const res = await execute(a.c, { enrichmentId: id, entityIds: [x, y] });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ExecuteEnrichmentResponse;
    expect(body).toMatchObject({ message: '2 enrichment execution(s) started', started: 2, failed: 0 });
    const xs = await ctx
      .em()
      .execute<{ entity_type: string; entity_id: string; type: string }[]>(
        `select entity_type, entity_id, type from execution where organization_id = ? and type_id = ?`,
        [a.orgId, id],
      );
    expect(xs.map((e) => [e.type, e.entity_type]).sort()).toEqual([
      ['enrichment', 'idea'],
      ['enrichment', 'idea'],
    ]);
    expect((await results(a.c, [x, y], [id])).map((r) => r.status)).toEqual(['preprocessing', 'preprocessing']);

    worker ??= await startTestWorker(ctx.dbUrl, ctx.config, [createEnrichmentHandler({ config: ctx.config })]);
    const finished = await done(a.c, id, [x, y]);
    const byIdea = new Map(finished.map((r) => [r.entityId, r]));
    expect(byIdea.get(x)).toMatchObject({ status: 'complete', entityType: 'idea', value: { result: { answer: 'Anvils' } } });
    expect(byIdea.get(y)).toMatchObject({ status: 'complete', value: { result: { answer: 'Bolts and nuts' } } });
    // The model saw the idea (name, website, the source row's columns) and the field box's value.
    const alpha = fake.chatRequests.map(lastUserText).find((t) => t.includes('Alphaco'))!;
    expect(alpha).toContain('Website: https://alphaco.example.com');
    expect(alpha).toContain('Sector: Alphaco sector');
    expect(alpha).toContain('What does it sell? Alphaco sector');

    // The ideas carry their results; the events went to the idea path.
    const page = (await a.c.post('/api/v1/list-company/idea/list', { listCompanyId: listId })).json().listCompanyIdeas as IdeaDto[];
    expect(page.find((i) => i.id === x)!.enrichmentResults.find((r) => r.enrichmentId === id)).toMatchObject({
      status: 'complete',
      value: { result: { answer: 'Anvils' } },
    });
    const ev = await ctx
      .em()
      .execute<{ path: string; data: { status: string; entityId: string } }[]>(
        `select path, data from realtime_event where organization_id = ? and kind = 'enrichment.result' and data->>'enrichmentId' = ? order by seq`,
        [a.orgId, id],
      );
    expect(new Set(ev.map((e) => e.path))).toEqual(new Set([realtimePaths.executions(a.orgId, 'enrichment', 'idea')]));
    expect(
      ev
        .filter((e) => e.data.status === 'complete')
        .map((e) => e.data.entityId)
        .sort(),
    ).toEqual([x, y].sort());
  });

  it('runs on all selected ideas by the ideas table filters (shortlisted, minus excluded); a failure shows as error', async () => {
    const listId = await newList(a, 'All list');
    const [p, q, r, s] = await seedIdeas(a, listId, ['Pco', 'Qco', 'Rco', 'Sco']);
    expect((await a.c.put('/api/v1/list-company/idea/shortlist', { listId, ideaIds: [p, q, r], status: true })).statusCode).toBe(200);
    const id = await ideaEnrichment(a, listId);
    fake.reset();
    fake.when((req) => lastUserText(req).includes('Qco'), {
      status: 400,
      body: { error: { message: 'Bad request to the model', type: 'invalid_request_error' } },
    });
    const res = await execute(a.c, { enrichmentId: id, ideaFilters: { inShortlist: true, excludeIds: [r] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ started: 2, failed: 0 });
    expect(res.json().items).toBeUndefined();
    worker ??= await startTestWorker(ctx.dbUrl, ctx.config, [createEnrichmentHandler({ config: ctx.config })]);
    const finished = await done(a.c, id, [p, q]);
    const byIdea = new Map(finished.map((x) => [x.entityId, x]));
    expect(byIdea.get(p)!.status).toBe('complete');
    expect(byIdea.get(q)!.status).toBe('error');
    expect(byIdea.get(q)!.statusMessage).toBeTruthy();
    expect(await results(a.c, [r, s], [id])).toEqual([]);
  });

  it("a company enrichment runs on a list's ideas: results on the ideas, no field written, its column in that list only (and its export)", async () => {
    const listId = await newList(a, 'Reuse list');
    const otherList = await newList(a, 'Other list');
    const [x, y] = await seedIdeas(a, listId, ['Reuseco', 'Reusetwo']);
    const fieldRes = await a.c.post('/api/v1/entity/field', {
      label: 'Headcount',
      dataType: 'int',
      entityType: 'company',
      config: { reconciliation: 'use_latest' },
    });
    expect(fieldRes.statusCode, fieldRes.body).toBe(201);
    const field = fieldRes.json().field.id as string;
    // Made on the Enrichments page for companies, filling a company field as its primary enrichment.
    const made = await a.c.post('/api/v1/enrichment', {
      configId: configFor('company', 'llm')!.id,
      entityType: 'company',
      name: 'Company headcount',
      prompt: 'How many employees?',
      schema: [{ name: 'employees', type: 'number', description: 'Employees', required: true }],
      fieldIdToAssign: field,
      isFieldPrimary: true,
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id as string;
    const forList = async (o: Org, l: string) =>
      ((await o.c.get(`/api/v1/enrichment/${l}/list`)).json().enrichments as { id: string }[]).map((e) => e.id);
    expect(await forList(a, listId)).not.toContain(id);
    // Not on contacts.
    expect(
      (await a.c.post('/api/v1/enrichment/execute', { enrichmentId: id, entityType: 'contact', entityIds: [randomUUID()] })).json().message,
    ).toBe('Invalid Enrichment');
    // Another organization cannot run it on its ideas.
    const rivalList = await newList(rival, 'Rival reuse');
    const [theirs] = await seedIdeas(rival, rivalList, ['Rivalreuse']);
    expect((await execute(rival.c, { enrichmentId: id, entityIds: [theirs] })).statusCode).toBe(404);

    fake.reset();
    fake.when((req) => lastUserText(req).includes('Reuseco'), { json: { employees: 44 } });
    fake.when((req) => lastUserText(req).includes('Reusetwo'), { json: { employees: 1625 } });
    const res = await execute(a.c, { enrichmentId: id, entityIds: [x, y], options: { onlyEmpty: true } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ started: 2, failed: 0 });
    worker ??= await startTestWorker(ctx.dbUrl, ctx.config, [createEnrichmentHandler({ config: ctx.config })]);
    const finished = await done(a.c, id, [x, y]);
    expect(new Map(finished.map((r) => [r.entityId, r.value]))).toEqual(
      new Map([
        [x, { result: { employees: 44 } }],
        [y, { result: { employees: 1625 } }],
      ]),
    );
    expect(finished.every((r) => r.status === 'complete' && r.entityType === 'idea')).toBe(true);
    // Ideas have no field values: nothing was written to the company field.
    expect(await ctx.em().execute(`select 1 from field_value where organization_id = ? and field_id = ?`, [a.orgId, field])).toHaveLength(
      0,
    );
    // Its column is in this list (beside the list's own enrichments), not in the other list nor the rival's.
    expect(await forList(a, listId)).toContain(id);
    expect(await forList(a, otherList)).not.toContain(id);
    expect(await forList(rival, listId)).not.toContain(id);
    expect(await forList(rival, rivalList)).not.toContain(id);
    // The export carries its column; a second run adds it to the list once.
    const csv = (await a.c.post('/api/v1/list-company/idea/export', { listCompanyId: listId })).body;
    expect(csv.split('\n')[0]).toContain('Company headcount');
    expect(csv).toContain('1625');
    expect((await execute(a.c, { enrichmentId: id, ideaFilters: { listCompanyId: listId, text: '' } })).statusCode).toBe(200);
    expect((await forList(a, listId)).filter((e) => e === id)).toHaveLength(1);
  });

  it('a large all-selected idea run is answered after its first chunk; the rest job creates the other ideas, which run too', async () => {
    await createQueues(ctx.boss!, [executeRestDeadLetterJob as JobDefinition, executeRestJob as JobDefinition], ctx.config);
    const listId = await newList(a, 'Large list');
    const ids = await seedIdeas(a, listId, ['L1co', 'L2co', 'L3co', 'L4co', 'L5co', 'L6co']);
    const id = await ideaEnrichment(a, listId);
    fake.reset();
    const em = ctx.em();
    em.setFilterParams('tenant', { organizationId: a.orgId });
    const answer = await executeEnrichment(
      em,
      ctx.boss!,
      { organizationId: a.orgId, userId: a.userId },
      { enrichmentId: id, entityType: 'idea', ideaFilters: { listCompanyId: listId, text: '' } },
      { firstChunk: 2 },
    );
    expect(answer).toMatchObject({ count: 6, started: 6, duplicates: 0, failed: 0 });
    const [job] = await ctx.boss!.fetch(EXECUTE_REST_QUEUE);
    const data = ExecuteRestData.parse(job.data);
    expect([data.entityType, data.items.length]).toEqual(['idea', 4]);
    expect(await createRestOfRun(ctx.em(), ctx.boss!, data)).toBe(4);
    await ctx.boss!.complete(EXECUTE_REST_QUEUE, job.id);
    worker ??= await startTestWorker(ctx.dbUrl, ctx.config, [createEnrichmentHandler({ config: ctx.config })]);
    const finished = await done(a.c, id, ids);
    expect(finished.map((r) => r.status)).toEqual(['complete', 'complete', 'complete', 'complete', 'complete', 'complete']);
  });
});

/** A company field whose label matches the ideas' 'Sector' column (a field box on an idea reads it). */
async function sectorField(c: TestClient): Promise<string> {
  const res = await c.post('/api/v1/entity/field', {
    label: 'Sector',
    dataType: 'string',
    entityType: 'company',
    config: { reconciliation: 'use_latest' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().field.id;
}
