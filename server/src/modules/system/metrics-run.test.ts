// GET /metrics after a small enrichment run against the loopback model fake, scraped the way
// Prometheus does: the API process (HTTP, executions) and a real worker process (`--role worker`
// with METRICS_PORT, its own listener) that made the model calls. The worker is a fresh process, so
// its counters are exactly what this run caused.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import net from 'node:net';
import { startWorkerProcess, killWorkers, type WorkerProcess } from '../../../test/worker-process';
import { createTestApp, createOrg, signedIn, type TestContext } from '../../../test/helpers';
import { eventually } from '../../../test/execution-harness';
import { FakeOpenAiServer } from '../../../test/fakes/openai-server';
import { createQueues } from '../../jobs/definitions';
import { executionJobDefinitions } from '../executions/runner';
import { configFor } from '../enrichments/configs';
import { workRegistry } from '../../lib/metrics';

const TOKEN = 'scrape-the-fleet-please';
const ROWS = 3;
const env = {
  OPENAI_API_KEY: 'sk-test',
  OPENAI_MODELS: 'gpt-test',
  LLM_MAX_ATTEMPTS: '3',
  EXECUTION_RETRY_DELAY_SECONDS: '0',
  METRICS_TOKEN: TOKEN,
};

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** The value of the sample of `name` whose labels include every pair given, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text
    .split('\n')
    .find(
      (l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('metrics of an enrichment run, from the API and a worker process', () => {
  let ctx: TestContext;
  let fake: FakeOpenAiServer;
  const workers: WorkerProcess[] = [];
  let metricsPort: number;

  beforeAll(async () => {
    // The counters are the process's: test files run before this one in the same test process
    // (the server tests share their module cache) counted their own model calls and jobs.
    workRegistry.resetMetrics();
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-test'] });
    ctx = await createTestApp({ boss: true, env: { ...env, OPENAI_BASE_URL: fake.url } });
    await createQueues(ctx.boss!, executionJobDefinitions([]), ctx.config);
    metricsPort = await freePort();
    workers.push(await startWorkerProcess(ctx.dbUrl, { ...env, OPENAI_BASE_URL: fake.url, METRICS_PORT: String(metricsPort) }));
  });
  afterAll(async () => {
    await killWorkers(workers);
    await ctx.close();
    await fake.close();
  });

  const scrapeWorker = (authorization?: string) =>
    fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers: authorization ? { authorization } : {} });

  it("the worker's listener answers only with the token", async () => {
    expect((await scrapeWorker()).status).toBe(401);
    expect((await scrapeWorker('Bearer nope')).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
  });

  it('counts the model calls (a 429 retried among them), the executions finished and the jobs run', async () => {
    const { admin } = await createOrg(ctx, { name: 'Metrics Co' });
    const c = await signedIn(ctx, admin.email);
    const enrichmentId = (
      await c.post('/api/v1/enrichment', {
        configId: configFor('company', 'llm')!.id,
        name: 'Sector',
        prompt: 'Which sector?',
        schema: [{ name: 'answer', type: 'string', description: 'The sector.', required: true }],
      })
    ).json().id as string;
    const ids: string[] = [];
    for (let i = 0; i < ROWS; i++)
      ids.push(
        (await c.post('/api/v1/entity/company', { company: { name: `Metric ${i}`, website: `metric${i}.example` } })).json().company.id,
      );
    // The first call is rate limited once (Retry-After 0), then every call answers (the schema's sample).
    fake.when(() => true, { status: 429, headers: { 'retry-after': '0' } }, { once: true });
    const run = await c.post('/api/v1/enrichment/execute', { enrichmentId, entityType: 'company', entityIds: ids });
    expect(run.statusCode, run.body).toBe(200);

    await eventually(
      async () => {
        const rows = await ctx
          .em()
          .execute<{ n: number }[]>(
            `select count(*)::int as n from execution where id in (select (jsonb_array_elements_text(?::jsonb))::uuid) and status = 'completed'`,
            [JSON.stringify((run.json().items as { executionId: string }[]).map((i) => i.executionId))],
          );
        return rows[0].n === ROWS ? true : undefined;
      },
      'the run to complete',
      30_000,
    );
    expect(fake.chatRequests).toHaveLength(ROWS + 1);

    const worker = await scrapeWorker(`Bearer ${TOKEN}`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toContain('text/plain');
    const w = await worker.text();
    const role = { role: 'worker' };
    expect(sample(w, 'dealscout_llm_requests_total', { ...role, provider: 'system', outcome: 'ok' })).toBe(ROWS);
    expect(sample(w, 'dealscout_llm_requests_total', { ...role, provider: 'system', outcome: 'rate_limited' })).toBe(1);
    expect(sample(w, 'dealscout_llm_retries_total', { ...role, provider: 'system' })).toBe(1);
    expect(sample(w, 'dealscout_llm_calls_total', { ...role, provider: 'system', result: 'ok' })).toBe(ROWS);
    expect(sample(w, 'dealscout_llm_call_duration_seconds_count', { ...role, provider: 'system' })).toBe(ROWS);
    expect(sample(w, 'dealscout_executions_finished_total', { ...role, type: 'enrichment', status: 'completed' })).toBe(ROWS);
    expect(sample(w, 'dealscout_jobs_total', { ...role, result: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(sample(w, 'dealscout_job_duration_seconds_count', role)).toBeGreaterThanOrEqual(1);
    // The database-wide gauges and the process' own: nothing left running, the pool seen.
    expect(sample(w, 'dealscout_executions', { ...role, type: 'enrichment', status: 'processing' }) ?? 0).toBe(0);
    expect(sample(w, 'dealscout_db_pool_connections', { ...role, state: 'in_use' })).toBeGreaterThanOrEqual(0);
    expect(sample(w, 'dealscout_db_pool_connections', { ...role, state: 'waiting' })).toBe(0);
    expect(w).toMatch(/^dealscout_queue_oldest_waiting_seconds\{/m);
    expect(sample(w, 'process_cpu_user_seconds_total', role)).toBeGreaterThan(0);

    const api = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(api.statusCode).toBe(200);
    expect(
      sample(api.body, 'dealscout_http_requests_total', { method: 'POST', route: '/api/v1/enrichment/execute', status_code: '200' }),
    ).toBe(1);
    // The API process made no model call of its own.
    expect(sample(api.body, 'dealscout_llm_calls_total', { provider: 'system', result: 'ok' }) ?? 0).toBe(0);
  });
});
