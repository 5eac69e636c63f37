// Sending from the rep's own Office 365 mailbox, through the routes, against real
// PostgreSQL and the loopback fake of the identity platform and Graph: connecting (PKCE, encrypted
// tokens), every message, other users and organizations (404), send now, schedule inside the send
// window, Cancel Send & Edit, Try Again, and exactly-once under crashes at every step of a send.
import { describe, it, expect, beforeAll, afterAll, onTestFinished } from 'vitest';
import { randomUUID } from 'node:crypto';
import { connectMailbox } from '../../../../test/mailbox';
import { FakeGraphServer } from '../../../../test/fakes/graph-server';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../../test/helpers';
import { newCompany, newContact, link } from '../../../../test/records';
import { deliverOutbox, SEND_NOW_GRACE_MS, type DeliverDeps } from './send';
import { createQueues } from '../../../jobs/definitions';
import { office365ExpirySource } from './send.job';
import { applyIntegrationExpiryNotices } from '../../notifications/integration-expiry.job';
import { jobDefinitions } from '../../../job-registry';

describe('email sending (Office 365)', () => {
  let ctx: TestContext;
  let fake: FakeGraphServer;
  let rep: TestClient;
  let colleague: TestClient;
  let rival: TestClient;
  let orgId: string;
  let repEmail: string;
  let contactId: string;
  let companyId: string;

  const deps = (hooks?: DeliverDeps['hooks']): DeliverDeps => ({ em: ctx.em(), boss: ctx.boss!, config: ctx.config, hooks });
  const sql = <T = Record<string, unknown>>(q: string, p: unknown[] = []) => ctx.em().execute<T[]>(q, p);

  const connect = (c: TestClient, mail: string) => connectMailbox(c, fake, mail);
  async function draft(c: TestClient = rep) {
    const res = await c.post('/api/v1/email/draft', { contactId });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().email.channelEmailId as string;
  }
  const body = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    contactId,
    companyId,
    to: 'ann.buyer@example.com',
    cc: [],
    subject: 'Quick question',
    body: '<p>Hello Ann</p>',
    ...extra,
  });
  const outboxOf = async (emailId: string) =>
    await sql<{ id: string; state: string; send_after: Date; graph_message_id: string | null; lease_until: Date | null }>(
      `select id, state, send_after, graph_message_id, lease_until from email_outbox where channel_email_id = ? order by created_at desc`,
      [emailId],
    );
  const sentWith = (outboxId: string) => fake.sent().filter((m) => m.singleValueExtendedProperties.some((p) => p.value === outboxId));
  const status = async (emailId: string) =>
    (
      await sql<{ status: string; status_message: string | null }>(`select status, status_message from channel_email where id = ?`, [
        emailId,
      ])
    )[0];
  const activity = async (emailId: string) =>
    await sql<{ id: string; status: string | null; type: string; source: string; error_message: string | null }>(
      `select id, status, type, source, error_message from activity where source_id = ?`,
      [emailId],
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
      },
    });
    await createQueues(ctx.boss!, jobDefinitions, ctx.config);
    const o = await createOrg(ctx, { name: 'Sender Co' });
    orgId = o.organization.id;
    repEmail = o.admin.email;
    rep = await signedIn(ctx, o.admin.email);
    colleague = await signedIn(ctx, (await createUser(ctx, orgId, { firstName: 'Col' })).email);
    rival = await signedIn(ctx, (await createOrg(ctx, { name: 'Rival' })).admin.email);
    // Working hours every day around the clock, so "now" is always inside them (the window math has its own tests).
    fake.addUser({
      mail: repEmail,
      workingHours: {
        daysOfWeek: ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'],
        startTime: '00:00:00.0000000',
        endTime: '23:59:00.0000000',
        timeZone: { name: 'UTC' },
      },
    });
    const co = await newCompany(rep, { name: 'Buyer Inc', website: 'https://buyer.example.com' });
    const ct = await newContact(rep, { firstName: 'Ann', lastName: 'Buyer', email: 'ann.buyer@example.com' });
    await link(rep, co.id, ct.id);
    contactId = ct.id;
    companyId = co.id;
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  it("without a mailbox: 'Office 365 integration not found.' and nothing changes", async () => {
    const id = await draft();
    const res = await rep.post('/api/v1/email/send-to-email', body(id));
    expect([res.statusCode, res.json().message]).toEqual([400, 'Office 365 integration not found.']);
    expect((await status(id)).status).toBe('draft');
    expect(await outboxOf(id)).toHaveLength(0);
    const s = (await rep.get('/api/v1/email/service-status')).json();
    expect(s.banner).toEqual({ level: 'error', message: 'Office 365 integration not found.' });
    const self = await rep.post('/api/v1/email/send-email-to-my-self', { subject: 'x', body: 'y' });
    expect([self.statusCode, self.json().message]).toEqual([400, 'Office 365 integration not found.']);
  });

  it('connects through the consent page (PKCE): the tokens are stored encrypted, the card shows the account and its expiry', async () => {
    const back = await connect(rep, repEmail);
    expect(back.pathname).toBe('/account/profile');
    expect(back.searchParams.get('o365')).toBe('connected');
    const [row] = await sql<{ secret: string; name: string; type: string; expires_at: Date }>(
      `select secret, name, type, expires_at from integration where provider = 'office365'`,
    );
    expect(row).toMatchObject({ name: repEmail, type: 'email' });
    expect(row.secret.startsWith('v1.')).toBe(true);
    expect(row.secret).not.toMatch(/refresh|access/i);
    expect(new Date(row.expires_at).getTime()).toBeGreaterThan(Date.now() + 89 * 86_400_000);
    const list = (await rep.get('/api/v1/integration')).json().integrations;
    expect(list.find((i: { provider: string }) => i.provider === 'office365')).toMatchObject({
      scope: 'user',
      type: 'email',
      data: { name: repEmail },
    });
    // A colleague sees only their own (none).
    expect(
      (await colleague.get('/api/v1/integration')).json().integrations.some((i: { provider: string }) => i.provider === 'office365'),
    ).toBe(false);
    const s = (await rep.get('/api/v1/email/service-status')).json();
    expect(s).toMatchObject({
      configured: true,
      banner: null,
      workingHoursSource: 'mailbox',
      integration: { account: repEmail, active: true },
    });
    // A tampered or foreign state is refused without storing anything.
    const bad = await rep.get('/api/v1/user/o365-integration/callback?code=x&state=v1.forged');
    expect(new URL(bad.headers.location as string).searchParams.get('o365')).toBe('error');
    expect(new URL(bad.headers.location as string).searchParams.get('o365Reason')).toBe('expired');
    // Declined on Microsoft's page, or a code Microsoft will not exchange: the reason goes back too.
    const start = new URL((await rep.post('/api/v1/user/o365-integration', {})).json().authorizeUrl);
    const state = start.searchParams.get('state')!;
    const declined = new URL(
      (await rep.get(`/api/v1/user/o365-integration/callback?error=access_denied&state=${encodeURIComponent(state)}`)).headers
        .location as string,
    );
    expect([declined.searchParams.get('o365'), declined.searchParams.get('o365Reason')]).toEqual(['error', 'denied']);
    const refused = new URL(
      (await rep.get(`/api/v1/user/o365-integration/callback?code=not-a-code&state=${encodeURIComponent(state)}`)).headers
        .location as string,
    );
    expect([refused.searchParams.get('o365'), refused.searchParams.get('o365Reason')]).toEqual(['error', 'failed']);
  });

  it("checks every field with the spec's messages; another user's or organization's draft is not found", async () => {
    const id = await draft();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ to: '' }, 400, 'To is required.'],
      [{ to: 'not-an-address' }, 400, 'Invalid email information.'],
      [{ subject: '  ' }, 400, 'Subject is required.'],
      [{ body: '<p> </p>' }, 400, 'Body is required.'],
      [{ cc: ['nope'] }, 400, 'Invalid email information.'],
      [{ id: 'x' }, 400, 'Invalid Channel email.'],
      [{ id: randomUUID() }, 404, 'Invalid Channel email.'],
      [{ scheduledAt: '2020-01-01T10:00:00Z' }, 400, 'Please select today or a future date for scheduling.'],
      [{ subject: 'nul\u0000' }, 400, 'Text must not contain NUL characters or invalid Unicode (lone surrogates).'],
    ];
    for (const [extra, code, message] of cases) {
      const res = await rep.post('/api/v1/email/send-to-email', body(id, extra));
      expect([res.statusCode, res.json().message], JSON.stringify(extra)).toEqual([code, message]);
    }
    expect((await colleague.post('/api/v1/email/send-to-email', body(id))).statusCode).toBe(404);
    expect((await rival.post('/api/v1/email/send-to-email', body(id))).statusCode).toBe(404);
    expect((await rival.post('/api/v1/email/update-email-status', { id, status: 'scheduled' })).statusCode).toBe(404);
    expect((await status(id)).status).toBe('draft');
    expect(await outboxOf(id)).toHaveLength(0);
    expect(await activity(id)).toHaveLength(0);
  });

  it("send now: 'Email sent successfully.', one message in Sent Items carrying the outbox id, an email activity", async () => {
    const id = await draft();
    const res = await rep.post('/api/v1/email/send-to-email', body(id, { cc: ['deal.team@example.com'] }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'Email sent successfully.', sent: true, email: { status: 'sent' } });
    const [o] = await outboxOf(id);
    expect(o.state).toBe('sent');
    const sent = sentWith(o.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      subject: 'Quick question',
      toRecipients: [{ emailAddress: { address: 'ann.buyer@example.com' } }],
      ccRecipients: [{ emailAddress: { address: 'deal.team@example.com' } }],
    });
    expect(await activity(id)).toEqual([expect.objectContaining({ type: 'email', source: 'email', status: null })]);
    // The job enqueued as a safety net waits for the request's own attempt (a worker cannot take
    // the row first and turn Send Now into 'scheduled'), then finds it sent and does nothing.
    const [job] = await sql<{ start_after: Date; slot_at: Date }>(
      `select j.start_after, o.slot_at from pgboss.job j join email_outbox o on o.id::text = j.data->>'outboxId' where j.name = 'email.send' and o.id = ?`,
      [o.id],
    );
    expect(new Date(job.start_after).getTime() - new Date(job.slot_at).getTime()).toBeGreaterThanOrEqual(SEND_NOW_GRACE_MS - 1_000);
    expect(await deliverOutbox(deps(), orgId, o.id)).toBe('skipped');
    expect(sentWith(o.id)).toHaveLength(1);
    // A sent email cannot be sent again.
    expect((await rep.post('/api/v1/email/send-to-email', body(id))).json().message).toBe('Invalid email information.');
  });

  it("schedule: 'Email scheduled successfully.', moved into the working hours; Cancel Send & Edit takes it back before it leaves", async () => {
    await sql(`update app_user set calendar = ?::jsonb where email = ?`, [
      JSON.stringify({
        meetingLength: 30,
        timezone: 'Europe/Berlin',
        sendWindow: { daysOfWeek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], startTime: '09:00', endTime: '17:00' },
      }),
      repEmail,
    ]);
    try {
      const id = await draft();
      // Saturday 2031-03-01 12:00 Berlin → Monday 2031-03-03 09:00 Berlin (08:00Z). The profile was
      // changed in the database, as another process would: it reaches this process's session cache
      // through the app_user trigger's NOTIFY, within moments.
      await expect
        .poll(async () => (await rep.post('/api/v1/email/send-time', { scheduledAt: '2031-03-01T11:00:00Z' })).json(), { timeout: 5_000 })
        .toMatchObject({ sendAt: '2031-03-03T08:00:00.000Z', moved: true });
      const res = await rep.post('/api/v1/email/send-to-email', body(id, { scheduledAt: '2031-03-01T11:00:00Z' }));
      expect(res.json()).toMatchObject({
        message: 'Email scheduled successfully.',
        sendAt: '2031-03-03T08:00:00.000Z',
        sent: false,
        email: { status: 'scheduled' },
      });
      const [o] = await outboxOf(id);
      expect([o.state, new Date(o.send_after).toISOString()]).toEqual(['queued', '2031-03-03T08:00:00.000Z']);
      expect(await activity(id)).toEqual([expect.objectContaining({ status: 'scheduled' })]);
      // Not yet: a job that comes early goes back to wait.
      expect(await deliverOutbox(deps(), orgId, o.id)).toBe('deferred');
      // Scheduled emails are read-only and not pending drafts.
      expect((await rep.get('/api/v1/email/pending')).json().emails.some((e: { channelEmailId: string }) => e.channelEmailId === id)).toBe(
        false,
      );
      const cancel = await rep.post('/api/v1/email/update-email-status', { id, status: 'draft' });
      expect(cancel.json()).toMatchObject({ success: true, status: 'draft', subject: 'Quick question' });
      expect((await outboxOf(id))[0].state).toBe('cancelled');
      expect(await activity(id)).toHaveLength(0);
      expect(await deliverOutbox(deps(), orgId, o.id)).toBe('skipped');
      expect(sentWith(o.id)).toHaveLength(0);
      // Cancelling what is no longer scheduled: 'Failed to cancel draft'? No: a draft may be set to draft; a sent one may not.
      const again = await rep.post('/api/v1/email/send-to-email', body(id));
      expect(again.json().message).toBe('Email sent successfully.');
      expect((await outboxOf(id)).map((x) => x.state)).toEqual(['sent', 'cancelled']);
    } finally {
      await sql(`update app_user set calendar = '{"meetingLength":30}'::jsonb where email = ?`, [repEmail]);
    }
  });

  it("the user's own send window (PUT /email/send-window) overrides the mailbox's; null goes back; bad input is refused", async () => {
    const bad = [
      { window: { daysOfWeek: [], startTime: '09:00', endTime: '17:00', timeZone: 'Europe/Berlin' } },
      { window: { daysOfWeek: ['monday'], startTime: '18:00', endTime: '09:00', timeZone: 'Europe/Berlin' } },
      { window: { daysOfWeek: ['monday'], startTime: '09:00', endTime: '17:00', timeZone: 'Mars/Olympus' } },
    ];
    for (const b of bad) {
      const res = await rep.put('/api/v1/email/send-window', b);
      expect([res.statusCode, res.json().message], JSON.stringify(b)).toEqual([
        400,
        'Please enter a valid send window: days, a start before the end, and a time zone.',
      ]);
    }
    expect((await rep.get('/api/v1/email/service-status')).json().workingHoursSource).toBe('mailbox');
    const ok = await rep.put('/api/v1/email/send-window', {
      window: { daysOfWeek: ['tuesday'], startTime: '10:00', endTime: '12:00', timeZone: 'Asia/Tokyo' },
    });
    expect([ok.statusCode, ok.json().message]).toEqual([200, 'Send window saved.']);
    const s = (await rep.get('/api/v1/email/service-status')).json();
    expect(s).toMatchObject({
      workingHoursSource: 'profile',
      workingHours: { daysOfWeek: ['tuesday'], startTime: '10:00', endTime: '12:00', timeZone: 'Asia/Tokyo' },
    });
    // Monday 2031-03-03 12:00Z → Tuesday 10:00 Tokyo = Tuesday 01:00Z.
    expect((await rep.post('/api/v1/email/send-time', { scheduledAt: '2031-03-03T12:00:00Z' })).json().sendAt).toBe(
      '2031-03-04T01:00:00.000Z',
    );
    // The colleague's window is untouched.
    expect((await colleague.get('/api/v1/email/service-status')).json().workingHoursSource).not.toBe('profile');
    await rep.put('/api/v1/email/send-window', { window: null });
    expect((await rep.get('/api/v1/email/service-status')).json().workingHoursSource).toBe('mailbox');
  });

  it("the mailbox's time zone as Graph answers it: any Windows zone, its own offset and rules (customTimeZone), and an unknown one said out loud", async () => {
    const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
    const nine = { daysOfWeek: weekdays, startTime: '09:00:00.0000000', endTime: '17:00:00.0000000' };
    const zones = (await createOrg(ctx, { name: 'Zones Co' })).organization.id;
    // Other tests here read the one office365 integration row: this test's mailboxes go when it ends.
    onTestFinished(async () => {
      await sql(`delete from integration where organization_id = ?`, [zones]);
    });
    const repIn = async (mailboxZone: string, timeZone: NonNullable<Parameters<typeof fake.addUser>[0]['workingHours']>['timeZone']) => {
      const u = await createUser(ctx, zones, { firstName: 'Zone' });
      fake.addUser({ mail: u.email, timeZone: mailboxZone, workingHours: { ...nine, timeZone } });
      const c = await signedIn(ctx, u.email);
      await connectMailbox(c, fake, u.email);
      return c;
    };
    // Wednesday 2031-03-05 00:00Z → that day's 09:00 in the mailbox's zone.
    const sendTime = async (c: TestClient) =>
      (await c.post('/api/v1/email/send-time', { scheduledAt: '2031-03-05T00:00:00Z' })).json().sendAt;
    const karachi = await repIn('Pakistan Standard Time', { name: 'Pakistan Standard Time' });
    expect(await sendTime(karachi)).toBe('2031-03-05T04:00:00.000Z');
    expect((await karachi.get('/api/v1/email/service-status')).json()).toMatchObject({
      workingHoursSource: 'mailbox',
      workingHours: { timeZone: 'Pakistan Standard Time' },
      zoneNotice: null,
    });
    const tehran = await repIn('Iran Standard Time', { name: 'Iran Standard Time' });
    expect(await sendTime(tehran)).toBe('2031-03-05T05:30:00.000Z');
    // A custom zone: UTC+05:45 (Windows-style bias −345), no daylight time.
    const custom = await repIn('Customized Time Zone', {
      '@odata.type': '#microsoft.graph.customTimeZone',
      name: 'Customized Time Zone',
      bias: -345,
      standardOffset: { time: '00:00:00.0000000', dayOccurrence: 0, dayOfWeek: 'sunday', month: 0, year: 0 },
      daylightOffset: { time: '00:00:00.0000000', dayOccurrence: 0, dayOfWeek: 'sunday', month: 0, year: 0, daylightBias: 0 },
    });
    expect(await sendTime(custom)).toBe('2031-03-05T03:15:00.000Z');
    expect((await custom.get('/api/v1/email/service-status')).json()).toMatchObject({
      workingHours: { timeZone: 'UTC+05:45' },
      zoneNotice: null,
    });
    // A name nobody knows and no offset: not silently UTC — the card says which zone stands in, and the user's own zone does.
    const lost = await repIn('Mars Standard Time', { name: 'Mars Standard Time' });
    expect((await lost.get('/api/v1/email/service-status')).json()).toMatchObject({
      workingHours: { timeZone: 'UTC' },
      zoneNotice:
        "Your mailbox's time zone (Mars Standard Time) is not one we know: scheduled emails follow UTC until you set your own send window.",
    });
    const noHours = { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: [] };
    await lost.put('/api/v1/user/calendar', { timezone: 'Asia/Taipei', meetingLength: 30, weeklyHours: noHours });
    const after = (await lost.get('/api/v1/email/service-status')).json();
    expect(after.zoneNotice).toContain('follow Asia/Taipei');
    expect(await sendTime(lost)).toBe('2031-03-05T01:00:00.000Z');
  });

  it('a scheduled email that is leaving right now cannot be cancelled', async () => {
    const id = await draft();
    await rep.post('/api/v1/email/send-to-email', body(id, { scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }));
    await sql(`update email_outbox set state = 'sending', lease_until = now() + interval '1 minute' where channel_email_id = ?`, [id]);
    const res = await rep.post('/api/v1/email/update-email-status', { id, status: 'draft' });
    expect([res.statusCode, res.json().message]).toEqual([400, 'Failed to cancel draft']);
    expect((await status(id)).status).toBe('scheduled');
    await sql(`update email_outbox set state = 'cancelled' where channel_email_id = ?`, [id]);
  });

  it('a send the mailbox refuses becomes an error activity; Try Again sends it once', async () => {
    const id = await draft();
    fake.fault(/POST \/v1\.0\/me\/messages\/[^/]+\/send$/, { kind: 'status', status: 400, code: 'ErrorInvalidRecipients' });
    const res = await rep.post('/api/v1/email/send-to-email', body(id));
    expect([res.statusCode, res.json().message]).toEqual([502, 'Something went wrong to sending email.']);
    expect((await status(id)).status).toBe('error');
    expect(await activity(id)).toEqual([
      expect.objectContaining({ status: 'error', error_message: expect.stringContaining('Something went wrong to sending email.') }),
    ]);
    const retry = await rep.post('/api/v1/email/update-email-status', { id, status: 'scheduled' });
    expect(retry.json()).toMatchObject({ success: true, status: 'scheduled' });
    expect(await activity(id)).toEqual([expect.objectContaining({ status: 'scheduled', error_message: null })]);
    const [o] = await outboxOf(id);
    expect(await deliverOutbox(deps(), orgId, o.id)).toBe('sent');
    expect(sentWith(o.id)).toHaveLength(1);
    expect((await status(id)).status).toBe('sent');
    // Try Again on something that did not fail.
    const bad = await rep.post('/api/v1/email/update-email-status', { id: await draft(), status: 'scheduled' });
    expect([bad.statusCode, bad.json().message]).toEqual([400, 'Failed to update email status.']);
  });

  describe('exactly once, whatever dies when', () => {
    async function scheduled() {
      const id = await draft();
      const res = await rep.post('/api/v1/email/send-to-email', body(id, { scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }));
      expect(res.statusCode, res.body).toBe(200);
      const [o] = await outboxOf(id);
      await sql(`update email_outbox set send_after = now() where id = ?`, [o.id]);
      return { id, outboxId: o.id };
    }
    /** The crashed attempt's lease lapses (as it does 60 s after a kill). */
    const lapse = (outboxId: string) =>
      sql(`update email_outbox set lease_until = now() - interval '1 second', send_after = now() where id = ?`, [outboxId]);

    it('dies after Graph sent but before the database knew: the retry finds it sent and does not send again', async () => {
      const { id, outboxId } = await scheduled();
      await expect(
        deliverOutbox(
          deps({
            afterSend: () => {
              throw new Error('kill -9');
            },
          }),
          orgId,
          outboxId,
        ),
      ).rejects.toThrow('kill -9');
      expect(sentWith(outboxId)).toHaveLength(1);
      expect((await outboxOf(id))[0].state).toBe('sending');
      // While the lease holds, another attempt waits.
      expect(await deliverOutbox(deps(), orgId, outboxId)).toBe('deferred');
      await lapse(outboxId);
      expect(await deliverOutbox(deps(), orgId, outboxId)).toBe('sent');
      expect(sentWith(outboxId)).toHaveLength(1);
      expect((await status(id)).status).toBe('sent');
    });

    it('dies after creating the message, before storing its id: the retry finds the draft by the outbox property and sends that one', async () => {
      const { outboxId } = await scheduled();
      await expect(
        deliverOutbox(
          deps({
            afterCreate: () => {
              throw new Error('kill -9');
            },
          }),
          orgId,
          outboxId,
        ),
      ).rejects.toThrow();
      expect(
        (
          await outboxOf(
            (await sql<{ channel_email_id: string }>(`select channel_email_id from email_outbox where id = ?`, [outboxId]))[0]
              .channel_email_id,
          )
        )[0].graph_message_id,
      ).toBeNull();
      await lapse(outboxId);
      expect(await deliverOutbox(deps(), orgId, outboxId)).toBe('sent');
      expect(sentWith(outboxId)).toHaveLength(1);
      expect(fake.drafts().filter((m) => m.singleValueExtendedProperties.some((p) => p.value === outboxId))).toHaveLength(0);
    });

    it('Graph sends but the answer is lost: the retry sees the message sent under its id', async () => {
      const { outboxId } = await scheduled();
      fake.fault(/POST \/v1\.0\/me\/messages\/[^/]+\/send$/, { kind: 'lostAnswer' });
      expect(await deliverOutbox(deps(), orgId, outboxId)).toBe('deferred');
      expect(sentWith(outboxId)).toHaveLength(1);
      await sql(`update email_outbox set send_after = now() where id = ?`, [outboxId]);
      expect(await deliverOutbox(deps(), orgId, outboxId)).toBe('sent');
      expect(sentWith(outboxId)).toHaveLength(1);
    });

    it('5xx and timeouts before the send: retried with backoff, sent once', async () => {
      const { outboxId } = await scheduled();
      fake.fault(/POST \/v1\.0\/me\/messages$/, { kind: 'status', status: 503 });
      expect(await deliverOutbox(deps(), orgId, outboxId)).toBe('deferred');
      const [o] = await sql<{ send_after: Date; error: string }>(`select send_after, error from email_outbox where id = ?`, [outboxId]);
      expect(new Date(o.send_after).getTime()).toBeGreaterThan(Date.now() + 5_000);
      await sql(`update email_outbox set send_after = now() where id = ?`, [outboxId]);
      fake.fault(/POST \/v1\.0\/me\/messages\/[^/]+\/send$/, { kind: 'hang' });
      expect(await deliverOutbox(deps(), orgId, outboxId)).toBe('deferred');
      await sql(`update email_outbox set send_after = now() where id = ?`, [outboxId]);
      expect(await deliverOutbox(deps(), orgId, outboxId)).toBe('sent');
      expect(sentWith(outboxId)).toHaveLength(1);
    });

    it('two attempts at once: one sends, the other waits', async () => {
      const { outboxId } = await scheduled();
      // Deterministic: a second attempt while the first holds the row (between create and send) waits.
      let second: string | null = null;
      const first = await deliverOutbox(
        deps({
          afterCreate: async () => {
            second = await deliverOutbox(deps(), orgId, outboxId);
          },
        }),
        orgId,
        outboxId,
      );
      expect([first, second]).toEqual(['sent', 'deferred']);
      expect(sentWith(outboxId)).toHaveLength(1);
      // Truly at once: whichever interleaving the machine produces (the second waits, or comes after and finds it done), one send.
      const again = await scheduled();
      const results = await Promise.all([deliverOutbox(deps(), orgId, again.outboxId), deliverOutbox(deps(), orgId, again.outboxId)]);
      expect([
        ['deferred', 'sent'],
        ['sent', 'skipped'],
      ]).toContainEqual(results.sort());
      expect(sentWith(again.outboxId)).toHaveLength(1);
    });

    it('an attempt that outlived its lease stops at the fence: the attempt that took over sends, once', async () => {
      const { outboxId } = await scheduled();
      let takeover: string | null = null;
      const slow = deliverOutbox(
        deps({
          afterCreate: async () => {
            // The first attempt stalls past its lease; a second one claims the row and finishes the job.
            await lapse(outboxId);
            takeover = await deliverOutbox(deps(), orgId, outboxId);
          },
        }),
        orgId,
        outboxId,
      );
      expect(await slow).toBe('deferred');
      expect(takeover).toBe('sent');
      expect(sentWith(outboxId)).toHaveLength(1);
    });

    it('429 from the mailbox: waits out Retry-After', async () => {
      const { outboxId } = await scheduled();
      fake.fault(/POST \/v1\.0\/me\/messages\/[^/]+\/send$/, { kind: 'status', status: 429, retryAfter: 42 });
      const before = Date.now();
      expect(await deliverOutbox(deps(), orgId, outboxId)).toBe('deferred');
      const [o] = await sql<{ send_after: Date; state: string }>(`select send_after, state from email_outbox where id = ?`, [outboxId]);
      expect(o.state).toBe('queued');
      expect(new Date(o.send_after).getTime()).toBeGreaterThanOrEqual(before + 41_000);
      await sql(`update email_outbox set send_after = now() where id = ?`, [outboxId]);
      expect(await deliverOutbox(deps(), orgId, outboxId)).toBe('sent');
      expect(sentWith(outboxId)).toHaveLength(1);
    });

    it('the mailbox limit of 30 messages a minute holds the 31st until the minute has passed', async () => {
      const { outboxId } = await scheduled();
      const [me] = await sql<{ id: string }>(`select id from app_user where email = ?`, [repEmail]);
      await sql(
        `update email_outbox set claimed_at = now() - interval '2 minutes', sent_at = now() - interval '2 minutes' where owner_id = ? and state = 'sent'`,
        [me.id],
      );
      await sql(
        `insert into email_outbox (id, organization_id, channel_email_id, owner_id, state, send_after, attempt, recipients, claimed_at,
          sent_at, created_at, updated_at)
                 select gen_random_uuid(), ?, gen_random_uuid(), ?, 'sent', now(), 1, 1, now() - interval '30 seconds', now() - interval
                   '29.8 seconds', now(), now() from generate_series(1, 30)`,
        [orgId, me.id],
      );
      expect(await deliverOutbox(deps(), orgId, outboxId)).toBe('deferred');
      const [o] = await sql<{ send_after: Date; slot_at: Date }>(`select send_after, slot_at from email_outbox where id = ?`, [outboxId]);
      expect(new Date(o.send_after).getTime()).toBeGreaterThan(Date.now() + 25_000);
      // It took a new slot (the ledger counts those 30 when they were sent): its job comes once, then.
      expect(new Date(o.slot_at).getTime()).toBe(new Date(o.send_after).getTime());
      expect(sentWith(outboxId)).toHaveLength(0);
      await sql(
        `update email_outbox set claimed_at = now() - interval '2 minutes', sent_at = now() - interval '2 minutes' where owner_id = ? and state = 'sent'`,
        [me.id],
      );
      await sql(`update email_outbox set send_after = now() where id = ?`, [outboxId]);
      expect(await deliverOutbox(deps(), orgId, outboxId)).toBe('sent');
    });
    it('claims made together count each other: with 28 sends in the minute, 2 of 3 due emails of the mailbox leave and the third waits', async () => {
      const [me] = await sql<{ id: string }>(`select id from app_user where email = ?`, [repEmail]);
      await sql(
        `update email_outbox set claimed_at = now() - interval '2 minutes', sent_at = now() - interval '2 minutes' where owner_id = ? and state = 'sent'`,
        [me.id],
      );
      await sql(
        `insert into email_outbox (id, organization_id, channel_email_id, owner_id, state, send_after, attempt, recipients, claimed_at,
          sent_at, created_at, updated_at)
                 select gen_random_uuid(), ?, gen_random_uuid(), ?, 'sent', now(), 1, 1, now() - interval '10 seconds', now() - interval
                   '9.9 seconds', now(), now() from generate_series(1, 28)`,
        [orgId, me.id],
      );
      const due = [await scheduled(), await scheduled(), await scheduled()];
      const outcomes = await Promise.all(due.map((e) => deliverOutbox(deps(), orgId, e.outboxId)));
      expect(outcomes.filter((o) => o === 'sent')).toHaveLength(2);
      expect(outcomes.filter((o) => o === 'deferred')).toHaveLength(1);
      expect(due.map((e) => sentWith(e.outboxId).length).sort()).toEqual([0, 1, 1]);
      await sql(
        `update email_outbox set claimed_at = now() - interval '2 minutes', sent_at = now() - interval '2 minutes' where owner_id = ? and state = 'sent'`,
        [me.id],
      );
      const waiting = due[outcomes.indexOf('deferred')];
      await sql(`update email_outbox set send_after = now() where id = ?`, [waiting.outboxId]);
      expect(await deliverOutbox(deps(), orgId, waiting.outboxId)).toBe('sent');
    });

    it('a recorded send counts in the rolling minute when it was sent; one still leaving counts a margin after its claim', async () => {
      const { outboxId } = await scheduled();
      const [me] = await sql<{ id: string }>(`select id from app_user where email = ?`, [repEmail]);
      await sql(
        `update email_outbox set claimed_at = now() - interval '2 minutes', sent_at = now() - interval '2 minutes' where owner_id = ? and state = 'sent'`,
        [me.id],
      );
      // 30 sends claimed 60.5 s ago and answered 0.1 s later: out of the minute, so the next one leaves now.
      await sql(
        `insert into email_outbox (id, organization_id, channel_email_id, owner_id, state, send_after, attempt, recipients, claimed_at,
          sent_at, created_at, updated_at)
                 select gen_random_uuid(), ?, gen_random_uuid(), ?, 'sent', now(), 1, 1, now() - interval '60.5 seconds', now() -
                   interval '60.4 seconds', now(), now() from generate_series(1, 30)`,
        [orgId, me.id],
      );
      expect(await deliverOutbox(deps(), orgId, outboxId)).toBe('sent');
      // The same 30 still leaving (not recorded yet), claimed 60.2 s before the next claim: they count
      // a second after their claims, inside the minute. (Scheduled first: the claim follows the update
      // at once, so a slow machine does not carry them out of the minute meanwhile.)
      const next = await scheduled();
      await sql(
        `update email_outbox set state = 'sending', sent_at = null, claimed_at = now() - interval '60.2 seconds', lease_until = now() +
          interval '1 minute' where owner_id = ? and state = 'sent' and claimed_at > now() - interval '90 seconds' and id <> ? and
          id <> ?`,
        [me.id, outboxId, next.outboxId],
      );
      expect(await deliverOutbox(deps(), orgId, next.outboxId)).toBe('deferred');
      expect(sentWith(next.outboxId)).toHaveLength(0);
      await sql(
        `update email_outbox set state = 'sent', sent_at = now() - interval '2 minutes', claimed_at = now() - interval '2 minutes',
          lease_until = null where owner_id = ? and state = 'sending'`,
        [me.id],
      );
    });
  });

  it('refreshes an expired access token (rotating the stored refresh token); a revoked grant disconnects with the spec message', async () => {
    const [before] = await sql<{ secret: string }>(`select secret from integration where provider = 'office365'`);
    fake.expireAccessTokens(repEmail);
    const id = await draft();
    expect((await rep.post('/api/v1/email/send-to-email', body(id))).json().message).toBe('Email sent successfully.');
    const [after] = await sql<{ secret: string }>(`select secret from integration where provider = 'office365'`);
    expect(after.secret).not.toBe(before.secret);
    // Microsoft revokes the grant (password change, admin): the next send fails with the spec's message.
    fake.revoke(repEmail);
    await sql(`update integration set secret = ? where provider = 'office365'`, [before.secret]);
    fake.expireAccessTokens(repEmail);
    const next = await draft();
    const res = await rep.post('/api/v1/email/send-to-email', body(next));
    expect([res.statusCode, res.json().message]).toEqual([400, 'Office 365 integration not found.']);
    expect(await status(next)).toEqual({ status: 'error', status_message: 'Office 365 integration not found.' });
    expect(await activity(next)).toEqual([
      expect.objectContaining({ status: 'error', error_message: 'Office 365 integration not found.' }),
    ]);
    const [i] = await sql<{ active: boolean }>(`select active from integration where provider = 'office365'`);
    expect(i.active).toBe(false);
    expect((await rep.get('/api/v1/email/service-status')).json().banner).toEqual({
      level: 'error',
      message: 'Office 365 integration not found.',
    });
    // Try Again needs the mailbox back: Re Authenticate, then it leaves once.
    expect((await rep.post('/api/v1/email/update-email-status', { id: next, status: 'scheduled' })).json().message).toBe(
      'Office 365 integration not found.',
    );
    await connect(rep, repEmail);
    expect((await rep.post('/api/v1/email/update-email-status', { id: next, status: 'scheduled' })).json().status).toBe('scheduled');
    const [o] = await outboxOf(next);
    expect(await deliverOutbox(deps(), orgId, o.id)).toBe('sent');
    expect(sentWith(o.id)).toHaveLength(1);
  });

  it("send test to self goes to the rep's own address through /me/sendMail", async () => {
    const res = await rep.post('/api/v1/email/send-email-to-my-self', { subject: 'Test: Quick question', body: '<p>Hello</p>' });
    expect([res.statusCode, res.json().message]).toEqual([200, 'Email sent successfully.']);
    expect(
      fake.sent(repEmail).some((m) => m.subject === 'Test: Quick question' && m.toRecipients[0].emailAddress.address === repEmail),
    ).toBe(true);
    expect((await rep.post('/api/v1/email/send-email-to-my-self', { subject: ' ', body: 'x' })).json().message).toBe(
      'Subject is required.',
    );
  });

  it('the hourly expiry job warns the mailbox owner (the existing notifications) and drafts get the warning banner', async () => {
    await sql(`update integration set expires_at = now() + interval '3 days 1 hour' where provider = 'office365'`);
    const em = ctx.em();
    const found = await office365ExpirySource(em, new Date());
    expect(found).toEqual([expect.objectContaining({ provider: 'Office 365', userIds: [expect.any(String)] })]);
    expect(await applyIntegrationExpiryNotices(em, found)).toBe(1);
    const list = (await rep.get('/api/v1/notifications')).json().notifications as { message: string; level: string }[];
    expect(list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ level: 'warning', message: 'Your Office 365 integration will expire in 3 days.' }),
      ]),
    );
    expect((await rep.get('/api/v1/email/service-status')).json().banner).toEqual({
      level: 'warning',
      message: 'Your Office 365 integration will expire in 3 days.',
    });
    // Nobody else is told.
    expect(
      ((await colleague.get('/api/v1/notifications')).json().notifications as { message: string }[]).some((n) =>
        n.message.includes('Office 365'),
      ),
    ).toBe(false);
    await sql(`update integration set expires_at = now() + interval '90 days' where provider = 'office365'`);
  });

  it("disconnect: only the owner's own integration (else 'Office 365 integration not found.'); afterwards drafts show the error banner", async () => {
    const [row] = await sql<{ id: string }>(`select id from integration where provider = 'office365'`);
    const foreign = await colleague.del(`/api/v1/user/integration/${row.id}`);
    expect([foreign.statusCode, foreign.json().message]).toEqual([404, 'Office 365 integration not found.']);
    expect((await rival.del(`/api/v1/user/integration/${row.id}`)).statusCode).toBe(404);
    expect((await rep.del(`/api/v1/user/integration/${row.id}`)).statusCode).toBe(200);
    expect((await rep.get('/api/v1/email/service-status')).json().banner).toEqual({
      level: 'error',
      message: 'Office 365 integration not found.',
    });
  });
});
