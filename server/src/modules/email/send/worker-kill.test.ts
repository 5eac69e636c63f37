// kill -9 of a real worker process (server/src/main.ts --role worker) between Microsoft Graph's
// send and the database update: the fake Graph sends the message and never answers,
// the worker is killed in that moment, and a new worker finishes the run. Every email leaves the
// mailbox exactly once and is recorded sent.
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { startWorkerProcess, killWorkers, type WorkerProcess } from '../../../../test/worker-process';
import { connectMailbox, ALL_WEEK_HOURS } from '../../../../test/mailbox';
import { FakeGraphServer } from '../../../../test/fakes/graph-server';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../../test/helpers';
import { eventually } from '../../../../test/execution-harness';
import { newCompany, newContact, link } from '../../../../test/records';
import { createQueues } from '../../../jobs/definitions';
import { jobDefinitions } from '../../../job-registry';

const EMAILS = 6;

describe('worker process killed between the send and the database update', () => {
  let ctx: TestContext;
  let fake: FakeGraphServer;
  let env: Record<string, string>;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    fake = await FakeGraphServer.start();
    env = {
      O365_CLIENT_ID: fake.clientId,
      O365_CLIENT_SECRET: fake.clientSecret,
      O365_AUTHORITY_URL: fake.url,
      GRAPH_BASE_URL: `${fake.url}/v1.0`,
      // A short call cap keeps the lease (3 × this + 15 s) short enough for a test.
      GRAPH_TIMEOUT_MS: '3000',
      JOB_HEARTBEAT_SECONDS: '10',
      JOB_SUPERVISE_SECONDS: '2',
    };
    ctx = await createTestApp({ boss: true, env });
    await createQueues(ctx.boss!, jobDefinitions, ctx.config);
  });
  afterEach(async () => {
    await killWorkers(workers);
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  async function startWorker(): Promise<WorkerProcess> {
    const w = await startWorkerProcess(ctx.dbUrl, { ...env });
    workers.push(w);
    return w;
  }

  it('kill -9 while Graph has sent but not answered: a new worker records it, nothing leaves twice', async () => {
    const { admin } = await createOrg(ctx, { name: 'Killmail' });
    const rep: TestClient = await signedIn(ctx, admin.email);
    await connectMailbox(rep, fake, admin.email, { workingHours: ALL_WEEK_HOURS });
    const co = await newCompany(rep, { name: 'Target Co', website: 'https://target.example.com' });
    const ct = await newContact(rep, { firstName: 'Tom', lastName: 'Target', email: 'tom@target.example.com' });
    await link(rep, co.id, ct.id);

    // The first send is carried out by the mailbox and never answered; the worker is killed then.
    fake.fault(/POST \/v1\.0\/me\/messages\/[^/]+\/send$/, { kind: 'doneThenHang' });
    const first = await startWorker();
    const ids: string[] = [];
    for (let i = 0; i < EMAILS; i += 1) {
      const d = await rep.post('/api/v1/email/draft', { contactId: ct.id });
      const id = d.json().email.channelEmailId as string;
      ids.push(id);
      const res = await rep.post('/api/v1/email/send-to-email', {
        id,
        to: 'tom@target.example.com',
        cc: [],
        subject: `Kill ${i}`,
        body: `<p>Kill ${i}</p>`,
        scheduledAt: new Date(Date.now() + 2_000).toISOString(),
      });
      expect(res.json().message).toBe('Email scheduled successfully.');
    }
    const mine = () => fake.sent(admin.email).filter((m) => m.subject.startsWith('Kill '));
    await eventually(async () => (mine().length >= 1 ? true : undefined), 'the first send to reach the mailbox', 60_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const sentBeforeKill = mine().length;

    await startWorker();
    await eventually(
      async () => {
        const rows = await ctx
          .em()
          .execute<{ n: number }[]>(
            `select count(*)::int as n from channel_email where id in (select (jsonb_array_elements_text(?::jsonb))::uuid) and status = 'sent'`,
            [JSON.stringify(ids)],
          );
        return rows[0].n === EMAILS ? true : undefined;
      },
      'every email recorded sent',
      120_000,
    );
    const subjects = mine()
      .map((m) => m.subject)
      .sort();
    expect(subjects).toEqual(Array.from({ length: EMAILS }, (_, i) => `Kill ${i}`).sort());
    expect(sentBeforeKill).toBeGreaterThanOrEqual(1);
    const outbox = await ctx
      .em()
      .execute<{ state: string; n: number }[]>(
        `select state, count(*)::int as n from email_outbox where channel_email_id in (select (jsonb_array_elements_text(?::jsonb))::uuid) group by state`,
        [JSON.stringify(ids)],
      );
    expect(outbox).toEqual([{ state: 'sent', n: EMAILS }]);
    // The email caught by the kill was finished by a second attempt, which found it already sent.
    const [{ max }] = await ctx
      .em()
      .execute<{ max: number }[]>(
        `select max(attempt)::int as max from email_outbox where channel_email_id in (select (jsonb_array_elements_text(?::jsonb))::uuid)`,
        [JSON.stringify(ids)],
      );
    expect(max).toBeGreaterThanOrEqual(2);
  }, 240_000);
});
