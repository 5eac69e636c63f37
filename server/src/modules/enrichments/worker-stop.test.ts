// Crash recovery and graceful stop of real worker processes (server/src/main.ts --role worker, as
// child processes) running an LLM enrichment over many companies against a fake model that counts
// its calls per company:
//   - kill -9 in the middle of the run, then another worker: every row ends with exactly one result
//     well within 60 s (pg-boss worker heartbeats, not the 900 s expiry); a row whose answer was
//     recorded before the kill is never asked again; the dead jobs do not hold the organization's
//     running limit; the executions and the realtime feed end 'completed'.
//   - SIGTERM in the middle of a run: the calls in flight finish and are recorded, the rows waiting
//     are released at once to the other worker; every row is asked exactly once; the process exits 0
//     without error-level logs.
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { startWorkerProcess, killWorkers, type WorkerProcess } from '../../../test/worker-process';
import { createTestApp, createOrg, signedIn, type TestContext } from '../../../test/helpers';
import { eventually, startTestWorker, type TestWorker } from '../../../test/execution-harness';
import { createEnrichmentHandler } from './handler';
import { FakeOpenAiServer, AnswerGate, lastUserText, type FakeRequest } from '../../../test/fakes/openai-server';
import { configFor } from './configs';

const ROWS = 40;
const env = {
  OPENAI_API_KEY: 'sk-test',
  OPENAI_MODELS: 'gpt-test',
  LLM_MAX_ATTEMPTS: '1',
  // Four calls at a time per organization: most rows of the run wait for their turn.
  LLM_ORG_CONCURRENCY: '4',
  // The dead jobs of the killed worker would fill this limit (the organization's running jobs).
  EXECUTION_ORG_CONCURRENCY: String(ROWS),
  EXECUTION_RETRY_DELAY_SECONDS: '1',
  JOB_HEARTBEAT_SECONDS: '10',
  JOB_SUPERVISE_SECONDS: '2',
  SHUTDOWN_GRACE_SECONDS: '10',
};

describe('worker processes: kill -9 and SIGTERM in the middle of a run', () => {
  let ctx: TestContext;
  let fake: FakeOpenAiServer;
  const workers: WorkerProcess[] = [];
  const inProcess: TestWorker[] = [];

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start({ apiKeys: ['sk-test'], latencyMs: 150 });
    ctx = await createTestApp({ boss: true, env: { ...env, OPENAI_BASE_URL: fake.url } });
  });
  afterEach(async () => {
    await killWorkers(workers);
    for (const w of inProcess.splice(0)) await w.stop();
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  async function startWorker(): Promise<WorkerProcess> {
    const w = await startWorkerProcess(ctx.dbUrl, { ...env, OPENAI_BASE_URL: fake.url });
    workers.push(w);
    return w;
  }

  /** An organization with an LLM enrichment filling a field, and ROWS companies; its answers take 150 ms (once `gate` lets them through). */
  async function setup(name: string, gate?: AnswerGate) {
    const { organization, admin } = await createOrg(ctx, { name });
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
    const companies: { id: string; name: string }[] = [];
    for (let i = 0; i < ROWS; i++) {
      const company = `${name} ${i}`;
      companies.push({
        id: (
          await c.post('/api/v1/entity/company', {
            company: { name: company, website: `${name.replace(/\W/g, '').toLowerCase()}${i}.example` },
          })
        ).json().company.id as string,
        name: company,
      });
    }
    // The answer names the company it was asked about.
    fake.when(
      (r) => lastUserText(r).includes(`Company: ${name} `),
      async (r: FakeRequest) => {
        await gate?.pass();
        return { json: { answer: `sector of ${companyOf(r)}` }, latencyMs: 150 };
      },
    );
    const run = async (ids: string[]) =>
      (
        (await c.post('/api/v1/enrichment/execute', { enrichmentId, entityType: 'company', entityIds: ids })).json().items as {
          executionId: string;
        }[]
      ).map((i) => i.executionId);
    return { organization, field, enrichmentId, companies, run };
  }

  const companyOf = (r: FakeRequest) => /Company: (.*)\n/.exec(lastUserText(r))?.[1] ?? '';
  const callsPerCompany = (prefix: string) => {
    const m = new Map<string, number>();
    for (const r of fake.chatRequests) {
      const name = companyOf(r);
      if (name.startsWith(`${prefix} `)) m.set(name, (m.get(name) ?? 0) + 1);
    }
    return m;
  };
  const completeResults = async (enrichmentId: string) =>
    ctx
      .em()
      .execute<{ entity_id: string; value: { result: { answer: string } } }[]>(
        `select entity_id, value from enrichment_result where enrichment_id = ? and status = 'complete'`,
        [enrichmentId],
      );
  const statuses = async (ids: string[]) =>
    ctx
      .em()
      .execute<{ status: string; n: number }[]>(
        `select status, count(*)::int as n from execution where id in (select (jsonb_array_elements_text(?::jsonb))::uuid) group by status order by status`,
        [JSON.stringify(ids)],
      );
  /** The status of each execution's last event in the realtime feed. */
  const feed = async (org: string, ids: string[]) =>
    ctx.em().execute<{ status: string; n: number }[]>(
      `select status, count(*)::int as n from (
       select distinct on (key) data->>'status' as status from realtime_event
        where organization_id = ? and kind = 'execution.updated' and key in (select 'execution:' || jsonb_array_elements_text(?::jsonb))
        order by key, seq desc) x group by status`,
      [org, JSON.stringify(ids)],
    );

  /** Every row: one complete result naming its company, one field value; every execution and its last event 'completed'. */
  async function expectAllDone(s: Awaited<ReturnType<typeof setup>>, ids: string[]) {
    const results = await completeResults(s.enrichmentId);
    expect(results).toHaveLength(ROWS);
    const byId = new Map(s.companies.map((c) => [c.id, c.name]));
    for (const r of results) expect(r.value.result.answer).toBe(`sector of ${byId.get(r.entity_id)}`);
    const values = await ctx
      .em()
      .execute<{ n: number; distinct: number }[]>(
        `select count(*)::int as n, count(distinct entity_id)::int as distinct from field_value where field_id = ?`,
        [s.field],
      );
    expect(values).toEqual([{ n: ROWS, distinct: ROWS }]);
    expect(await statuses(ids)).toEqual([{ status: 'completed', n: ids.length }]);
    expect(await feed(s.organization.id, ids)).toEqual([{ status: 'completed', n: ids.length }]);
  }

  it('kill -9: another worker finishes every row within 60 s, each written once, none asked again once recorded', async () => {
    const s = await setup('Killco');
    const a = await startWorker();
    const ids = await s.run(s.companies.map((c) => c.id));
    expect(ids).toHaveLength(ROWS);
    await eventually(async () => ((await completeResults(s.enrichmentId)).length >= 8 ? true : undefined), 'some rows to be done', 60_000);

    a.child.kill('SIGKILL');
    await a.exited;
    const recorded = new Set((await completeResults(s.enrichmentId)).map((r) => r.entity_id));
    const calledBefore = callsPerCompany('Killco');
    expect(recorded.size).toBeLessThan(ROWS);
    // The dead worker's jobs are still active (until the heartbeat check finds them).
    const active = await ctx
      .em()
      .execute<{ n: number }[]>(`select count(*)::int as n from pgboss.job where name = 'execution.enrichment' and state = 'active'`);
    expect(active[0].n).toBeGreaterThan(0);

    const b = await startWorker();
    const available = Date.now();
    // A new run of the same organization is not held back by the dead jobs (EXECUTION_ORG_CONCURRENCY = ROWS).
    // (A company whose row was recorded before the kill: a row still processing is not run again.)
    const again = s.companies.find((c) => recorded.has(c.id))!;
    const extra = await s.run([again.id]);
    expect(extra).toHaveLength(1);
    await eventually(
      async () => ((await statuses([...ids, ...extra])).every((r) => r.status === 'completed') ? true : undefined),
      'every row to be done',
      60_000,
    );
    const took = Date.now() - available;
    expect(took).toBeLessThan(60_000);

    // The extra run asked that company once more (a new run); take it out of the count.
    const calls = callsPerCompany('Killco');
    calls.set(again.name, calls.get(again.name)! - 1);
    for (const c of s.companies) {
      const n = calls.get(c.name) ?? 0;
      // Recorded before the kill: asked once, never again. The others: once more at most (a call in flight when the worker died).
      if (recorded.has(c.id)) expect(n, c.name).toBe(1);
      else expect(n, c.name).toBeLessThanOrEqual((calledBefore.get(c.name) ?? 0) + 1);
      expect(n, c.name).toBeGreaterThanOrEqual(1);
    }
    await expectAllDone(s, [...ids, ...extra]);
    // One credit per row (the charge key of a repeated call is the same), plus the extra run's.
    const credits = await ctx
      .em()
      .execute<{ used: number }[]>(`select ai_credits_used as used from organization where id = ?`, [s.organization.id]);
    expect(credits[0].used).toBe(ROWS + 1);
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
  }, 240_000);

  it('SIGTERM: the calls in flight finish and are recorded, the waiting rows go to the other worker at once, each row asked once', async () => {
    // Four answers, then the model holds the next four calls (in flight at the first worker) until it stops.
    const gate = new AnswerGate(4);
    const s = await setup('Stopco', gate);
    const a = await startWorker();
    const ids = await s.run(s.companies.map((c) => c.id));
    await eventually(async () => ((await completeResults(s.enrichmentId)).length >= 4 ? true : undefined), 'some rows to be done', 60_000);
    // The second worker is up before the first stops (a rolling deploy); the first holds every job.
    // (In this process: a child process takes longer to start than the run lasts on a busy machine.)
    const b = await startTestWorker(ctx.dbUrl, ctx.config, [createEnrichmentHandler({ config: ctx.config })], {
      superviseIntervalSeconds: 2,
    });
    inProcess.push(b);
    expect((await completeResults(s.enrichmentId)).length).toBeLessThan(ROWS - 8);
    const stoppedAt = Date.now();
    a.child.kill('SIGTERM');
    gate.open();
    const code = await a.exited;
    const stopTook = Date.now() - stoppedAt;
    expect(code, a.output()).toBe(0);
    // In-flight calls take 150 ms: far within the grace period.
    expect(stopTook).toBeLessThan(10_000);
    await eventually(
      async () => ((await statuses(ids)).every((r) => r.status === 'completed') ? true : undefined),
      'every row to be done',
      60_000,
    );
    // Released at once: B took the rest without waiting for a heartbeat timeout (10 s) or a retry
    // delay: the rows left (at most 36, 4 at a time, 150 ms each) take it about 1.5 s.
    expect(Date.now() - stoppedAt).toBeLessThan(20_000);

    const calls = callsPerCompany('Stopco');
    for (const c of s.companies) expect(calls.get(c.name) ?? 0, c.name).toBe(1);
    await expectAllDone(s, ids);
    // The stopping worker logged its release and nothing at error level (pino level 50+), no unhandled event.
    const log = a.output();
    expect(log).toContain('job released to another worker');
    expect(log).not.toMatch(/"level":(50|60)/);
    expect(log).not.toMatch(/Unhandled|ERR_UNHANDLED/);
    // A release does not spend an attempt: no job of the run is past its retry limit.
    const over = await ctx
      .em()
      .execute<{ n: number }[]>(
        `select count(*)::int as n from pgboss.job where name = 'execution.enrichment' and retry_count > retry_limit`,
      );
    expect(over[0].n).toBe(0);
  }, 240_000);
});
