// The reply follower, against real PostgreSQL and the loopback fake of Graph: the
// Inbox delta query per connected mailbox (paged, resumed from the stored link), a reply in the
// conversation of a sent email marks its activity replied and cancels the contact's scheduled
// emails of the same play (others untouched), a crash mid-round repeats nothing, an expired delta
// state starts a new round, another organization's mailbox is out of reach, and the minute sweep
// enqueues one job per mailbox. Also: a reply to a received message leaves through createReply.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { connectMailbox } from '../../../../test/mailbox';
import { FakeGraphServer } from '../../../../test/fakes/graph-server';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../../test/helpers';
import { newCompany, newContact, link } from '../../../../test/records';
import { createQueues } from '../../../jobs/definitions';
import { jobDefinitions } from '../../../job-registry';
import { followInbox, REPLY_MAILBOX_QUEUE, REPLY_CANCELLED_NOTE } from './replies';
import { replySweepJob } from './replies.job';
import { deliverOutbox } from '../send/send';

const ALL_DAY = {
  daysOfWeek: ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'],
  startTime: '00:00:00.0000000',
  endTime: '23:59:00.0000000',
  timeZone: { name: 'UTC' },
};

describe('reply follower (Inbox delta query)', () => {
  let ctx: TestContext;
  let fake: FakeGraphServer;
  let rep: TestClient;
  let rival: TestClient;
  let orgId: string;
  let rivalOrgId: string;
  let repEmail: string;
  let rivalEmail: string;
  let ann: string;
  let bob: string;
  let integrationId: string;
  let rivalIntegrationId: string;
  const logger = pino({ level: 'silent' });

  const sql = <T = Record<string, unknown>>(q: string, p: unknown[] = []) => ctx.em().execute<T[]>(q, p);
  const follow = (org = orgId, integration = integrationId, pageSize?: number) =>
    followInbox({ em: ctx.em(), config: ctx.config, logger }, org, integration, { pageSize });

  const connect = (c: TestClient, mail: string) => connectMailbox(c, fake, mail);
  /** A draft of a play for a contact, sent now or scheduled. */
  async function email(
    c: TestClient,
    contactId: string,
    to: string,
    playId: string | null,
    scheduledAt?: string,
    extra: Record<string, unknown> = {},
  ) {
    const d = await c.post('/api/v1/email/draft', { contactId });
    expect(d.statusCode, d.body).toBe(201);
    const id = d.json().email.channelEmailId as string;
    if (playId) await sql(`update channel_email set play_id = ? where id = ?`, [playId, id]);
    const res = await c.post('/api/v1/email/send-to-email', {
      id,
      contactId,
      to,
      cc: [],
      subject: 'Step',
      body: '<p>Hello</p>',
      ...(scheduledAt ? { scheduledAt } : {}),
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [o] = await sql<{ id: string; graph_message_id: string | null; state: string }>(
      `select id, graph_message_id, state from email_outbox where channel_email_id = ? order by created_at desc limit 1`,
      [id],
    );
    return { id, outbox: o };
  }
  const state = async (emailId: string) =>
    (
      await sql<{
        status: string;
        status_message: string | null;
        outbox: string;
        replied_at: Date | null;
        activity_status: string | null;
        activity_replied: Date | null;
        activities: string;
      }>(
        `select e.status, e.status_message, o.state as outbox, o.replied_at,
            (select a.status from activity a where a.source_id = e.id::text limit 1) as activity_status,
            (select a.replied_at from activity a where a.source_id = e.id::text limit 1) as activity_replied,
            (select count(*) from activity a where a.source_id = e.id::text) as activities
       from channel_email e left join email_outbox o on o.channel_email_id = e.id where e.id = ? order by o.created_at desc limit 1`,
        [emailId],
      )
    )[0];

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
      },
    });
    await createQueues(ctx.boss!, jobDefinitions, ctx.config);
    const o = await createOrg(ctx, { name: 'Reply Co' });
    orgId = o.organization.id;
    repEmail = o.admin.email;
    rep = await signedIn(ctx, repEmail);
    const r = await createOrg(ctx, { name: 'Rival' });
    rivalOrgId = r.organization.id;
    rivalEmail = r.admin.email;
    rival = await signedIn(ctx, rivalEmail);
    fake.addUser({ mail: repEmail, workingHours: ALL_DAY });
    fake.addUser({ mail: rivalEmail, workingHours: ALL_DAY });
    await connect(rep, repEmail);
    await connect(rival, rivalEmail);
    integrationId = (
      await sql<{ id: string }>(`select id from integration where organization_id = ? and provider = 'office365'`, [orgId])
    )[0].id;
    rivalIntegrationId = (
      await sql<{ id: string }>(`select id from integration where organization_id = ? and provider = 'office365'`, [rivalOrgId])
    )[0].id;
    const co = await newCompany(rep, { name: 'Buyer Inc', website: 'https://buyer.example.com' });
    ann = (await newContact(rep, { firstName: 'Ann', lastName: 'Buyer', email: 'ann@buyer.example.com' })).id;
    bob = (await newContact(rep, { firstName: 'Bob', lastName: 'Buyer', email: 'bob@buyer.example.com' })).id;
    await link(rep, co.id, ann);
    await link(rep, co.id, bob);
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  it(
    "a reply marks the sent email's activity replied and cancels the contact's scheduled emails of that play only; " +
      'a second run finds nothing new',
    async () => {
      const play = randomUUID();
      const other = randomUUID();
      const first = await email(rep, ann, 'ann@buyer.example.com', play);
      expect(first.outbox.state).toBe('sent');
      const step2 = await email(rep, ann, 'ann@buyer.example.com', play, '2031-03-04T10:00:00Z');
      const otherPlay = await email(rep, ann, 'ann@buyer.example.com', other, '2031-03-04T10:00:00Z');
      const bobStep = await email(rep, bob, 'bob@buyer.example.com', play, '2031-03-04T10:00:00Z');
      // Noise in the Inbox (several pages of 2), then Ann's answer in the thread.
      for (let i = 0; i < 4; i += 1) fake.receive(repEmail, { from: `news${i}@example.com` });
      fake.receive(repEmail, { from: 'ann@buyer.example.com', inReplyTo: first.outbox.graph_message_id! });
      const r = await follow(orgId, integrationId, 2);
      expect(r).toMatchObject({ replies: 1, cancelled: 1, pages: 3 });
      expect(await state(first.id)).toMatchObject({
        status: 'sent',
        outbox: 'sent',
        replied_at: expect.anything(),
        activity_replied: expect.anything(),
        activity_status: null,
      });
      expect(await state(step2.id)).toMatchObject({
        status: 'cancelled',
        status_message: REPLY_CANCELLED_NOTE,
        outbox: 'cancelled',
        activities: '0',
      });
      expect(await state(otherPlay.id)).toMatchObject({ status: 'scheduled', outbox: 'queued', activity_status: 'scheduled' });
      expect(await state(bobStep.id)).toMatchObject({ status: 'scheduled', outbox: 'queued', activity_status: 'scheduled' });
      // The cancelled one never leaves, whatever job still comes for it.
      expect(await deliverOutbox({ em: ctx.em(), boss: ctx.boss!, config: ctx.config }, orgId, step2.outbox.id)).toBe('skipped');
      // The Activities tab sees repliedAt.
      const [act] = await sql<{ id: string }>(`select id from activity where source_id = ?`, [first.id]);
      const got = await rep.get(`/api/v1/activity/participant/${act.id}`);
      expect(got.json().activity.repliedAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
      // Next round: only what changed since (nothing), from the stored deltaLink.
      const [sync] = await sql<{ delta_link: string | null; next_link: string | null; replies: number }>(
        `select delta_link, next_link, replies from mailbox_sync where integration_id = ?`,
        [integrationId],
      );
      expect(sync).toMatchObject({ next_link: null, replies: 1, delta_link: expect.stringContaining('$deltatoken=') });
      expect(await follow()).toMatchObject({ replies: 0, cancelled: 0, pages: 1 });
      // A second answer in the same thread changes nothing more.
      fake.receive(repEmail, { from: 'ann@buyer.example.com', inReplyTo: first.outbox.graph_message_id! });
      expect(await follow()).toMatchObject({ replies: 0, cancelled: 0 });
    },
  );

  it('a crash mid-round (a page that fails) resumes from the stored nextLink: each reply is applied once', async () => {
    const play = randomUUID();
    const a = await email(rep, ann, 'ann@buyer.example.com', play);
    const b = await email(rep, bob, 'bob@buyer.example.com', play);
    const bLater = await email(rep, bob, 'bob@buyer.example.com', play, '2031-03-05T10:00:00Z');
    fake.receive(repEmail, { from: 'ann@buyer.example.com', inReplyTo: a.outbox.graph_message_id! });
    fake.receive(repEmail, { from: 'x@example.com' });
    fake.receive(repEmail, { from: 'bob@buyer.example.com', inReplyTo: b.outbox.graph_message_id! });
    // Page 1 (Ann's reply) is applied, the request for page 2 fails.
    fake.fault(/GET \/v1\.0\/me\/mailFolders\('inbox'\)\/messages\/delta$/, { kind: 'status', status: 503 }, 1);
    await expect(follow(orgId, integrationId, 1)).rejects.toMatchObject({ status: 503 });
    const [mid] = await sql<{ next_link: string | null; error: string | null }>(
      `select next_link, error from mailbox_sync where integration_id = ?`,
      [integrationId],
    );
    expect(mid.next_link).toContain('$skiptoken=');
    expect(mid.error).toBeTruthy();
    expect((await state(a.id)).replied_at).not.toBeNull();
    expect((await state(bLater.id)).status).toBe('scheduled');
    // The next run goes on from page 2: Bob's reply, Bob's scheduled step cancelled.
    const r = await follow(orgId, integrationId, 1);
    expect(r).toMatchObject({ replies: 1, cancelled: 1 });
    expect(await state(bLater.id)).toMatchObject({ status: 'cancelled', outbox: 'cancelled' });
    const [done] = await sql<{ next_link: string | null; error: string | null }>(
      `select next_link, error from mailbox_sync where integration_id = ?`,
      [integrationId],
    );
    expect([done.next_link, done.error]).toEqual([null, null]);
  });

  it('a message received before the send, or from the mailbox itself, is not a reply; an expired delta state starts a new round', async () => {
    const play = randomUUID();
    const s = await email(rep, ann, 'ann@buyer.example.com', play);
    const later = await email(rep, ann, 'ann@buyer.example.com', play, '2031-03-06T10:00:00Z');
    const conv = fake.sent(repEmail).find((m) => m.id === s.outbox.graph_message_id)!.conversationId;
    fake.receive(repEmail, { from: 'ann@buyer.example.com', conversationId: conv, receivedAt: new Date(Date.now() - 3_600_000) });
    fake.receive(repEmail, { from: repEmail, conversationId: conv });
    expect(await follow()).toMatchObject({ replies: 0, cancelled: 0 });
    expect((await state(later.id)).status).toBe('scheduled');
    // The stored state no longer exists at Microsoft: 410, a new round from the start (the lookback), no error.
    await sql(`update mailbox_sync set delta_link = ? where integration_id = ?`, [
      `${fake.url}/v1.0/me/mailFolders('inbox')/messages/delta?$deltatoken=Z29uZQ`,
      integrationId,
    ]);
    fake.receive(repEmail, { from: 'ann@buyer.example.com', inReplyTo: s.outbox.graph_message_id! });
    const r = await follow();
    expect(r).toMatchObject({ restarted: true, replies: 1, cancelled: 1 });
    expect((await state(later.id)).status).toBe('cancelled');
  });

  it("another organization's mailbox is out of reach; replies never cross mailboxes", async () => {
    // The rival's integration id under our organization: nothing happens.
    expect(await follow(orgId, rivalIntegrationId)).toEqual({ pages: 0, replies: 0, cancelled: 0, restarted: false });
    expect(await follow(rivalOrgId, integrationId)).toEqual({ pages: 0, replies: 0, cancelled: 0, restarted: false });
    // A message in the rival's Inbox carrying the conversation of one of our sent emails: our email is not marked.
    const s = await email(rep, ann, 'ann@buyer.example.com', randomUUID());
    const conv = fake.sent(repEmail).find((m) => m.id === s.outbox.graph_message_id)!.conversationId;
    fake.receive(rivalEmail, { from: 'ann@buyer.example.com', conversationId: conv });
    expect(await follow(rivalOrgId, rivalIntegrationId)).toMatchObject({ replies: 0 });
    expect((await state(s.id)).replied_at).toBeNull();
    expect((await sql<{ n: string }>(`select count(*) as n from mailbox_sync where organization_id = ?`, [rivalOrgId]))[0].n).toBe('1');
  });

  it('the minute sweep enqueues one job per connected mailbox, never a second while one waits', async () => {
    const run = () => replySweepJob.handle({}, { orm: ctx.orm, logger, boss: ctx.boss!, config: ctx.config }, {} as never);
    await run();
    await run();
    const jobs = await sql<{ data: { organizationId: string; integrationId: string } }>(
      `select data from pgboss.job where name = ? and state = 'created'`,
      [REPLY_MAILBOX_QUEUE],
    );
    expect(jobs.map((j) => j.data.integrationId).sort()).toEqual([integrationId, rivalIntegrationId].sort());
    expect(jobs.find((j) => j.data.integrationId === rivalIntegrationId)!.data.organizationId).toBe(rivalOrgId);
  });

  it('a reply to a received message leaves through createReply, in its thread, once', async () => {
    const incoming = fake.receive(repEmail, { from: 'ann@buyer.example.com', subject: 'Pricing?' });
    const r = await email(rep, ann, 'ann@buyer.example.com', null, undefined, { replyToMessageId: incoming.id });
    expect(r.outbox.state).toBe('sent');
    const sent = fake.sent(repEmail).filter((m) => m.singleValueExtendedProperties.some((p) => p.value === r.outbox.id));
    expect(sent).toHaveLength(1);
    // The draft's subject leaves (the user wrote 'Step'); the thread holds.
    expect(sent[0]).toMatchObject({
      subject: 'Step',
      conversationId: incoming.conversationId,
      body: { content: '<p>Hello</p>' },
      replyToId: incoming.id,
    });
    expect(fake.requests.some((q) => q.method === 'POST' && q.path.endsWith(`/${incoming.id}/createReply`))).toBe(true);
    const [o] = await sql<{ conversation_id: string }>(`select conversation_id from email_outbox where id = ?`, [r.outbox.id]);
    expect(o.conversation_id).toBe(incoming.conversationId);
    // A reply drafted from the message being read (the pane's 'Reply with a play') remembers it:
    // sending it from any client answers in the thread, with the reply's subject.
    const question = fake.receive(repEmail, { from: 'ann@buyer.example.com', subject: 'Re: Quick question…' });
    const draft = (
      await rep.post('/api/v1/email/draft', { contactId: ann, replyTo: { subject: question.subject, messageId: question.id } })
    ).json().email;
    expect(draft.subject).toBe('Re: Quick question…');
    const sentNow = await rep.post('/api/v1/email/send-to-email', {
      id: draft.channelEmailId,
      contactId: ann,
      to: 'ann@buyer.example.com',
      cc: [],
      subject: draft.subject,
      body: '<p>Here it is</p>',
    });
    expect(sentNow.statusCode, sentNow.body).toBe(200);
    const threaded = fake.sent(repEmail).filter((m) => m.replyToId === question.id);
    expect(threaded).toHaveLength(1);
    expect(threaded[0]).toMatchObject({
      subject: 'Re: Quick question…',
      conversationId: question.conversationId,
      body: { content: '<p>Here it is</p>' },
    });
    // A replyToMessageId that is not an id is refused with the spec's message, changing nothing.
    const d = (await rep.post('/api/v1/email/draft', { contactId: ann })).json().email.channelEmailId as string;
    const bad = await rep.post('/api/v1/email/send-to-email', {
      id: d,
      to: 'ann@buyer.example.com',
      cc: [],
      subject: 's',
      body: '<p>b</p>',
      replyToMessageId: "x' or 1=1",
    });
    expect([bad.statusCode, bad.json().message]).toEqual([400, 'Invalid email information.']);
    expect(await rival.get('/api/v1/email/service-status').then((x) => x.statusCode)).toBe(200);
  });
});
