import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { earliestToday, realtimePaths, todayIn } from '@dealscout/shared/domain';
import type { ActivityDto } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { openSocket, type TestSocket } from '../../../test/ws-client';
import { Activity } from './activity.entity';

const FUTURE = '2999-01-15';
const shiftDate = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('activities: log, edit, delete, participant, lists per company and contact', () => {
  let ctx: TestContext;
  let org: { id: string };
  let admin: { id: string; email: string };
  let c: TestClient;
  let url: string;
  let companyId: string;
  let contactId: string;
  let other: { c: TestClient; companyId: string; contactId: string; orgId: string };
  const sockets: TestSocket[] = [];

  const pair = async (client: TestClient, name: string) => {
    const res = await client.post('/api/v1/entity', {
      company: { name, website: `${name.toLowerCase().replace(/\W/g, '')}.example` },
      contact: { firstName: 'Kim', lastName: name, email: `kim@${name.toLowerCase().replace(/\W/g, '')}.example` },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { companyId: string; contactId: string };
  };
  const valid = () => ({ type: 'call', companyId, contactId, date: FUTURE, content: 'Discussed the carve-out timeline.' });

  beforeAll(async () => {
    ctx = await createTestApp();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/api/v1/realtime`;
    const o = await createOrg(ctx, { name: 'Activity Co' });
    org = o.organization;
    admin = o.admin;
    c = await signedIn(ctx, admin.email);
    ({ companyId, contactId } = await pair(c, 'Globex'));
    const o2 = await createOrg(ctx, { name: 'Rival Co' });
    const c2 = await signedIn(ctx, o2.admin.email);
    other = { c: c2, ...(await pair(c2, 'Initech')), orgId: o2.organization.id };
  });
  afterAll(async () => {
    for (const s of sockets) await s.close();
    await ctx.close();
  });

  async function activitiesSocket(client: TestClient, oid: string) {
    const s = await openSocket(url);
    sockets.push(s);
    s.send({ type: 'auth', token: (await client.get('/api/v1/notifications/token')).json().token });
    await s.next('ready');
    s.send({ type: 'subscribe', paths: [realtimePaths.activities(oid)] });
    await s.next('subscribed');
    return s;
  }

  /** A non-manual activity (as sending email or CRM sync would write it). */
  async function systemActivity(source: 'email' | 'crm', date = '2020-05-01') {
    const em = ctx.em();
    em.setFilterParams('tenant', { organizationId: org.id });
    const a = em.create(Activity, {
      organization: org.id,
      type: source === 'email' ? 'email' : 'crm',
      title: 'Intro',
      date,
      content: 'Sent by the system',
      source,
      sourceId: randomUUID(),
      company: companyId,
      contact: contactId,
      others: [],
      followUp: false,
    });
    await em.flush();
    return a.id;
  }

  describe('POST /api/v1/activity', () => {
    it('logs a manual activity (201, success and message) and announces it on org/{oid}/activities', async () => {
      const s = await activitiesSocket(c, org.id);
      const res = await c.post('/api/v1/activity', { ...valid(), others: ['cfo@globex.example'], followUp: true });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body).toMatchObject({ success: true, message: 'Activity saved successfully.' });
      expect(body.activity).toMatchObject({
        type: 'call',
        title: 'Phone Call',
        group: 'Upcoming',
        date: FUTURE,
        source: 'manual',
        sourceId: null,
        status: null,
        editable: true,
        content: 'Discussed the carve-out timeline.',
        others: ['cfo@globex.example'],
        followUp: true,
        by: 'Ada Admin',
        companyId,
        contactId,
        createdById: admin.id,
      });
      const [e] = await s.waitForEvents((ev) => ev.length >= 1);
      expect(e).toMatchObject({
        kind: 'activity.created',
        path: realtimePaths.activities(org.id),
        data: { id: body.activity.id, type: 'call' },
      });
    });

    it("missing or invalid items: 'Please provide valid …' naming them in the spec's order", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{}, 'Please provide valid activity, company, contact, date, value'],
        [{ ...valid(), type: undefined }, 'Please provide valid activity'],
        [{ ...valid(), type: 'email' }, 'Please provide valid activity'],
        [{ ...valid(), companyId: 'not-an-id', content: '  ' }, 'Please provide valid company, value'],
        [{ ...valid(), contactId: null }, 'Please provide valid contact'],
        [{ ...valid(), date: '15/01/2999' }, 'Please provide valid date'],
        [{ ...valid(), date: 12, content: 42 }, 'Please provide valid date, value'],
      ];
      for (const [body, message] of cases) {
        const res = await c.post('/api/v1/activity', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().message).toBe(message);
      }
    });

    it('a date before today is refused; today is judged in the time zone sent, else the earliest today anywhere', async () => {
      const earliest = earliestToday();
      const past = await c.post('/api/v1/activity', { ...valid(), date: shiftDate(earliest, -1) });
      expect(past.statusCode).toBe(400);
      expect(past.json()).toEqual({ success: false, message: 'Please select today or a future date for scheduling.' });
      // Nobody is refused their own today when the zone is unknown.
      expect((await c.post('/api/v1/activity', { ...valid(), date: earliest })).statusCode).toBe(201);
      // In the zone furthest ahead, that day is already over.
      const ahead = await c.post('/api/v1/activity', { ...valid(), date: earliest, timezone: 'Pacific/Kiritimati' });
      expect(ahead.statusCode).toBe(400);
      expect(ahead.json().message).toBe('Please select today or a future date for scheduling.');
      const today = todayIn('Pacific/Kiritimati')!;
      const okAhead = await c.post('/api/v1/activity', { ...valid(), date: today, timezone: 'Pacific/Kiritimati' });
      expect(okAhead.statusCode).toBe(201);
      expect(okAhead.json().activity.group).toBe('Recent');
    });

    it("another organization's company or contact, or an unknown one: 404 'Invalid activity participant.'; signed out 401", async () => {
      for (const body of [
        { ...valid(), companyId: other.companyId },
        { ...valid(), contactId: other.contactId },
        { ...valid(), companyId: randomUUID() },
      ]) {
        const res = await c.post('/api/v1/activity', body);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ success: false, message: 'Invalid activity participant.' });
      }
      expect((await ctx.app.inject({ method: 'POST', url: '/api/v1/activity', payload: valid() })).statusCode).toBe(401);
    });
  });

  describe('PUT /api/v1/activity', () => {
    it('edits a manual activity (success and message) and announces the change', async () => {
      const created = (await c.post('/api/v1/activity', valid())).json().activity as ActivityDto;
      const s = await activitiesSocket(c, org.id);
      const res = await c.put('/api/v1/activity', {
        ...valid(),
        id: created.id,
        type: 'f2f',
        content: 'Met at their office.',
        subject: 'Site visit',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        message: 'Activity updated successfully.',
        activity: { id: created.id, type: 'f2f', content: 'Met at their office.', subject: 'Site visit', title: 'Phone Call' },
      });
      const [e] = await s.waitForEvents((ev) => ev.length >= 1);
      expect(e).toMatchObject({ kind: 'activity.updated', data: { id: created.id, type: 'f2f' } });
    });

    it('keeps an existing past date, but a changed date must be today or later', async () => {
      const em = ctx.em();
      em.setFilterParams('tenant', { organizationId: org.id });
      const old = em.create(Activity, {
        organization: org.id,
        type: 'text',
        title: 'Note',
        date: '2021-03-01',
        content: 'Old note',
        source: 'manual',
        company: companyId,
        contact: contactId,
        others: [],
        followUp: false,
      });
      await em.flush();
      const same = await c.put('/api/v1/activity', {
        id: old.id,
        type: 'text',
        companyId,
        contactId,
        date: '2021-03-01',
        content: 'Old note, corrected',
      });
      expect(same.statusCode, same.body).toBe(200);
      expect(same.json().activity.group).toBe('March 2021');
      const moved = await c.put('/api/v1/activity', { id: old.id, type: 'text', companyId, contactId, date: '2021-03-02', content: 'x' });
      expect(moved.statusCode).toBe(400);
      expect(moved.json().message).toBe('Please select today or a future date for scheduling.');
      const missing = await c.put('/api/v1/activity', { id: old.id, type: 'text', companyId, contactId, date: '2021-03-01', content: '' });
      expect(missing.json().message).toBe('Please provide valid value');
    });

    it('only manual activities can be edited: another source answers 403; unknown or foreign ids 404; a bad id 400', async () => {
      const emailId = await systemActivity('email');
      const res = await c.put('/api/v1/activity', { ...valid(), id: emailId });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ success: false, message: 'Activity has already been completed.' });
      const theirs = (
        await other.c.post('/api/v1/activity', {
          type: 'call',
          companyId: other.companyId,
          contactId: other.contactId,
          date: FUTURE,
          content: 'Theirs',
        })
      ).json().activity.id;
      for (const id of [theirs, randomUUID()]) {
        const r = await c.put('/api/v1/activity', { ...valid(), id });
        expect(r.statusCode).toBe(404);
        expect(r.json().message).toBe('No activity found.');
      }
      const bad = await c.put('/api/v1/activity', { ...valid(), id: 'x' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('No activity found.');
      expect((await ctx.app.inject({ method: 'PUT', url: '/api/v1/activity', payload: { ...valid(), id: theirs } })).statusCode).toBe(401);
    });
  });

  describe('GET /api/v1/activity/participant/{id}', () => {
    it('answers the activity with its company and contact; foreign or unknown 404; bad id 400; signed out 401', async () => {
      const created = (await c.post('/api/v1/activity', valid())).json().activity as ActivityDto;
      const res = await c.get(`/api/v1/activity/participant/${created.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        activity: { id: created.id },
        company: { id: companyId, name: 'Globex', website: 'globex.example' },
        contact: { id: contactId, firstName: 'Kim', lastName: 'Globex', email: 'kim@globex.example' },
      });
      const theirs = (
        await other.c.post('/api/v1/activity', {
          type: 'call',
          companyId: other.companyId,
          contactId: other.contactId,
          date: FUTURE,
          content: 'Theirs',
        })
      ).json().activity.id;
      for (const id of [theirs, randomUUID()]) {
        const r = await c.get(`/api/v1/activity/participant/${id}`);
        expect(r.statusCode).toBe(404);
        expect(r.json().message).toBe('No participant found.');
      }
      expect((await c.get('/api/v1/activity/participant/nope')).statusCode).toBe(400);
      expect((await ctx.app.inject({ method: 'GET', url: `/api/v1/activity/participant/${created.id}` })).statusCode).toBe(401);
    });
  });

  describe('DELETE /api/v1/activity/{id}', () => {
    it("deletes a manual activity: 'Participants deleted successfully.', announced; then 404", async () => {
      const created = (await c.post('/api/v1/activity', valid())).json().activity as ActivityDto;
      const s = await activitiesSocket(c, org.id);
      const res = await c.del(`/api/v1/activity/${created.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'Participants deleted successfully.' });
      const [e] = await s.waitForEvents((ev) => ev.length >= 1);
      expect(e).toMatchObject({ kind: 'activity.deleted', data: { id: created.id, companyId, contactId } });
      const again = await c.del(`/api/v1/activity/${created.id}`);
      expect(again.statusCode).toBe(404);
      expect(again.json().message).toBe('No activity found.');
    });

    it("another source cannot be deleted (403 'Unable to delete the activity.'); foreign ids 404 and stay; signed out 401", async () => {
      const crmId = await systemActivity('crm');
      const res = await c.del(`/api/v1/activity/${crmId}`);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ success: false, message: 'Unable to delete the activity.' });
      const theirs = (
        await other.c.post('/api/v1/activity', {
          type: 'call',
          companyId: other.companyId,
          contactId: other.contactId,
          date: FUTURE,
          content: 'Theirs',
        })
      ).json().activity.id;
      expect((await c.del(`/api/v1/activity/${theirs}`)).statusCode).toBe(404);
      expect((await other.c.get(`/api/v1/activity/participant/${theirs}`)).statusCode).toBe(200);
      expect((await ctx.app.inject({ method: 'DELETE', url: `/api/v1/activity/${theirs}` })).statusCode).toBe(401);
    });
  });

  describe('GET /api/v1/activity/company/{id} and /contact/{id}', () => {
    it('list newest first with their group, filter by type; foreign or unknown records 404; bad types 400; signed out 401', async () => {
      const fresh = await pair(c, 'Umbrella');
      const post = (type: string, date: string, content: string) =>
        c.post('/api/v1/activity', { type, companyId: fresh.companyId, contactId: fresh.contactId, date, content });
      await post('call', '2999-03-01', 'Later call');
      await post('text', '2999-02-01', 'A note');
      await post('video', '2999-04-01', 'Zoom');
      const emailId = await (async () => {
        const em = ctx.em();
        em.setFilterParams('tenant', { organizationId: org.id });
        const a = em.create(Activity, {
          organization: org.id,
          type: 'email',
          title: 'Hello',
          date: '2019-06-03',
          content: 'Email body',
          source: 'email',
          company: fresh.companyId,
          contact: fresh.contactId,
          others: [],
          followUp: false,
        });
        await em.flush();
        return a.id;
      })();
      const list = await c.get(`/api/v1/activity/company/${fresh.companyId}`);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().activities.map((a: ActivityDto) => [a.content, a.group, a.editable])).toEqual([
        ['Zoom', 'Upcoming', true],
        ['Later call', 'Upcoming', true],
        ['A note', 'Upcoming', true],
        ['Email body', 'June 2019', false],
      ]);
      const byContact = await c.get(`/api/v1/activity/contact/${fresh.contactId}?types=email,text`);
      expect(byContact.json().activities.map((a: ActivityDto) => a.type)).toEqual(['text', 'email']);
      expect(byContact.json().activities.find((a: ActivityDto) => a.id === emailId).source).toBe('email');
      expect((await c.get(`/api/v1/activity/company/${fresh.companyId}?limit=1`)).json().activities).toHaveLength(1);
      const foreign = await c.get(`/api/v1/activity/company/${other.companyId}`);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().message).toBe('Company not found');
      const foreignContact = await c.get(`/api/v1/activity/contact/${other.contactId}`);
      expect(foreignContact.statusCode).toBe(404);
      expect(foreignContact.json().message).toBe('Contact not found');
      expect((await c.get(`/api/v1/activity/company/${randomUUID()}`)).statusCode).toBe(404);
      const badType = await c.get(`/api/v1/activity/company/${fresh.companyId}?types=call,fax`);
      expect(badType.statusCode).toBe(400);
      expect(badType.json().message).toBe('Unknown activity type: fax');
      expect((await ctx.app.inject({ method: 'GET', url: `/api/v1/activity/company/${fresh.companyId}` })).statusCode).toBe(401);
    });

    it("deleting a company keeps the contact's history (the activity loses its company)", async () => {
      const fresh = await pair(c, 'Stark');
      const a = (
        await c.post('/api/v1/activity', {
          type: 'chat',
          companyId: fresh.companyId,
          contactId: fresh.contactId,
          date: FUTURE,
          content: 'SMS',
        })
      ).json().activity;
      expect((await c.del(`/api/v1/company/delete/${fresh.companyId}`)).statusCode).toBe(200);
      const byContact = await c.get(`/api/v1/activity/contact/${fresh.contactId}`);
      expect(byContact.json().activities).toEqual([expect.objectContaining({ id: a.id, companyId: null, contactId: fresh.contactId })]);
    });
  });
});
