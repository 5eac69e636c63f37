// A run over many rows is done in the table's order: POST /enrichment/execute over a sorted
// companies table (all selected), its first chunk and the rest created by the rest-of-run job, every
// job queued before the worker starts; the model is asked about the rows in the sort's order, within
// the window of the calls in flight at once. Real server modules, PostgreSQL, pg-boss, the real LLM
// adapter against the fake OpenAI-compatible server.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { startTestWorker, eventually, type TestWorker } from '../../../test/execution-harness';
import { FakeOpenAiServer, lastUserText } from '../../../test/fakes/openai-server';
import { createQueues, type JobDefinition } from '../../jobs/definitions';
import { executionJobDefinitions } from '../executions/runner';
import { createRestOfRun, EXECUTE_REST_QUEUE, ExecuteRestData } from './execute';
import { executeRestDeadLetterJob, executeRestJob } from './execute-rest.job';
import { createEnrichmentHandler } from './handler';
import { configFor } from './configs';

const ROWS = 60;
/** Calls in flight at once (LLM_ORG_CONCURRENCY), and how far a row may come before or after its place. */
const IN_FLIGHT = 2;
const WINDOW = IN_FLIGHT + 1;

describe('enrichments: a run is done in the table’s order', () => {
  let ctx: TestContext;
  let fake: FakeOpenAiServer;
  let worker: TestWorker | null = null;
  let c: TestClient;
  let orgId: string;

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-test'] });
    ctx = await createTestApp({
      boss: true,
      env: {
        EXECUTION_RETRY_DELAY_SECONDS: '0',
        EXECUTION_RETRY_LIMIT: '1',
        LLM_MAX_ATTEMPTS: '1',
        JOB_POLL_SECONDS: '0.5',
        LLM_ORG_CONCURRENCY: String(IN_FLIGHT),
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: fake.url,
        OPENAI_MODELS: 'gpt-test',
      },
    });
    await createQueues(
      ctx.boss!,
      [...executionJobDefinitions([]), executeRestDeadLetterJob as JobDefinition, executeRestJob as JobDefinition],
      ctx.config,
    );
    const o = await createOrg(ctx, { name: 'Order Co' });
    c = await signedIn(ctx, o.admin.email);
    orgId = o.organization.id;
  });
  afterAll(async () => {
    await worker?.stop();
    await ctx.close();
    await fake.close();
  });

  it(`${ROWS} rows sorted by name (descending): the model is asked about them in that order`, async () => {
    // Created in an order unlike the sort's (every 7th number, wrapping).
    const names = Array.from({ length: ROWS }, (_, i) => `Ordo ${String(((i * 7) % ROWS) + 1).padStart(2, '0')}`);
    for (const name of names) {
      const res = await c.post('/api/v1/entity/company', {
        company: { name, website: `${name.replace(/\W/g, '').toLowerCase()}.example` },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const created = await c.post('/api/v1/enrichment', {
      configId: configFor('company', 'llm')!.id,
      name: 'Order',
      prompt: 'What does the company do?',
      schema: [{ name: 'answer', type: 'string', description: "Your answer to the user's request.", required: true }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const enrichmentId = created.json().id as string;
    fake.when(() => true, { json: { answer: 'Logistics' }, latencyMs: 40 });

    const run = await c.post('/api/v1/enrichment/execute', {
      enrichmentId,
      entityType: 'company',
      entityFilters: { allSelected: true, text: 'Ordo', filters: [], excludeIds: [] },
      sort: { key: 'name', order: 'desc' },
    });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().started).toBe(ROWS);
    // The rest of the run (after its first chunk) is created now, so every row's job waits in the queue.
    const [job] = await ctx.boss!.fetch(EXECUTE_REST_QUEUE);
    expect(await createRestOfRun(ctx.em(), ctx.boss!, ExecuteRestData.parse(job.data))).toBeGreaterThan(0);
    await ctx.boss!.complete(EXECUTE_REST_QUEUE, job.id);
    const [{ n }] = await ctx.em().execute<{ n: number }[]>(`select count(*)::int as n from execution where type_id = ?`, [enrichmentId]);
    expect(n).toBe(ROWS);

    // Each job carries its row's place: pg-boss takes the queue by priority, so in the table's order.
    const expected = [...names].sort().reverse();
    const queued = await ctx.em().execute<{ name: string }[]>(
      `select c.name from pgboss.job j join execution x on x.id = j.id join company c on c.id = x.entity_id
        where j.name = 'execution.enrichment' and x.type_id = ? order by j.priority desc, j.created_on`,
      [enrichmentId],
    );
    expect(queued.map((q) => q.name)).toEqual(expected);

    worker = await startTestWorker(ctx.dbUrl, ctx.config, [createEnrichmentHandler({ config: ctx.config })]);
    await eventually(
      async () => {
        const [done] = await ctx
          .em()
          .execute<{ n: number }[]>(
            `select count(*)::int as n from enrichment_result where organization_id = ? and enrichment_id = ? and status = 'complete'`,
            [orgId, enrichmentId],
          );
        return done.n === ROWS ? true : undefined;
      },
      'every row complete',
      60_000,
    );

    const asked = fake.chatRequests
      .map((r) => /Ordo \d\d/.exec(lastUserText(r))?.[0])
      .filter((x): x is string => !!x && expected.includes(x));
    expect(asked).toHaveLength(ROWS);
    // Each row is asked about at its place in the table, give or take the calls in flight.
    const outOfPlace = asked.map((name, k) => ({ name, k, place: expected.indexOf(name) })).filter((x) => Math.abs(x.place - x.k) > WINDOW);
    expect(outOfPlace, `asked in this order: ${asked.join(', ')}`).toEqual([]);
  });
});
