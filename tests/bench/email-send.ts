// `npm run bench:email`: 2,000 emails scheduled for the same minute across 50 mailboxes,
// sent by one worker process's email.send workers against the loopback fake of Microsoft Graph (its own process)
// with Exchange Online's per-mailbox limits (30 messages a minute, 4 concurrent requests). Checks
// that each email left exactly once and measures the lateness beyond what the limits force (an
// email that is the n-th of its mailbox in that minute cannot leave before floor(n / 30) minutes
// after the schedule). Writes its section of docs/benchmarks.md. Needs TEST_DATABASE_URL.
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { connectMailbox, ALL_WEEK_HOURS } from '../../server/test/mailbox';
import { startRemoteGraphFake } from './remote-graph-fake';
import pg from 'pg';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { MikroORM } from '@mikro-orm/postgresql';
import { createOrg, createUser, signedIn, type TestClient, type TestContext } from '../../server/test/helpers';
import { loadConfig } from '../../server/src/config';
import { ormConfig } from '../../server/src/orm-config';
import { startBoss } from '../../server/src/jobs/boss';
import { buildApp } from '../../server/src/app';
import { newCompany, newContact, link } from '../../server/test/records';
import { createQueues, startWorkers } from '../../server/src/jobs/definitions';
import { jobDefinitions } from '../../server/src/job-registry';
import { emailSendJob } from '../../server/src/modules/email/send/send.job';

const MAILBOXES = Number(process.env.BENCH_MAILBOXES ?? 50);
const PER_MAILBOX = Number(process.env.BENCH_PER_MAILBOX ?? 40);
// Scheduling 2,000 emails through the API takes about a minute on a loaded 2-core machine: the minute they are due comes after it.
const LEAD_MS = Number(process.env.BENCH_LEAD_MS ?? 150_000);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

// The fake of Graph in a process of its own (Microsoft's side does not run on our CPU in production).
const fake = await startRemoteGraphFake();
const env = {
  O365_CLIENT_ID: fake.clientId,
  O365_CLIENT_SECRET: fake.clientSecret,
  O365_AUTHORITY_URL: fake.url,
  GRAPH_BASE_URL: `${fake.url}/v1.0`,
  JOB_POLL_SECONDS: '0.5',
};
// Its own database on the TEST_DATABASE_URL server, migrated, dropped at the end.
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `dealscout_bench_email_${Date.now()}`;
const withDb = (db: string) => {
  const u = new URL(adminUrl);
  u.pathname = `/${db}`;
  return u.toString();
};
const admin0 = new pg.Client({ connectionString: adminUrl });
await admin0.connect();
await admin0.query(`create database "${dbName}"`);
const logger = pino({ level: 'warn' });
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  PUBLIC_URL: 'http://localhost:3000',
  WEB_DIST: '/nonexistent',
  DATABASE_URL: withDb(dbName),
  ...env,
});
const orm = await MikroORM.init(ormConfig(withDb(dbName), { logger: () => {} }));
await orm.migrator.up();
const boss = await startBoss(withDb(dbName), logger, { supervise: true });
const app = await buildApp({ config, orm, boss, logger });
await app.ready();
const ctx = {
  app,
  orm,
  boss,
  config,
  dbUrl: withDb(dbName),
  em: () => orm.em.fork(),
  close: async () => {
    await app.close();
    await orm.close();
    await admin0.query(`drop database "${dbName}" with (force)`);
    await admin0.end();
  },
} as unknown as TestContext;
await createQueues(ctx.boss!, jobDefinitions, ctx.config);
const { organization, admin } = await createOrg(ctx, { name: 'Bench Mail', maxUser: MAILBOXES + 5 });
const first = await signedIn(ctx, admin.email);
const co = await newCompany(first, { name: 'Target', website: 'https://target.example.com' });
const ct = await newContact(first, { firstName: 'Tia', lastName: 'Target', email: 'tia@target.example.com' });
await link(first, co.id, ct.id);

const reps: { client: TestClient; id: string; mail: string }[] = [];
for (let i = 0; i < MAILBOXES; i += 1) {
  const u = i === 0 ? admin : await createUser(ctx, organization.id, { firstName: `Rep${i}` });
  const client = i === 0 ? first : await signedIn(ctx, u.email);
  await connectMailbox(client, fake, u.email, { workingHours: ALL_WEEK_HOURS });
  reps.push({ client, id: u.id, mail: u.email });
}
// The start of a coming minute; BENCH_WHOLE_MINUTE=0 (the suite's tiny run) takes the moment LEAD_MS
// from now instead of waiting one to two minutes for a minute to start.
const at =
  process.env.BENCH_WHOLE_MINUTE === '0'
    ? new Date(Date.now() + LEAD_MS)
    : new Date(Math.ceil((Date.now() + LEAD_MS + 60_000) / 60_000) * 60_000);
console.log(`scheduling ${MAILBOXES * PER_MAILBOX} emails for ${at.toISOString()}`);
const t0 = Date.now();
for (const r of reps) {
  const drafts = await ctx.em().execute<{ id: string }[]>(
    `insert into channel_email (id, organization_id, owner_id, title, from_address, to_address, cc, subject, body, contact_id,
      company_id, is_ai_email_generated, status, show_to_from_cc, created_at, updated_at)
     select gen_random_uuid(), ?, ?, 'Tia Target', ?, 'tia@target.example.com', '[]', 'Bench', '', ?, ?, false, 'draft', false, now(),
       now() from generate_series(1, ?) returning id`,
    [organization.id, r.id, r.mail, ct.id, co.id, PER_MAILBOX],
  );
  await Promise.all(
    drafts.map(async (d, n) => {
      const res = await r.client.post('/api/v1/email/send-to-email', {
        id: d.id,
        to: 'tia@target.example.com',
        cc: [],
        subject: `Bench ${r.mail} ${n}`,
        body: '<p>Hello</p>',
        scheduledAt: at.toISOString(),
      });
      if (res.statusCode !== 200) throw new Error(res.body);
    }),
  );
}
const scheduleSeconds = (Date.now() - t0) / 1000;
if (process.env.BENCH_ANALYZE !== '0') await ctx.em().execute('analyze');
if (Date.now() > at.getTime()) throw new Error('scheduling took longer than the lead time: raise LEAD_MS');
const loadBefore = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const cpu0 = process.cpuUsage();
const wall0 = Date.now();
await startWorkers(ctx.boss!, [emailSendJob], { orm: ctx.orm, logger, boss: ctx.boss!, config: ctx.config });
const total = MAILBOXES * PER_MAILBOX;
const deadline = Date.now() + 15 * 60_000;
for (;;) {
  const [{ n }] = await ctx
    .em()
    .execute<{ n: number }[]>(`select count(*)::int as n from email_outbox where organization_id = ? and state = 'sent'`, [
      organization.id,
    ]);
  if (n >= total || Date.now() > deadline) break;
  await new Promise((r) => setTimeout(r, 1000));
}
const cpu1 = process.cpuUsage(cpu0);
loop.disable();
const sendingSeconds = (Date.now() - wall0) / 1000;
const [{ jobs }] = await ctx
  .em()
  .execute<{ jobs: number }[]>(`select count(*)::int as jobs from pgboss.job where name = 'email.send' and state = 'completed'`);
const loadAfter = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const work = (emailSendJob.workOptions ?? {}) as { batchSize?: number; localConcurrency?: number; groupConcurrency?: number };
const rows = await ctx
  .em()
  .execute<{ owner_id: string; sent_at: Date | null; state: string }[]>(
    `select owner_id, sent_at, state from email_outbox where organization_id = ? order by owner_id, sent_at`,
    [organization.id],
  );
// Where an email's lateness comes from: its slot (schedule time), its job's pick-up, its claim, its record.
const stages = await ctx.em().execute<{ slot: number; pickup: number | null; claim: number; record: number; attempts: number }[]>(
  `select extract(epoch from o.slot_at - ?::timestamptz) * 1000 as slot,
          (select extract(epoch from min(j.started_on) - o.slot_at) * 1000 from pgboss.job j where j.name = 'email.send' and
            j.data->>'outboxId' = o.id::text) as pickup,
          extract(epoch from o.claimed_at - o.slot_at) * 1000 as claim, extract(epoch from o.sent_at - o.claimed_at) * 1000 as record, o.attempt as attempts
     from email_outbox o where o.organization_id = ? and o.state = 'sent'`,
  [at, organization.id],
);
const ms = (xs: number[]) =>
  `${(pct(xs, 50) / 1000).toFixed(2)} / ${(pct(xs, 95) / 1000).toFixed(2)} / ${(Math.max(...xs) / 1000).toFixed(2)} s`;
const stageLine =
  `slot after the minute ${ms(stages.map((s) => Number(s.slot)))}; job picked up after its ` +
  `slot ${ms(stages.filter((s) => s.pickup !== null).map((s) => Number(s.pickup)))}; claimed after its ` +
  `slot ${ms(stages.map((s) => Number(s.claim)))}; claim to recorded ` +
  `sent ${ms(stages.map((s) => Number(s.record)))}; attempts > ` +
  `1: ${stages.filter((s) => Number(s.attempts) > 1).length}; 429s from the fake: ${await fake.throttledCount()}; ` +
  `event-loop delay p50 / p99 / ` +
  `max ${(loop.percentile(50) / 1e6).toFixed(0)} / ${(loop.percentile(99) / 1e6).toFixed(0)} / ${(loop.max / 1e6).toFixed(0)} ms`;
console.log(stageLine);
const sent = (await fake.sent()).filter((m) => m.subject.startsWith('Bench '));
const distinct = new Set(sent.map((m) => m.subject)).size;
const excess: number[] = [];
const excessByMinute: number[][] = [[], []];
const lateness: number[] = [];
const byOwner = new Map<string, Date[]>();
for (const r of rows) if (r.sent_at) (byOwner.get(r.owner_id) ?? byOwner.set(r.owner_id, []).get(r.owner_id)!).push(new Date(r.sent_at));
for (const times of byOwner.values()) {
  times.sort((a, b) => a.getTime() - b.getTime());
  times.forEach((t, n) => {
    const late = t.getTime() - at.getTime();
    lateness.push(late);
    excess.push(Math.max(0, late - Math.floor(n / 30) * 60_000));
    excessByMinute[Math.min(1, Math.floor(n / 30))].push(Math.max(0, late - Math.floor(n / 30) * 60_000));
  });
}
const byMinuteLine = excessByMinute
  .map(
    (xs, i) =>
      `${i === 0 ? 'the first 30 of each mailbox' : 'the 31st and later'} (${xs.length}): ` +
      `${xs.length ? `${(pct(xs, 50) / 1000).toFixed(1)} / ${(pct(xs, 95) / 1000).toFixed(1)} / ${(Math.max(...xs) / 1000).toFixed(1)} s` : '—'}`,
  )
  .join('; ');
console.log(`beyond the limits, p50 / p95 / max: ${byMinuteLine}`);
const report =
  `## Sending email

\`npm run bench:email\` ` +
  `(tests/bench/email-send.ts), ${new Date().toISOString().slice(0, 10)}: ${total.toLocaleString('en-US')} emails ` +
  `scheduled for the same minute across ${MAILBOXES} mailboxes (${PER_MAILBOX} each), one worker process's ` +
  `\`email.send\` workers ` +
  `(batch ${work.batchSize} × ${work.localConcurrency}` +
  `${work.groupConcurrency ? `, at most ${work.groupConcurrency} per mailbox (pg-boss group concurrency)` : ''}), ` +
  `the loopback fake of Graph in its own process enforcing 30 messages a minute and 4 concurrent requests per ` +
  `mailbox; PostgreSQL on loopback, 2 shared cores.

| figure | value |
|---|---|
| emails recorded sent | ${rows.filter((r) => r.state === 'sent').length} / ${total} |
| messages in the fake's Sent Items | ${sent.length} (${distinct} distinct — ${sent.length - distinct} sent ` +
  `twice) |
| scheduling (${total} POST /email/send-to-email) | ${scheduleSeconds.toFixed(1)} s |
| lateness after the scheduled minute, p50 / p95 / max ` +
  `| ${(pct(lateness, 50) / 1000).toFixed(1)} / ${(pct(lateness, 95) / 1000).toFixed(1)} / ${(Math.max(...lateness) / 1000).toFixed(1)} s |
| lateness beyond what the limits force, p50 / p95 / max ` +
  `| ${(pct(excess, 50) / 1000).toFixed(1)} / ${(pct(excess, 95) / 1000).toFixed(1)} / ${(Math.max(...excess) / 1000).toFixed(1)} s ` +
  `(${byMinuteLine}) |
| email.send jobs run (a job the claim sends back to wait counts again) | ${jobs} |
| CPU of the process (API + workers) while sending, per email ` +
  `| ${((cpu1.user + cpu1.system) / 1000 / total).toFixed(1)} ms ` +
  `(${((cpu1.user + cpu1.system) / 1e6).toFixed(1)} s CPU ` +
  `in ${sendingSeconds.toFixed(0)} s: ${(((cpu1.user + cpu1.system) / 1e6 / sendingSeconds) * 100).toFixed(0)} % ` +
  `of one core) |
| where the lateness comes from (p50 / p95 / max) | ${stageLine} |
| load average (1/5/15 min) when sending started / ended | ${loadBefore} / ${loadAfter} (2 cores) |

The limits force the 31st–40th email of each mailbox into the next minute (the outbox holds them: at most 30 ` +
  `claims a minute per mailbox), which is the difference between the two lateness rows.

${pct(excess, 95) <= 5000 ? 'Within the target (lateness beyond the limits, p95 ≤ 5 s).' : 'Not within the target (lateness beyond the limits, p95 ≤ 5 s).'}
`;
console.log(report);
const file = path.resolve('docs/benchmarks.md');
const doc = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
const start = doc.indexOf('## Sending email');
const next = start < 0 ? -1 : doc.indexOf('\n## ', start + 5);
const updated = start < 0 ? `${doc.trimEnd()}\n\n${report}` : `${doc.slice(0, start)}${report}${next < 0 ? '' : doc.slice(next + 1)}`;
if (process.argv.includes('--write')) fs.writeFileSync(file, updated);
await ctx.boss!.stop({ graceful: false });
await ctx.close();
await fake.close();
process.exit(0);
