import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Job } from 'pg-boss';
import pino from 'pino';
import { createTestApp, createOrg, createUser, type TestContext } from '../../test/helpers';
import { enqueueInTransaction, BOSS_SCHEMA } from './boss';
import { createQueues, startWorkers, defineJob } from './definitions';
import { jobDefinitions } from '../job-registry';
import { cleanupJob } from './cleanup.job';
import { z } from 'zod';
import { Organization } from '../db/organization.entity';

describe('pg-boss plumbing and the transactional enqueue helper', () => {
  let ctx: TestContext;
  const queue = 'test.transactional';

  beforeAll(async () => {
    ctx = await createTestApp({ boss: true });
    await ctx.boss!.createQueue(queue);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const jobsIn = async (name: string) =>
    ctx
      .em()
      .getConnection()
      .execute<{ id: string; data: Record<string, unknown> }[]>(`select id, data from ${BOSS_SCHEMA}.job where name = ?`, [name]);

  it('a job enqueued in a transaction that rolls back does not exist (nor does the row written with it)', async () => {
    const em = ctx.em();
    let jobId: string | null = null;
    await expect(
      em.transactional(async (tem) => {
        tem.create(Organization, { name: 'Rolled Back Org', maxUser: 1 });
        await tem.flush();
        jobId = await enqueueInTransaction(ctx.boss!, tem, queue, { marker: 'rollback' });
        expect(jobId).toEqual(expect.any(String)); // pg-boss accepted it inside the transaction
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(jobId).not.toBeNull();
    expect((await jobsIn(queue)).filter((j) => j.data.marker === 'rollback')).toEqual([]);
    expect(await ctx.boss!.getJobById(queue, jobId!)).toBeNull();
    expect(await ctx.em().count(Organization, { name: 'Rolled Back Org' })).toBe(0);
  });

  it('a job enqueued in a transaction is not visible before the commit', async () => {
    const em = ctx.em();
    await em.transactional(async (tem) => {
      const id = await enqueueInTransaction(ctx.boss!, tem, queue, { marker: 'in-flight' });
      // Another connection does not see the uncommitted job yet.
      expect(await ctx.boss!.getJobById(queue, id!)).toBeNull();
      expect((await jobsIn(queue)).filter((j) => j.data.marker === 'in-flight')).toEqual([]);
    });
    expect((await jobsIn(queue)).filter((j) => j.data.marker === 'in-flight')).toHaveLength(1);
  });

  it('a job enqueued in a transaction that commits exists and a worker receives it', async () => {
    const q = 'test.committed';
    await ctx.boss!.createQueue(q);
    const em = ctx.em();
    const jobId = await em.transactional(async (tem) => {
      tem.create(Organization, { name: 'Committed Org', maxUser: 1 });
      await tem.flush();
      return enqueueInTransaction(ctx.boss!, tem, q, { marker: 'commit', n: 42 });
    });
    expect(jobId).toEqual(expect.any(String));
    expect(await jobsIn(q)).toEqual([{ id: jobId, data: { marker: 'commit', n: 42 } }]);
    expect(await ctx.em().count(Organization, { name: 'Committed Org' })).toBe(1);

    const received = new Promise<Job<object>>((resolve) => {
      void ctx.boss!.work(q, { pollingIntervalSeconds: 0.5 }, async (jobs: Job<object>[]) => {
        resolve(jobs[0]);
      });
    });
    const job = await Promise.race([
      received,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no job received')), 10_000)),
    ]);
    expect(job.id).toBe(jobId);
    expect(job.data).toEqual({ marker: 'commit', n: 42 });
    await ctx.boss!.offWork(q);
  });

  it('refuses to enqueue outside a transaction', async () => {
    await expect(enqueueInTransaction(ctx.boss!, ctx.em(), queue, { marker: 'outside' })).rejects.toThrow(
      'enqueueInTransaction must run inside em.transactional()',
    );
    expect((await jobsIn(queue)).filter((j) => j.data.marker === 'outside')).toEqual([]);
  });

  it('createQueues and startWorkers run a defined job with its validated payload', async () => {
    const seen: unknown[] = [];
    let done!: () => void;
    const finished = new Promise<void>((r) => {
      done = r;
    });
    const def = defineJob({
      queue: 'test.defined',
      schema: z.object({ n: z.number() }),
      async handle(data) {
        seen.push(data);
        done();
      },
    });
    await createQueues(ctx.boss!, [def]);
    const logger = pino({ level: 'silent' });
    await startWorkers(ctx.boss!, [def], { orm: ctx.orm, logger, boss: ctx.boss! });
    await ctx.boss!.send('test.defined', { n: 7 });
    await Promise.race([finished, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('job not handled')), 10_000))]);
    expect(seen).toEqual([{ n: 7 }]);
    await ctx.boss!.offWork('test.defined');
  });

  it('every registered job has a queue, a schema and a handler; the queues can be created', async () => {
    expect(jobDefinitions.length).toBeGreaterThan(0);
    expect(new Set(jobDefinitions.map((d) => d.queue)).size).toBe(jobDefinitions.length);
    await createQueues(ctx.boss!, jobDefinitions);
    for (const d of jobDefinitions) expect(await ctx.boss!.getQueue(d.queue)).toMatchObject({ name: d.queue });
  });

  it('the nightly cleanup forgets expired sessions, old reset tokens and throttle counters, and expires invitations', async () => {
    const { organization, admin } = await createOrg(ctx, { name: 'Cleanup Co' });
    const user = await createUser(ctx, organization.id);
    const conn = ctx.em().getConnection();
    const org = organization.id;
    await conn.execute(
      `insert into session (id, organization_id, user_id, kind, token_hash, created_at, last_seen_at, expires_at)
      values (gen_random_uuid(), ?, ?, 'cookie', 'old-session', now(), now(), now() - interval '8 days'),
             (gen_random_uuid(), ?, ?, 'cookie', 'live-session', now(), now(), now() + interval '1 day')`,
      [org, user.id, org, user.id],
    );
    await conn.execute(
      `insert into password_reset (id, organization_id, user_id, token_hash, expires_at, created_at)
      values (gen_random_uuid(), ?, ?, 'old-reset', now() - interval '2 days', now() - interval '2 days'),
             (gen_random_uuid(), ?, ?, 'live-reset', now() + interval '30 minutes', now())`,
      [org, user.id, org, user.id],
    );
    await conn.execute(
      `insert into login_throttle (key, failures, window_start) values ('acct:old@example.com', 3, now() - interval '2 days'),
        ('acct:new@example.com', 1, now())`,
    );
    await conn.execute(
      `insert into invitation (id, organization_id, email, role, token_hash, invited_by_id, status, expires_at, created_at)
      values (gen_random_uuid(), ?, 'stale@example.com', 'User', 'stale-invite', ?, 'pending', now() - interval '1 minute', now()),
             (gen_random_uuid(), ?, 'fresh@example.com', 'User', 'fresh-invite', ?, 'pending', now() + interval '1 day', now())`,
      [org, admin.id, org, admin.id],
    );

    await cleanupJob.handle({}, { orm: ctx.orm, logger: pino({ level: 'silent' }), boss: ctx.boss! }, {} as Job);

    expect(
      (await conn.execute<{ token_hash: string }[]>(`select token_hash from session where organization_id = ?`, [org])).map(
        (r) => r.token_hash,
      ),
    ).toEqual(['live-session']);
    expect(
      (await conn.execute<{ token_hash: string }[]>(`select token_hash from password_reset where organization_id = ?`, [org])).map(
        (r) => r.token_hash,
      ),
    ).toEqual(['live-reset']);
    const keys = (await conn.execute<{ key: string }[]>(`select key from login_throttle`)).map((r) => r.key);
    expect(keys).toContain('acct:new@example.com');
    expect(keys).not.toContain('acct:old@example.com');
    const invites = await conn.execute<{ email: string; status: string }[]>(
      `select email, status from invitation where organization_id = ? order by email`,
      [org],
    );
    expect(invites).toEqual([
      { email: 'fresh@example.com', status: 'pending' },
      { email: 'stale@example.com', status: 'expired' },
    ]);
  });
});
