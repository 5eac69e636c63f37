// kill -9 of a worker in the middle of an enrichment's model call: the job expires, another worker
// retries it, the model is asked again with the same charge key, and the result, the field value
// and the credit are each written once.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createTestApp, createOrg, signedIn, type TestContext } from '../../../test/helpers';
import { startTestWorker, eventually, type TestWorker } from '../../../test/execution-harness';
import { FakeOpenAiServer } from '../../../test/fakes/openai-server';
import { createQueues } from '../../jobs/definitions';
import { executionJobDefinitions } from '../executions/runner';
import { createEnrichmentHandler } from './handler';
import { configFor } from './configs';

const env = {
  EXECUTION_EXPIRE_SECONDS: '2',
  EXECUTION_RETRY_DELAY_SECONDS: '0',
  EXECUTION_RETRY_LIMIT: '2',
  LLM_MAX_ATTEMPTS: '1',
  OPENAI_API_KEY: 'sk-test',
  OPENAI_MODELS: 'gpt-test',
};

describe('enrichments: a worker killed mid-run', () => {
  let ctx: TestContext;
  let fake: FakeOpenAiServer;
  let child: ChildProcess | null = null;
  let worker: TestWorker | null = null;

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-test'] });
    ctx = await createTestApp({ boss: true, env: { ...env, OPENAI_BASE_URL: fake.url } });
    await createQueues(ctx.boss!, executionJobDefinitions([]), ctx.config);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await worker?.stop();
    await ctx.close();
    await fake.close();
  });

  it('is retried by another worker: one result, one field write, one credit', async () => {
    const { organization, admin } = await createOrg(ctx, { name: 'Crash Enrich Co' });
    const c = await signedIn(ctx, admin.email);
    const field = (await c.post('/api/v1/entity/field', { label: 'Sector', dataType: 'string', entityType: 'company' })).json().field
      .id as string;
    const enrichmentId = (
      await c.post('/api/v1/enrichment', {
        configId: configFor('company', 'llm')!.id,
        name: 'Sector',
        prompt: 'Which sector?',
        fieldIdToAssign: field,
        schema: [{ name: 'answer', type: 'string', description: 'The sector.', required: true }],
      })
    ).json().id as string;
    const companyId = (await c.post('/api/v1/entity/company', { company: { name: 'Crashco', website: 'crashco.example' } })).json().company
      .id as string;

    // The first call hangs (the worker dies waiting for it); the retry's call answers.
    fake.reply({ hang: true }, { json: { answer: 'Industrials' } });
    child = spawn(process.execPath, ['--import', 'tsx', path.resolve('server/src/modules/enrichments/fixtures/enrich-worker.ts')], {
      env: { ...process.env, ...env, OPENAI_BASE_URL: fake.url, DATABASE_URL: ctx.dbUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d) => {
      output += d;
    });
    child.stderr!.on('data', (d) => {
      output += d;
    });
    await eventually(async () => (output.includes('ready') ? true : undefined), `the worker process to start (${output})`, 60_000);

    const run = (await c.post('/api/v1/enrichment/execute', { enrichmentId, entityType: 'company', entityIds: [companyId] })).json();
    const executionId = run.items[0].executionId as string;
    await eventually(async () => (fake.chatRequests.length === 1 ? true : undefined), 'the worker to call the model');
    const credits = async () =>
      (await ctx.em().execute<{ used: number }[]>(`select ai_credits_used as used from organization where id = ?`, [organization.id]))[0]
        .used;
    const charges = async () =>
      ctx.em().execute<{ charge_key: string }[]>(`select charge_key from llm_charge where organization_id = ?`, [organization.id]);
    expect(await credits()).toBe(1);

    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    const execution = async () =>
      (
        await ctx.em().execute<{ status: string; attempt: number }[]>(`select status, attempt from execution where id = ?`, [executionId])
      )[0];
    expect((await execution()).status).toBe('processing');

    worker = await startTestWorker(ctx.dbUrl, ctx.config, [createEnrichmentHandler({ config: ctx.config })], {
      superviseIntervalSeconds: 1,
    });
    await eventually(async () => ((await execution()).status === 'completed' ? true : undefined), 'the retry to complete', 60_000);

    expect(await execution()).toEqual({ status: 'completed', attempt: 1 });
    expect(fake.chatRequests).toHaveLength(2);
    // The retry asked again under the same charge key: one charge, one credit.
    expect((await charges()).map((r) => r.charge_key)).toEqual([`${executionId}:main:llm`]);
    expect(await credits()).toBe(1);
    const results = await ctx
      .em()
      .execute<{ status: string; value: unknown }[]>(`select status, value from enrichment_result where enrichment_id = ?`, [enrichmentId]);
    expect(results).toEqual([{ status: 'complete', value: { result: { answer: 'Industrials' } } }]);
    const values = await ctx
      .em()
      .execute<{ value: unknown }[]>(`select value from field_value where field_id = ? and entity_id = ?`, [field, companyId]);
    expect(values).toEqual([{ value: 'Industrials' }]);
    const kinds = await ctx.em().execute<{ kind: string; n: number }[]>(
      `select kind, count(*)::int as n from realtime_event where organization_id = ? and (kind = 'field.value' or (kind =
          'enrichment.result' and data->>'status' = 'complete')) group by kind order by kind`,
      [organization.id],
    );
    expect(kinds).toEqual([
      { kind: 'enrichment.result', n: 1 },
      { kind: 'field.value', n: 1 },
    ]);
  });
});
