// Send pacing (slots.ts): each email's send slot is computed per mailbox at schedule
// time — unique under concurrent scheduling, at most 30 in any rolling minute — and the job starts
// at it, so a job is not sent back to wait; a 429's Retry-After shifts the mailbox's later slots.
// The pure slot arithmetic, then the routes and the send job against real PostgreSQL and the
// loopback fake of Graph.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { connectMailbox, ALL_WEEK_HOURS } from '../../../../test/mailbox';
import { FakeGraphServer } from '../../../../test/fakes/graph-server';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../../test/helpers';
import { newCompany, newContact, link } from '../../../../test/records';
import { createQueues, startWorkers } from '../../../jobs/definitions';
import { jobDefinitions } from '../../../job-registry';
import { deliverOutbox, type DeliverDeps } from './send';
import { emailSendJob } from './send.job';
import { firstFreeSlot, RATE_WINDOW_MS, SLOT_SPACING_MS } from './slots';

const rules = { perMinute: 30, spacingMs: SLOT_SPACING_MS };

/** The most slots in any rolling minute (e - 60 s, e]. */
function busiestMinute(times: number[]): number {
  const s = [...times].sort((a, b) => a - b);
  return Math.max(0, ...s.map((e) => s.filter((x) => x > e - RATE_WINDOW_MS && x <= e).length));
}

describe('send slots (pure)', () => {
  const take = (n: number, from: number, taken: number[] = []) => {
    const all = [...taken].sort((a, b) => a - b);
    const out: number[] = [];
    for (let i = 0; i < n; i += 1) {
      const t = firstFreeSlot(all, all, from, rules);
      out.push(t);
      all.push(t);
      all.sort((a, b) => a - b);
    }
    return out;
  };

  it('a burst of 30 a minute as Exchange allows: 30 slots 100 ms apart, the 31st a minute after the first', () => {
    const from = 1_000_000;
    const slots = take(70, from);
    expect(slots.slice(0, 30)).toEqual(Array.from({ length: 30 }, (_, i) => from + i * SLOT_SPACING_MS));
    expect(slots[30]).toBe(from + RATE_WINDOW_MS);
    expect(slots[60]).toBe(from + 2 * RATE_WINDOW_MS);
    expect(new Set(slots).size).toBe(70);
    expect(busiestMinute(slots)).toBe(30);
    // The n-th slot is never later than the limits force (floor(n / 30) minutes) plus the burst's spread.
    slots.forEach((t, n) => expect(t - from - Math.floor(n / 30) * RATE_WINDOW_MS).toBeLessThan(30 * SLOT_SPACING_MS));
  });

  it('an earlier email does not overfill the minute of a burst already planned later', () => {
    const burst = Array.from({ length: 30 }, (_, i) => 600_000 + i * SLOT_SPACING_MS);
    // 570 s lies in minutes that already hold the whole burst: the first free instant is a minute after the burst began.
    expect(firstFreeSlot(burst, burst, 570_000, rules)).toBe(660_000);
    // Well before the burst: free.
    expect(firstFreeSlot(burst, burst, 500_000, rules)).toBe(500_000);
    // A half-full minute takes it where asked.
    const half = burst.slice(0, 15);
    expect(firstFreeSlot(half, half, 570_000, rules)).toBe(570_000);
  });

  it('keeps to the send window (align) and away from taken instants', () => {
    const align = (t: number) => (t % 10_000 < 5_000 ? t : Math.ceil(t / 10_000) * 10_000); // open the first half of every 10 s
    expect(firstFreeSlot([], [], 7_000, { ...rules, align })).toBe(10_000);
    expect(firstFreeSlot([10_000], [10_000], 10_000, { ...rules, align })).toBe(10_100);
    expect(firstFreeSlot([10_050], [10_050], 10_000, { ...rules, align })).toBe(10_150);
  });
});

describe('send pacing (routes, job, fake Graph)', () => {
  let ctx: TestContext;
  let fake: FakeGraphServer;
  let orgId: string;
  let contactId: string;
  const reps: { client: TestClient; id: string; mail: string }[] = [];
  const sql = <T = Record<string, unknown>>(q: string, p: unknown[] = []) => ctx.em().execute<T[]>(q, p);
  const deps = (): DeliverDeps => ({ em: ctx.em(), boss: ctx.boss!, config: ctx.config });

  async function drafts(ownerId: string, mail: string, n: number): Promise<string[]> {
    const rows = await sql<{ id: string }>(
      `insert into channel_email (id, organization_id, owner_id, title, from_address, to_address, cc, subject, body, contact_id,
        is_ai_email_generated, status, show_to_from_cc, created_at, updated_at)
       select gen_random_uuid(), ?, ?, 'Ann Buyer', ?, 'ann.buyer@example.com', '[]', 'Pacing', '', ?, false, 'draft', false, now(),
         now() from generate_series(1, ?) returning id`,
      [orgId, ownerId, mail, contactId, n],
    );
    return rows.map((r) => r.id);
  }
  async function schedule(r: (typeof reps)[number], ids: string[], at: Date) {
    const answers = await Promise.all(
      ids.map(async (id, n) => {
        const res = await r.client.post('/api/v1/email/send-to-email', {
          id,
          to: 'ann.buyer@example.com',
          cc: [],
          subject: `Pacing ${r.mail} ${n}`,
          body: '<p>Hello</p>',
          scheduledAt: at.toISOString(),
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as { sendAt: string };
      }),
    );
    return answers.map((a) => new Date(a.sendAt).getTime());
  }
  const rowsOf = (ids: string[]) =>
    sql<{ id: string; state: string; slot_at: Date | null; send_after: Date; sent_at: Date | null; channel_email_id: string }>(
      `select id, state, slot_at, send_after, sent_at, channel_email_id from email_outbox where channel_email_id = any(?::uuid[]) order by slot_at, id`,
      [`{${ids.join(',')}}`],
    );

  beforeAll(async () => {
    fake = await FakeGraphServer.start();
    ctx = await createTestApp({
      boss: true,
      env: {
        O365_CLIENT_ID: fake.clientId,
        O365_CLIENT_SECRET: fake.clientSecret,
        O365_AUTHORITY_URL: fake.url,
        GRAPH_BASE_URL: `${fake.url}/v1.0`,
        GRAPH_TIMEOUT_MS: '1500',
        JOB_POLL_SECONDS: '0.5',
      },
    });
    await createQueues(ctx.boss!, jobDefinitions, ctx.config);
    const o = await createOrg(ctx, { name: 'Pacing Co' });
    orgId = o.organization.id;
    const first = await signedIn(ctx, o.admin.email);
    const co = await newCompany(first, { name: 'Buyer Inc', website: 'https://buyer.example.com' });
    const ct = await newContact(first, { firstName: 'Ann', lastName: 'Buyer', email: 'ann.buyer@example.com' });
    await link(first, co.id, ct.id);
    contactId = ct.id;
    for (let i = 0; i < 3; i += 1) {
      const u = i === 0 ? o.admin : await createUser(ctx, orgId, { firstName: `Rep${i}` });
      const client = i === 0 ? first : await signedIn(ctx, u.email);
      await connectMailbox(client, fake, u.email, { workingHours: ALL_WEEK_HOURS });
      reps.push({ client, id: u.id, mail: u.email });
    }
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  /**
   * t, or 00:01 UTC of the next day when [t, t + spanMs] touches 23:59–24:00 UTC: the test mailboxes' working
   * hours (ALL_WEEK_HOURS) end at 23:59, so a slot in that minute moves to the next day.
   */
  const clearOfDayEnd = (t: number, spanMs: number): number => {
    const d = new Date(t);
    const dayEnd = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 23, 59);
    return t < dayEnd + 60_000 && t + spanMs > dayEnd ? dayEnd + 120_000 : t;
  };

  it(
    '35 emails of one mailbox scheduled at once for the same minute: distinct slots, 30 in the first burst, the ' +
      'rest a minute later; another mailbox is not held up; the panel says when',
    async () => {
      const at = new Date(clearOfDayEnd(Math.ceil((Date.now() + 3_600_000) / 60_000) * 60_000, 3_600_000 + 5 * 60_000));
      const [a, b] = reps;
      const ids = await drafts(a.id, a.mail, 35);
      const answered = await schedule(a, ids, at);
      const rows = await rowsOf(ids);
      const slots = rows.map((r) => new Date(r.slot_at!).getTime());
      expect(new Set(slots).size).toBe(35);
      expect([...answered].sort((x, y) => x - y)).toEqual(slots);
      expect(rows.every((r) => new Date(r.send_after).getTime() === new Date(r.slot_at!).getTime())).toBe(true);
      expect(busiestMinute(slots)).toBe(30);
      expect(slots.filter((t) => t < at.getTime() + RATE_WINDOW_MS)).toHaveLength(30);
      expect(Math.max(...slots.slice(0, 30))).toBeLessThan(at.getTime() + 30 * SLOT_SPACING_MS);
      expect(Math.min(...slots.slice(30))).toBe(at.getTime() + RATE_WINDOW_MS);
      // The activity says when it leaves: its slot.
      const [act] = await sql<{ due_date: Date }>(`select due_date from activity where source_id = ?`, [rows[34].channel_email_id]);
      expect(new Date(act.due_date).getTime()).toBe(slots[34]);
      // The panel's 'Leaves …' for one more email of this mailbox at that time: after the queue.
      const peek = (await a.client.post('/api/v1/email/send-time', { scheduledAt: at.toISOString() })).json();
      expect(peek).toMatchObject({ moved: false, queued: true });
      expect(new Date(peek.sendAt).getTime()).toBe(at.getTime() + RATE_WINDOW_MS + 5 * SLOT_SPACING_MS);
      // Another mailbox has its own ledger.
      const other = await schedule(b, await drafts(b.id, b.mail, 2), at);
      expect(other.sort()).toEqual([at.getTime(), at.getTime() + SLOT_SPACING_MS]);
      expect(
        (await b.client.post('/api/v1/email/send-time', { scheduledAt: new Date(at.getTime() + 3_600_000).toISOString() })).json(),
      ).toMatchObject({ moved: false, queued: false });
      // Cancel Send & Edit frees the slot (the partial unique index only holds waiting, leaving and sent rows).
      expect(
        (await a.client.post('/api/v1/email/update-email-status', { id: rows[0].channel_email_id, status: 'draft' })).json(),
      ).toMatchObject({ status: 'draft' });
      const again = await schedule(a, [rows[0].channel_email_id], at);
      expect(again).toEqual([at.getTime()]);
      await sql(`update email_outbox set state = 'cancelled', slot_at = null where channel_email_id = any(?::uuid[])`, [
        `{${ids.join(',')}}`,
      ]);
    },
  );

  it('the send job starts at the slot: each email sent once by one job (none sent back to wait), not long after its slot', async () => {
    const at = new Date(Date.now() + 3_000);
    const ids0 = await drafts(reps[1].id, reps[1].mail, 6);
    const ids1 = await drafts(reps[2].id, reps[2].mail, 6);
    await Promise.all([schedule(reps[1], ids0, at), schedule(reps[2], ids1, at)]);
    const ids = [...ids0, ...ids1];
    await startWorkers(ctx.boss!, [emailSendJob], { orm: ctx.orm, logger: ctx.app.log as never, boss: ctx.boss!, config: ctx.config });
    const deadline = Date.now() + 60_000;
    let rows = await rowsOf(ids);
    while (rows.some((r) => r.state !== 'sent') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      rows = await rowsOf(ids);
    }
    expect(rows.map((r) => r.state)).toEqual(Array(12).fill('sent'));
    for (const r of rows) {
      expect(fake.sent().filter((m) => m.singleValueExtendedProperties.some((p) => p.value === r.id))).toHaveLength(1);
      expect(new Date(r.sent_at!).getTime()).toBeGreaterThanOrEqual(new Date(r.slot_at!).getTime() - 1000);
    }
    // One job per email: no claim sent a job back to wait (the slot was free when the job started).
    const jobs = await sql<{ outbox: string; n: number }>(
      `select data->>'outboxId' as outbox, count(*)::int as n from pgboss.job where name = 'email.send' and data->>'outboxId' = any(?::text[]) group by 1`,
      [`{${rows.map((r) => r.id).join(',')}}`],
    );
    expect(jobs.map((j) => j.n)).toEqual(Array(12).fill(1));
    // Lateness beyond the slot: bounded (generous, not a timing benchmark — `npm run bench:email` measures it).
    expect(Math.max(...rows.map((r) => new Date(r.sent_at!).getTime() - new Date(r.slot_at!).getTime()))).toBeLessThan(30_000);
    await ctx.boss!.offWork(emailSendJob.queue);
  });

  it(
    "at most 4 requests at once to a mailbox from this process (Exchange's concurrency limit); a 429 " +
      'MailboxConcurrency retries that email alone and moves no slot',
    async () => {
      const now = Date.now();
      const due = async (r: (typeof reps)[number], n: number, from = now - 5_000) => {
        const ids = await drafts(r.id, r.mail, n);
        await schedule(r, ids, new Date(now + 3_600_000));
        const rows = await rowsOf(ids);
        for (const [i, row] of rows.entries())
          await sql(`update email_outbox set slot_at = ?, send_after = ? where id = ?`, [
            new Date(from + i * SLOT_SPACING_MS),
            new Date(from + i * SLOT_SPACING_MS),
            row.id,
          ]);
        return rowsOf(ids);
      };
      // Ten due emails of one mailbox delivered at once: the fifth and later wait for a place, none is refused.
      const throttled = fake.throttledCount;
      const ten = await due(reps[1], 10);
      fake.latencyMs = 100; // each request takes a while, so the deliveries overlap
      try {
        expect(await Promise.all(ten.map((x) => deliverOutbox(deps(), orgId, x.id)))).toEqual(Array(10).fill('sent'));
      } finally {
        fake.latencyMs = 0;
      }
      expect(fake.peakInFlight.get(reps[1].mail.toLowerCase())).toBeLessThanOrEqual(4);
      expect(fake.throttledCount).toBe(throttled);
      // Recorded together (group commits): each email sent, its activity no longer scheduled, and one
      // 'activity updated' event per email for the clients.
      const emails = ten.map((x) => x.channel_email_id);
      expect(
        (await sql<{ status: string }>(`select status from channel_email where id = any(?::uuid[])`, [`{${emails.join(',')}}`])).map(
          (e) => e.status,
        ),
      ).toEqual(Array(10).fill('sent'));
      const acts = await sql<{ id: string; status: string | null }>(
        `select id, status from activity where source = 'email' and source_id = any(?::text[])`,
        [`{${emails.join(',')}}`],
      );
      expect(acts.map((a) => a.status)).toEqual(Array(10).fill(null));
      const events = await sql<{ id: string }>(
        `select data->>'id' as id from realtime_event where organization_id = ? and kind = 'activity.updated' and data->>'id' =
        any(?::text[]) and data->>'status' is null`,
        [orgId, `{${acts.map((a) => a.id).join(',')}}`],
      );
      expect(new Set(events.map((e) => e.id)).size).toBe(10);
      // A mailbox that takes one request at a time (another client of it is busy): the refused ones
      // go back to the queue for Retry-After (1 s) with their slots, and the mailbox's waiting email keeps its own.
      const three = await due(reps[2], 3);
      const [waiting] = await due(reps[2], 1, now + 600_000);
      fake.limits.concurrentRequests = 1;
      try {
        const outcomes = await Promise.all(three.map((x) => deliverOutbox(deps(), orgId, x.id)));
        expect(outcomes.filter((o) => o === 'deferred').length).toBeGreaterThan(0);
        expect(fake.throttledCount).toBeGreaterThan(throttled);
      } finally {
        fake.limits.concurrentRequests = 4;
      }
      const after = await rowsOf(three.map((x) => x.channel_email_id));
      expect(after.map((x) => new Date(x.slot_at!).getTime()).sort()).toEqual(three.map((x) => new Date(x.slot_at!).getTime()).sort());
      expect(new Date((await rowsOf([waiting.channel_email_id]))[0].slot_at!).getTime()).toBe(now + 600_000);
      for (const x of after.filter((y) => y.state === 'queued')) {
        expect(new Date(x.send_after).getTime()).toBeGreaterThan(now);
        await sql(`update email_outbox set send_after = now() where id = ?`, [x.id]);
        expect(await deliverOutbox(deps(), orgId, x.id)).toBe('sent');
      }
      for (const x of three)
        expect(fake.sent().filter((m) => m.singleValueExtendedProperties.some((p) => p.value === x.id))).toHaveLength(1);
      await sql(`update email_outbox set state = 'cancelled', slot_at = null where id = ?`, [waiting.id]);
    },
  );

  it("a 429's Retry-After shifts the throttled email and the mailbox's later waiting ones past it, in order; each is then sent once", async () => {
    const r = reps[0];
    const ids = await drafts(r.id, r.mail, 4);
    await schedule(r, ids, new Date(Date.now() + 3_600_000));
    const before = await rowsOf(ids);
    const now = Date.now();
    // Make them due now (their slots too, as if scheduled for now), then the first send is throttled for 20 s.
    for (const [n, row] of before.entries())
      await sql(`update email_outbox set slot_at = ?, send_after = ? where id = ?`, [
        new Date(now + n * SLOT_SPACING_MS),
        new Date(now + n * SLOT_SPACING_MS),
        row.id,
      ]);
    fake.fault(/POST \/v1\.0\/me\/messages\/[^/]+\/send$/, { kind: 'status', status: 429, retryAfter: 20 });
    expect(await deliverOutbox(deps(), orgId, before[0].id)).toBe('deferred');
    const after = await rowsOf(ids);
    expect(after.map((x) => x.id)).toEqual(before.map((x) => x.id));
    expect(after.map((x) => x.state)).toEqual(Array(4).fill('queued'));
    const slots = after.map((x) => new Date(x.slot_at!).getTime());
    expect(slots[0]).toBeGreaterThanOrEqual(now + 19_000);
    expect(new Set(slots).size).toBe(4);
    // A job that comes at an old slot is sent on to the new one.
    expect(await deliverOutbox(deps(), orgId, after[1].id)).toBe('deferred');
    // At the new slots: each sent once (the message created before the 429 is found and sent, not created again).
    for (const x of after) await sql(`update email_outbox set send_after = now() where id = ?`, [x.id]);
    for (const x of after) expect(await deliverOutbox(deps(), orgId, x.id)).toBe('sent');
    for (const x of after) expect(fake.sent().filter((m) => m.singleValueExtendedProperties.some((p) => p.value === x.id))).toHaveLength(1);
  });
});
