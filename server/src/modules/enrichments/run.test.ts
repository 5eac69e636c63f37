// Running enrichments end to end: POST /enrichment/execute → executions and jobs → the worker's
// enrichment handler → the real LLM adapter (Chat Completions over HTTP) against the fake OpenAI-compatible server →
// results, field write-back per reconciliation, and the realtime events of each step.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { realtimePaths } from '@dealscout/shared/domain';
import type { EnrichmentResultDto, ExecuteEnrichmentResponse } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { startTestWorker, eventually, type TestWorker } from '../../../test/execution-harness';
import { FakeOpenAiServer, lastUserText, type FakeRequest } from '../../../test/fakes/openai-server';
import { NOT_CONFIGURED_MESSAGE } from '../../providers/llm';
import { createQueues, type JobDefinition } from '../../jobs/definitions';
import { createExecutions } from '../executions/commands/create-executions';
import { executeEnrichment, handleDeadRestOfRun, createRestOfRun, idempotencyKey, EXECUTE_REST_QUEUE, ExecuteRestData } from './execute';
import { executeRestDeadLetterJob, executeRestJob } from './execute-rest.job';
import { executionJobDefinitions } from '../executions/runner';
import { createEnrichmentHandler } from './handler';
import { configFor } from './configs';

const LLM = configFor('company', 'llm')!.id;
const schema = [{ name: 'answer', type: 'string', description: "Your answer to the user's request.", required: true }];
const env = { EXECUTION_RETRY_DELAY_SECONDS: '0', EXECUTION_RETRY_LIMIT: '1', LLM_MAX_ATTEMPTS: '1', JOB_POLL_SECONDS: '0.5' };

interface Org {
  c: TestClient;
  orgId: string;
}

async function company(c: TestClient, name: string): Promise<string> {
  const res = await c.post('/api/v1/entity/company', { company: { name, website: `${name.toLowerCase().replace(/\W/g, '')}.example` } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().company.id;
}
async function customField(c: TestClient, label: string, dataType = 'string', reconciliation = 'use_latest'): Promise<string> {
  const res = await c.post('/api/v1/entity/field', { label, dataType, entityType: 'company', config: { reconciliation } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().field.id;
}
async function enrichment(c: TestClient, body: Record<string, unknown>): Promise<string> {
  const res = await c.post('/api/v1/enrichment', { configId: LLM, schema, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}
const text = (t: string) => ({ type: 'text', text: t });

describe('enrichments: running', () => {
  let ctx: TestContext;
  let fake: FakeOpenAiServer;
  let worker: TestWorker | null = null;
  let a: Org;
  let rival: Org;

  const results = async (c: TestClient, entityIds: string[], enrichmentIds?: string[]) =>
    (await c.post('/api/v1/enrichment/results', { entityType: 'company', entityIds, enrichmentIds })).json()
      .results as EnrichmentResultDto[];
  const execute = async (c: TestClient, body: Record<string, unknown>) =>
    c.post('/api/v1/enrichment/execute', { entityType: 'company', ...body });
  const fieldValue = async (c: TestClient, companyId: string, fieldId: string) =>
    (await c.get(`/api/v1/company/details/${companyId}`)).json().company.fields[fieldId]?.value ?? null;
  const done = (c: TestClient, enrichmentId: string, ids: string[]) =>
    eventually(
      async () => {
        const rs = await results(c, ids, [enrichmentId]);
        return rs.length === ids.length && rs.every((r) => r.status === 'complete' || r.status === 'error') ? rs : undefined;
      },
      'the results',
      30_000,
    );
  const startWorker = async () => {
    worker ??= await startTestWorker(ctx.dbUrl, ctx.config, [createEnrichmentHandler({ config: ctx.config })]);
  };
  const events = async (orgId: string, kind: string) =>
    ctx
      .em()
      .execute<{ seq: string; path: string; key: string; data: Record<string, unknown> }[]>(
        `select seq, path, key, data from realtime_event where organization_id = ? and kind = ? order by seq`,
        [orgId, kind],
      );

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-test'] });
    ctx = await createTestApp({
      boss: true,
      env: { ...env, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.url, OPENAI_MODELS: 'gpt-test' },
    });
    // Every process creates the queues (main.ts); runs are queued before the worker starts here.
    await createQueues(ctx.boss!, executionJobDefinitions([]), ctx.config);
    const o = await createOrg(ctx, { name: 'Run Co' });
    a = { c: await signedIn(ctx, o.admin.email), orgId: o.organization.id };
    const o2 = await createOrg(ctx, { name: 'Rival Co' });
    rival = { c: await signedIn(ctx, o2.admin.email), orgId: o2.organization.id };
  });
  afterAll(async () => {
    await worker?.stop();
    await ctx.close();
    await fake.close();
  });

  it("checks a run's request: 'Invalid Enrichment', 'Please select a company.', unknown and foreign ids", async () => {
    const id = await enrichment(a.c, { name: 'Checks', prompt: 'x' });
    const co = await company(a.c, 'Checkco');
    expect((await execute(a.c, { entityIds: [co] })).statusCode).toBe(400);
    expect((await execute(a.c, { entityIds: [co] })).json().message).toBe('Invalid Enrichment');
    expect((await execute(a.c, { enrichmentId: id, entityType: 'contact', entityIds: [randomUUID()] })).json().message).toBe(
      'Invalid Enrichment',
    );
    expect((await execute(a.c, { enrichmentId: id, entityType: 'idea', entityIds: [co] })).statusCode).toBe(400);
    expect((await execute(a.c, { enrichmentId: id, entityIds: [] })).json().message).toBe('Please select a company.');
    expect((await execute(a.c, { enrichmentId: id })).json().message).toBe('Please select a company.');
    const unknown = await execute(a.c, { enrichmentId: randomUUID(), entityIds: [co] });
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, 'Enrichment not found.']);
    const foreign = await execute(rival.c, { enrichmentId: id, entityIds: [co] });
    expect([foreign.statusCode, foreign.json().message]).toEqual([404, 'Enrichment not found.']);
    // The rival's own enrichment on our company: that row is not theirs.
    const theirs = await enrichment(rival.c, { name: 'Theirs', prompt: 'x' });
    const r = await execute(rival.c, { enrichmentId: theirs, entityIds: [co] });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toBe('Please select a company.');
    expect(await ctx.em().execute(`select id from execution where organization_id = ?`, [rival.orgId])).toHaveLength(0);
  });

  it('a second run of rows still queued answers duplicate with the queued execution; only-empty skips filled rows', async () => {
    const f = await customField(a.c, 'Dup field');
    const id = await enrichment(a.c, { name: 'Dup', prompt: [text('Describe it')], fieldIdToAssign: f });
    const [x, y, z] = [await company(a.c, 'Dupa'), await company(a.c, 'Dupb'), await company(a.c, 'Dupc')];
    await a.c.put('/api/v1/entity/company/field', { entityId: z, fieldId: f, value: 'already there' });

    const first = await execute(a.c, { enrichmentId: id, entityIds: [x, y], options: { onlyEmpty: true } });
    expect(first.statusCode, first.body).toBe(200);
    const body1 = first.json() as ExecuteEnrichmentResponse;
    expect(body1).toMatchObject({ message: '2 enrichment execution(s) started', count: 2, started: 2, duplicates: 0, failed: 0 });
    expect(body1.items!.map((i) => [i.entityId, i.status])).toEqual([
      [x, 'started'],
      [y, 'started'],
    ]);

    const foreignCo = await company(rival.c, 'Rivalrow');
    const second = (await execute(a.c, { enrichmentId: id, entityIds: [y, z, foreignCo, x] })).json() as ExecuteEnrichmentResponse;
    expect(second).toMatchObject({ count: 1, started: 1, duplicates: 2, failed: 1 });
    expect(second.items!.map((i) => [i.entityId, i.status])).toEqual([
      [y, 'duplicate'],
      [z, 'started'],
      [foreignCo, 'failed'],
      [x, 'duplicate'],
    ]);
    expect(second.items![0].executionId).toBe(body1.items![1].executionId);
    expect(second.items![2].executionId).toBeNull();

    // Every selected row has a value now or is queued: only-empty on z alone has nothing to do.
    const none = await execute(a.c, { enrichmentId: id, entityIds: [z], options: { onlyEmpty: true } });
    expect([none.statusCode, none.json().message]).toEqual([400, 'No empty rows to enrich.']);

    // Queued: results are preprocessing, announced; the active executions are listed.
    const rs = await results(a.c, [x, y, z], [id]);
    expect(rs.map((r) => r.status)).toEqual(['preprocessing', 'preprocessing', 'preprocessing']);
    const active = (await a.c.get('/api/v1/enrichment/executions')).json().executions as {
      typeId: string;
      entityId: string;
      status: string;
    }[];
    expect(
      active
        .filter((e) => e.typeId === id)
        .map((e) => e.entityId)
        .sort(),
    ).toEqual([x, y, z].sort());
    expect(active.every((e) => e.status === 'scheduled')).toBe(true);
    expect((await rival.c.get('/api/v1/enrichment/executions')).json().executions).toEqual([]);
    const pre = (await events(a.orgId, 'enrichment.result')).filter((e) => (e.data as { enrichmentId: string }).enrichmentId === id);
    expect(pre.map((e) => (e.data as { status: string }).status)).toEqual(['preprocessing', 'preprocessing', 'preprocessing']);
    expect(pre[0].path).toBe(realtimePaths.executions(a.orgId, 'enrichment', 'company'));

    // The worker runs each once: three model calls, not five.
    fake.reset();
    await startWorker();
    const finished = await done(a.c, id, [x, y, z]);
    expect(finished.map((r) => r.status)).toEqual(['complete', 'complete', 'complete']);
    expect(fake.chatRequests).toHaveLength(3);
    // Queued again after it finished: a new run starts.
    fake.reset();
    const again = (await execute(a.c, { enrichmentId: id, entityIds: [x] })).json() as ExecuteEnrichmentResponse;
    expect(again.items![0].status).toBe('started');
    await eventually(
      async () =>
        (await results(a.c, [x], [id]))[0].executionId === again.items![0].executionId &&
        (await results(a.c, [x], [id]))[0].status === 'complete'
          ? true
          : undefined,
      'the rerun',
    );
  });

  it(
    'renders field boxes, calls the model with the strict schema, stores value.result and writes the primary field ' +
      '(use_latest), with live events',
    async () => {
      await startWorker();
      fake.reset();
      const industry = await customField(a.c, 'Industry');
      const notes = await customField(a.c, 'Notes');
      const id = await enrichment(a.c, {
        name: 'Industry',
        fieldIdToAssign: industry,
        prompt: [text('Which industry is '), { type: 'field-box', id: 'box000000001', fieldId: notes, required: true }, text(' in?')],
        schema: [
          ...schema,
          { name: 'confidence', type: 'categories', description: 'How sure', required: true, enumValues: ['high', 'low'] },
        ],
      });
      const acme = await company(a.c, 'Acme');
      const umbrella = await company(a.c, 'Umbrella');
      await a.c.put('/api/v1/entity/company/field', { entityId: acme, fieldId: notes, value: 'rockets and anvils' });
      await a.c.put('/api/v1/entity/company/field', { entityId: umbrella, fieldId: notes, value: 'vaccines' });
      await a.c.put('/api/v1/entity/company/field', { entityId: umbrella, fieldId: industry, value: 'old value' });
      // A model that takes a moment: the runner announces 'processing' for executions still running after 100 ms.
      fake.when((r: FakeRequest) => lastUserText(r).includes('rockets'), {
        json: { answer: 'Aerospace', confidence: 'high' },
        latencyMs: 600,
      });
      fake.when((r: FakeRequest) => lastUserText(r).includes('vaccines'), { json: { answer: 'Pharma', confidence: 'low' } });

      const res = await execute(a.c, { enrichmentId: id, entityIds: [acme, umbrella] });
      expect(res.json().started).toBe(2);
      const rs = await done(a.c, id, [acme, umbrella]);
      const byEntity = new Map(rs.map((r) => [r.entityId, r]));
      expect(byEntity.get(acme)).toMatchObject({
        status: 'complete',
        statusMessage: null,
        value: { result: { answer: 'Aerospace', confidence: 'high' } },
      });
      expect(byEntity.get(umbrella)!.value.result).toEqual({ answer: 'Pharma', confidence: 'low' });

      const req = fake.chatRequests.find((r) => lastUserText(r).includes('rockets'))!;
      expect(lastUserText(req)).toContain('Which industry is rockets and anvils in?');
      expect(lastUserText(req)).toContain('Company: Acme');
      expect(req.body.response_format?.json_schema).toMatchObject({
        strict: true,
        schema: {
          type: 'object',
          required: ['answer', 'confidence'],
          additionalProperties: false,
          properties: { confidence: { enum: ['high', 'low'] } },
        },
      });
      expect(req.body.model).toBe('gpt-test');

      // use_latest: the primary enrichment's answer replaces the value.
      expect(await fieldValue(a.c, acme, industry)).toBe('Aerospace');
      expect(await fieldValue(a.c, umbrella, industry)).toBe('Pharma');

      // Events: preprocessing → processing (execution) → complete, and the field value on the entities path.
      const resultEvents = (await events(a.orgId, 'enrichment.result')).filter((e) => e.key === `enrichment-result:${id}:${acme}`);
      expect(resultEvents.map((e) => (e.data as { status: string }).status)).toEqual(['preprocessing', 'complete']);
      const execEvents = (await events(a.orgId, 'execution.updated')).filter(
        (e) => (e.data as { typeId: string; entityId: string }).typeId === id && (e.data as { entityId: string }).entityId === acme,
      );
      expect(execEvents.map((e) => (e.data as { status: string }).status)).toEqual(['scheduled', 'processing', 'completed']);
      expect(Number(execEvents[1].seq)).toBeGreaterThan(Number(resultEvents[0].seq));
      expect(Number(resultEvents[1].seq)).toBeGreaterThan(Number(execEvents[1].seq));
      const fieldEvents = (await events(a.orgId, 'field.value')).filter((e) => e.key === `field:${industry}:${acme}`);
      expect(fieldEvents).toHaveLength(1);
      expect(fieldEvents[0].path).toBe(realtimePaths.entities(a.orgId, 'company'));
      expect(fieldEvents[0].data).toMatchObject({
        entityType: 'company',
        entityId: acme,
        fieldId: industry,
        value: { value: 'Aerospace', status: 'completed' },
      });
      // The cell keeps the whole answer and where it came from.
      const cell = (await a.c.get(`/api/v1/company/details/${acme}`)).json().company.fields[industry];
      expect(cell).toMatchObject({ infoValue: { answer: 'Aerospace', confidence: 'high' }, details: { enrichmentId: id, sources: [] } });

      // Another organization sees none of it.
      expect(await results(rival.c, [acme])).toEqual([]);
    },
  );

  it('keep_existing keeps a value a record already has (the result is still stored); a non-primary enrichment never writes', async () => {
    await startWorker();
    fake.reset();
    fake.otherwise({ json: { answer: 'Fresh' } });
    const f = await customField(a.c, 'Kept', 'string', 'keep_existing');
    const primary = await enrichment(a.c, { name: 'Kept primary', prompt: 'Say fresh', fieldIdToAssign: f });
    const secondary = await enrichment(a.c, { name: 'Kept secondary', prompt: 'Say fresh', fieldIdToAssign: f });
    const filled = await company(a.c, 'Filledco');
    const empty = await company(a.c, 'Emptyco');
    await a.c.put('/api/v1/entity/company/field', { entityId: filled, fieldId: f, value: 'Mine' });
    await execute(a.c, { enrichmentId: primary, entityIds: [filled, empty] });
    await done(a.c, primary, [filled, empty]);
    expect(await fieldValue(a.c, filled, f)).toBe('Mine');
    expect(await fieldValue(a.c, empty, f)).toBe('Fresh');
    expect((await results(a.c, [filled], [primary]))[0].value.result).toEqual({ answer: 'Fresh' });

    fake.otherwise({ json: { answer: 'From secondary' } });
    const other = await company(a.c, 'Otherco');
    await execute(a.c, { enrichmentId: secondary, entityIds: [other] });
    await done(a.c, secondary, [other]);
    expect(await fieldValue(a.c, other, f)).toBeNull();
    fake.otherwise(null);
  });

  it("an enrich box takes another enrichment's result, running it first with autorun; a required box without a value fails clearly", async () => {
    await startWorker();
    fake.reset();
    const base = await enrichment(a.c, { name: 'Base facts', prompt: 'Give the headcount' });
    const derived = await enrichment(a.c, {
      name: 'Derived',
      prompt: [
        text('Headcount is '),
        { type: 'enrich-box', id: 'box000000002', enrichmentId: base, path: '$.result.answer', autorun: true, required: true },
        text('. Size band?'),
      ],
    });
    const strict = await enrichment(a.c, {
      name: 'Strict',
      prompt: [
        text('Needs '),
        { type: 'enrich-box', id: 'box000000003', enrichmentId: base, path: '$.result.answer', autorun: false, required: true },
      ],
    });
    fake.when((r) => lastUserText(r).includes('Give the headcount'), { json: { answer: '250' } });
    fake.when((r) => lastUserText(r).includes('Headcount is 250.'), { json: { answer: 'Mid-market' } });
    const co = await company(a.c, 'Boxco');
    const co2 = await company(a.c, 'Boxless');

    await execute(a.c, { enrichmentId: derived, entityIds: [co] });
    const [d] = await done(a.c, derived, [co]);
    expect(d.value.result).toEqual({ answer: 'Mid-market' });
    // The dependency ran first and its result is stored too.
    expect((await results(a.c, [co], [base]))[0]).toMatchObject({ status: 'complete', value: { result: { answer: '250' } } });

    await execute(a.c, { enrichmentId: strict, entityIds: [co2] });
    const [s] = await done(a.c, strict, [co2]);
    expect(s).toMatchObject({
      status: 'error',
      statusMessage: 'The enrichment "Base facts" has no result for this company.',
      value: { result: null },
    });
    const [x] = await ctx
      .em()
      .execute<{ status: string; status_message: string }[]>(
        `select status, status_message from execution where type_id = ? and entity_id = ?`,
        [strict, co2],
      );
    expect(x).toEqual({ status: 'error', status_message: 'The enrichment "Base facts" has no result for this company.' });
    // With the base result present, the strict one runs.
    await execute(a.c, { enrichmentId: strict, entityIds: [co] });
    await eventually(async () => ((await results(a.c, [co], [strict]))[0]?.status === 'complete' ? true : undefined), 'the strict run');
  });

  it("runs on contacts: built-in field boxes take the record's columns; a contact field takes the answer", async () => {
    await startWorker();
    fake.reset();
    const fields = (await a.c.get('/api/v1/entity/fields?entityType=contact')).json().fields as { id: string; key: string }[];
    const email = fields.find((f) => f.key === 'email')!.id;
    const first = fields.find((f) => f.key === 'first_name')!.id;
    const seniority = (await a.c.post('/api/v1/entity/field', { label: 'Seniority', dataType: 'string', entityType: 'contact' })).json()
      .field.id as string;
    const res = await a.c.post('/api/v1/enrichment', {
      configId: configFor('contact', 'llm')!.id,
      name: 'Seniority',
      fieldIdToAssign: seniority,
      schema,
      prompt: [
        text('How senior is '),
        { type: 'field-box', id: 'box000000004', fieldId: first, required: true },
        text(' <'),
        { type: 'field-box', id: 'box000000005', fieldId: email },
        text('>?'),
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    const contact = (
      await a.c.post('/api/v1/entity/contact', { contact: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.example' } })
    ).json().contact.id as string;
    fake.reply({ json: { answer: 'Admiral' } });
    const run = await a.c.post('/api/v1/enrichment/execute', { enrichmentId: id, entityType: 'contact', entityIds: [contact] });
    expect(run.json().started).toBe(1);
    // A contact enrichment cannot run on companies.
    expect((await execute(a.c, { enrichmentId: id, entityIds: [contact] })).json().message).toBe('Invalid Enrichment');
    const r = await eventually(async () => {
      const [x] = (await a.c.post('/api/v1/enrichment/results', { entityType: 'contact', entityIds: [contact] })).json()
        .results as EnrichmentResultDto[];
      return x?.status === 'complete' ? x : undefined;
    }, 'the contact result');
    expect(r.value.result).toEqual({ answer: 'Admiral' });
    expect(lastUserText(fake.chatRequests[0])).toContain('How senior is Grace <grace@navy.example>?');
    expect(lastUserText(fake.chatRequests[0])).toContain('Contact: Grace Hopper');
    expect((await a.c.get(`/api/v1/contact/details/${contact}`)).json().contact.fields[seniority].value).toBe('Admiral');
  });

  it('runs on every row the filters select (a count, no items), minus the excluded ones', async () => {
    await startWorker();
    fake.reset();
    fake.otherwise({ json: { answer: 'bulk' } });
    const id = await enrichment(a.c, { name: 'Bulk', prompt: 'bulk' });
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await company(a.c, `Zyx bulk ${i}`));
    const res = await execute(a.c, {
      enrichmentId: id,
      entityFilters: { allSelected: true, text: 'zyx bulk', filters: [], excludeIds: [ids[4]] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ExecuteEnrichmentResponse;
    expect(body).toMatchObject({ count: 4, started: 4, duplicates: 0, message: '4 enrichment execution(s) started' });
    expect(body.items).toBeUndefined();
    await done(a.c, id, ids.slice(0, 4));
    expect(await results(a.c, [ids[4]], [id])).toEqual([]);
    // Again with only-empty (the enrichment has no field: rows without a complete result) → none left but the excluded one.
    const again = (
      await execute(a.c, { enrichmentId: id, entityFilters: { allSelected: true, text: 'zyx bulk' }, options: { onlyEmpty: true } })
    ).json();
    expect(again.count).toBe(1);
    await done(a.c, id, ids);
    const nothing = await execute(a.c, { enrichmentId: id, entityFilters: { allSelected: true, text: 'no such company here' } });
    expect(nothing.json().message).toBe('Please select a company.');
    fake.otherwise(null);
  });

  it('deleting records deletes their results', async () => {
    await startWorker();
    fake.reset();
    fake.otherwise({ json: { answer: 'gone soon' } });
    const id = await enrichment(a.c, { name: 'Ephemeral', prompt: 'x' });
    const [one, two] = [await company(a.c, 'Ephemeral one'), await company(a.c, 'Ephemeral two')];
    await execute(a.c, { enrichmentId: id, entityIds: [one, two] });
    await done(a.c, id, [one, two]);
    expect((await a.c.del(`/api/v1/company/delete/${one}`)).statusCode).toBe(200);
    const rows = await ctx.em().execute<{ entity_id: string }[]>(`select entity_id from enrichment_result where enrichment_id = ?`, [id]);
    expect(rows.map((r) => r.entity_id)).toEqual([two]);
    fake.otherwise(null);
  });

  it('an answer that is not JSON ends the row in error at once; a provider error is retried and then fails', async () => {
    await startWorker();
    fake.reset();
    const id = await enrichment(a.c, { name: 'Broken', prompt: 'broken' });
    const co = await company(a.c, 'Brokenco');
    fake.reply({ content: 'not json at all' });
    await execute(a.c, { enrichmentId: id, entityIds: [co] });
    const [r] = await done(a.c, id, [co]);
    expect(r).toMatchObject({
      status: 'error',
      statusMessage: 'The AI model returned an answer that is not valid JSON.',
      value: { result: null },
    });
    expect(fake.chatRequests).toHaveLength(1);

    fake.reset();
    fake.otherwise({ status: 500 });
    const co2 = await company(a.c, 'Flakyco');
    await execute(a.c, { enrichmentId: id, entityIds: [co2] });
    const [r2] = await done(a.c, id, [co2]);
    expect(r2.status).toBe('error');
    // EXECUTION_RETRY_LIMIT 1: two attempts.
    expect(fake.chatRequests).toHaveLength(2);
    fake.otherwise(null);
  });

  it(
    'a large run is answered after its first chunk; the rest is created by a job queued with it, each row once, ' +
      'also when that job runs again after a crash',
    async () => {
      await createQueues(ctx.boss!, [executeRestDeadLetterJob as JobDefinition, executeRestJob as JobDefinition], ctx.config);
      const id = await enrichment(a.c, { name: 'Large', prompt: 'x' });
      const cos: string[] = [];
      for (let i = 0; i < 25; i++) cos.push(await company(a.c, `Large${i}`));
      const [{ created_by_id: userId }] = await ctx
        .em()
        .execute<{ created_by_id: string }[]>(`select created_by_id from enrichment where id = ?`, [id]);
      // cos[3] is already queued (not due for an hour): a duplicate.
      const [queued] = await createExecutions(ctx.em(), ctx.boss!, {
        organizationId: a.orgId,
        createdById: userId,
        type: 'enrichment',
        typeId: id,
        entityType: 'company',
        targets: [{ entityId: cos[3], idempotencyKey: idempotencyKey(id, cos[3]) }],
        startAfter: new Date(Date.now() + 3_600_000),
        announce: false,
      });
      const em = ctx.em();
      em.setFilterParams('tenant', { organizationId: a.orgId });
      const answer = await executeEnrichment(
        em,
        ctx.boss!,
        { organizationId: a.orgId, userId },
        { enrichmentId: id, entityType: 'company', entityIds: cos },
        { firstChunk: 5 },
      );
      expect(answer).toMatchObject({ count: 24, started: 24, duplicates: 1, failed: 0 });
      expect(answer.items!.map((x) => x.entityId)).toEqual(cos);
      expect(answer.items![3]).toEqual({ entityId: cos[3], executionId: queued.executionId, status: 'duplicate' });
      const promised = answer.items!.filter((x) => x.status === 'started');
      const rows = async () =>
        ctx.em().execute<{ id: string; entity_id: string }[]>(`select id, entity_id from execution where type_id = ?`, [id]);
      // Answered with the first chunk: the first 5 rows found (4 if the queued one is among them) are
      // created, besides the queued one; the rest is in the job queued with them.
      const firstChunk = (await rows()).length - 1;
      expect([4, 5]).toContain(firstChunk);
      const [job] = await ctx.boss!.fetch(EXECUTE_REST_QUEUE);
      const data = ExecuteRestData.parse(job.data);
      expect(data.items).toHaveLength(24 - firstChunk);
      // An attempt that committed its first chunk and died, then the retry, then a third run: each row once.
      expect(await createRestOfRun(ctx.em(), ctx.boss!, { ...data, items: data.items.slice(0, 7) }, { chunk: 7 })).toBe(7);
      expect(await createRestOfRun(ctx.em(), ctx.boss!, data, { chunk: 7 })).toBe(data.items.length - 7);
      expect(await createRestOfRun(ctx.em(), ctx.boss!, data, { chunk: 7 })).toBe(0);
      const all = await rows();
      expect(all).toHaveLength(25);
      expect(new Set(all.map((r) => r.entity_id)).size).toBe(25);
      // Exactly the executions the answer promised.
      expect(new Set(all.map((r) => r.id))).toEqual(new Set([...promised.map((x) => x.executionId), queued.executionId]));
      // Every row's result was created (queued: preprocessing, or already answered by a running worker).
      const res = await ctx.em().execute<{ n: number }[]>(`select count(*)::int as n from enrichment_result where enrichment_id = ?`, [id]);
      expect(res[0].n).toBe(24);
      await ctx.boss!.complete(EXECUTE_REST_QUEUE, job.id);
      // A filtered run that selects nothing is refused and starts nothing (its first-rows transaction rolls back).
      const none = await execute(a.c, {
        enrichmentId: id,
        entityFilters: { allSelected: true, text: 'no company is called this', filters: [], excludeIds: [] },
      });
      expect([none.statusCode, none.json().message]).toEqual([400, 'Please select a company.']);
      expect(await rows()).toHaveLength(25);
      await ctx.em().execute(`update execution set status = 'cancelled' where type_id = ? and status in ('scheduled', 'processing')`, [id]);

      // A rest-of-run job whose retries are spent: the user is told how many promised rows never started.
      const lost = {
        ...data,
        items: [...data.items.slice(0, 2), [cos[0], randomUUID()], [cos[1], randomUUID()], [cos[2], randomUUID()]] as [string, string][],
      };
      expect(await handleDeadRestOfRun(ctx.em(), lost)).toBe(3);
      const notes = await ctx
        .em()
        .execute<{ level: string; message: string }[]>(
          `select level, message from notification where user_id = ? and unique_key like 'enrichment-rest-failed:%'`,
          [userId],
        );
      expect(notes).toEqual([
        { level: 'error', message: "Error executing enrichment: 3 of the run's rows could not be queued. Please run them again." },
      ]);
      expect(await handleDeadRestOfRun(ctx.em(), data)).toBe(0);
    },
  );
});

describe('enrichments: no language model configured', () => {
  let ctx: TestContext;
  let worker: TestWorker;

  beforeAll(async () => {
    ctx = await createTestApp({ boss: true, env });
    await createQueues(ctx.boss!, executionJobDefinitions([]), ctx.config);
    worker = await startTestWorker(ctx.dbUrl, ctx.config, [createEnrichmentHandler({ config: ctx.config })]);
  });
  afterAll(async () => {
    await worker.stop();
    await ctx.close();
  });

  it('fails the run at once with the message that says where to configure one', async () => {
    const o = await createOrg(ctx, { name: 'No AI Co' });
    const c = await signedIn(ctx, o.admin.email);
    const id = await enrichment(c, { name: 'Needs AI', prompt: 'x' });
    const co = await company(c, 'Noaico');
    const res = await c.post('/api/v1/enrichment/execute', { enrichmentId: id, entityType: 'company', entityIds: [co] });
    expect(res.json().started).toBe(1);
    const r = await eventually(async () => {
      const [x] = (await c.post('/api/v1/enrichment/results', { entityType: 'company', entityIds: [co] })).json()
        .results as EnrichmentResultDto[];
      return x?.status === 'error' ? x : undefined;
    }, 'the failure');
    expect(r.statusMessage).toBe(NOT_CONFIGURED_MESSAGE);
    const [x] = await ctx
      .em()
      .execute<{ status: string; attempt: number }[]>(`select status, attempt from execution where type_id = ?`, [id]);
    expect(x).toEqual({ status: 'error', attempt: 0 });
  });
});
