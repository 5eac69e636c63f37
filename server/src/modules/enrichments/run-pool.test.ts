// A large enrichment run's start beside other requests of the organization that publish, on a
// process whose pool is full: the run's transaction needs a second connection (the whole set's
// query), and the others wait for the organization's realtime sequence row. Nobody may wait on the
// other for good (a request scheduling an email was held past a minute in the cluster bench).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { MikroORM } from '@mikro-orm/postgresql';
import { realtimePaths } from '@dealscout/shared/domain';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { createQueues, type JobDefinition } from '../../jobs/definitions';
import { ormConfig } from '../../orm-config';
import { tenantSql } from '../../db/sql';
import { publish } from '../realtime/publish';
import { executionJobDefinitions } from '../executions/runner';
import { executeEnrichment } from './execute';
import { executeRestDeadLetterJob, executeRestJob } from './execute-rest.job';
import { configFor } from './configs';

const LLM = configFor('company', 'llm')!.id;
const schema = [{ name: 'answer', type: 'string', description: "Your answer to the user's request.", required: true }];

/** Resolves to 'timeout' when p has not settled within ms. */
const within = <T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> =>
  Promise.race([p, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms).unref())]);

describe('enrichments: a large run started on a full pool', () => {
  let ctx: TestContext;
  let small: MikroORM;
  let outside: pg.Client;
  let c: TestClient;
  let orgId: string;

  beforeAll(async () => {
    ctx = await createTestApp({ boss: true });
    await createQueues(ctx.boss!, executionJobDefinitions([]), ctx.config);
    await createQueues(ctx.boss!, [executeRestDeadLetterJob as JobDefinition, executeRestJob as JobDefinition], ctx.config);
    const o = await createOrg(ctx, { name: 'Pool Co' });
    orgId = o.organization.id;
    c = await signedIn(ctx, o.admin.email);
    // A process's pool, two connections: one request holds one, the run's transaction the other.
    small = await MikroORM.init(ormConfig(ctx.dbUrl, { logger: () => {}, pool: { min: 0, max: 2 } }));
    outside = new pg.Client({ connectionString: ctx.dbUrl });
    await outside.connect();
  });
  afterAll(async () => {
    await outside?.end();
    await small?.close(true);
    await ctx.close();
  });

  it("a request that publishes while the run's first rows are created: both finish", async () => {
    const created = await c.post('/api/v1/enrichment', { configId: LLM, schema, name: 'Pool', prompt: 'x' });
    expect(created.statusCode, created.body).toBe(201);
    const enrichmentId = created.json().id as string;
    const cos: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await c.post('/api/v1/entity/company', { company: { name: `Pool${i}`, website: `pool${i}.example` } });
      expect(res.statusCode, res.body).toBe(201);
      cos.push(res.json().company.id);
    }
    const userId = (
      await ctx.em().execute<{ created_by_id: string }[]>(`select created_by_id from enrichment where id = ?`, [enrichmentId])
    )[0].created_by_id;

    // Another session holds a company row: the request below (an edit of that company, then its
    // event) waits for it on the pool's first connection.
    await outside.query('begin');
    await outside.query('select id from company where id = $1 for update', [cos[0]]);
    let requestPid = 0;
    const request = small.em.fork().transactional(async (tem) => {
      requestPid = (await tem.execute<{ pid: number }[]>('select pg_backend_pid() as pid'))[0].pid;
      await tenantSql(tem, orgId).run(`update company set name = 'Pool0 edited' where id = ? and organization_id = ?`, [cos[0], orgId]);
      await publish(tem, orgId, { path: realtimePaths.entities(orgId), kind: 'test.edited', data: { id: cos[0] } });
    });
    const waiting = async () =>
      (await outside.query<{ n: number }>(`select count(*)::int as n from pg_locks where pid = $1 and not granted`, [requestPid])).rows[0]
        .n > 0;
    for (let i = 0; i < 200 && !(requestPid && (await waiting())); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await waiting()).toBe(true);

    // The run (more rows than its first chunk) on the pool's other connection.
    const em = small.em.fork();
    em.setFilterParams('tenant', { organizationId: orgId });
    let answered = false;
    const run = executeEnrichment(
      em,
      ctx.boss!,
      { organizationId: orgId, userId },
      { enrichmentId, entityType: 'company', entityIds: cos },
      {
        firstChunk: 2,
      },
    ).finally(() => (answered = true));
    run.catch(() => {});
    // The run answers, or its transaction has published its first rows' events (it holds the
    // organization's sequence row): then the held company row is let go.
    const published = async () =>
      (
        await outside.query<{ n: number }>(
          `select count(*)::int as n from pg_locks where relation = 'realtime_event'::regclass and mode = 'RowExclusiveLock' and pid <>
            $1 and pid <> pg_backend_pid()`,
          [requestPid],
        )
      ).rows[0].n > 0;
    for (let i = 0; i < 600 && !answered && !(await published()); i++) await new Promise((r) => setTimeout(r, 50));
    await outside.query('commit');

    // The request's event then waits for the sequence row; the run's transaction must not be
    // waiting for the request's connection meanwhile.
    const [r1, r2] = await Promise.all([within(request, 15_000), within(run, 15_000)]);
    expect(r1).not.toBe('timeout');
    expect(r2).not.toBe('timeout');
    expect(r2).toMatchObject({ count: 6, started: 6, failed: 0 });
  });
});
