import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { realtimePaths } from '@dealscout/shared/domain';
import type { NotificationDto } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { openSocket, type TestSocket } from '../../../test/ws-client';
import { notifyUser } from './notify';
import {
  applyIntegrationExpiryNotices,
  integrationExpiryJob,
  integrationExpirySources,
  type ExpiringIntegration,
} from './integration-expiry.job';

describe('notifications: list, unread count, mark all read, deduplication, live push, expiry notices', () => {
  let ctx: TestContext;
  let org: { id: string };
  let admin: { id: string; email: string };
  let c: TestClient;
  let url: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    ctx = await createTestApp();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/api/v1/realtime`;
    const o = await createOrg(ctx, { name: 'Notify Co' });
    org = o.organization;
    admin = o.admin;
    c = await signedIn(ctx, admin.email);
  });
  afterAll(async () => {
    for (const s of sockets) await s.close();
    await ctx.close();
  });

  const notify = (input: Partial<Parameters<typeof notifyUser>[1]> & { message: string }) =>
    ctx.em().transactional((tem) => notifyUser(tem, { organizationId: org.id, userId: admin.id, level: 'info', ...input }));

  async function socketFor(client: TestClient, uid: string) {
    const s = await openSocket(url);
    sockets.push(s);
    s.send({ type: 'auth', token: (await client.get('/api/v1/notifications/token')).json().token });
    await s.next('ready');
    s.send({ type: 'subscribe', paths: [realtimePaths.notifications(uid)] });
    await s.next('subscribed');
    return s;
  }

  it('GET /api/v1/notifications lists the newest first with the unread count; the unread count route agrees; signed out 401', async () => {
    const member = await createUser(ctx, org.id);
    const mc = await signedIn(ctx, member.email);
    const empty = await mc.get('/api/v1/notifications');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ success: true, notifications: [], unreadCount: 0 });
    for (const [i, level] of (['info', 'warning', 'error'] as const).entries()) {
      await ctx.em().transactional((tem) =>
        notifyUser(tem, {
          organizationId: org.id,
          userId: member.id,
          level,
          message: `Notice ${i}`,
          href: i === 1 ? '/account/profile' : null,
        }),
      );
    }
    const list = await mc.get('/api/v1/notifications');
    expect(list.json().notifications.map((n: NotificationDto) => [n.message, n.level, n.read, n.href])).toEqual([
      ['Notice 2', 'error', false, null],
      ['Notice 1', 'warning', false, '/account/profile'],
      ['Notice 0', 'info', false, null],
    ]);
    expect(list.json().unreadCount).toBe(3);
    expect((await mc.get('/api/v1/notifications?limit=2')).json().notifications).toHaveLength(2);
    expect((await mc.get('/api/v1/notifications?limit=0')).statusCode).toBe(400);
    expect((await mc.get('/api/v1/notifications/unread-count')).json()).toEqual({ success: true, count: 3 });
    // Another user of the organization sees none of them.
    expect((await c.get('/api/v1/notifications')).json().notifications.some((n: NotificationDto) => n.message.startsWith('Notice '))).toBe(
      false,
    );
    for (const path of ['/api/v1/notifications', '/api/v1/notifications/unread-count']) {
      expect((await ctx.app.inject({ method: 'GET', url: path })).statusCode).toBe(401);
    }
    expect((await ctx.app.inject({ method: 'PUT', url: '/api/v1/notifications/read-all' })).statusCode).toBe(401);
  });

  it('PUT /api/v1/notifications/read-all marks every one read (the bell opened) and tells the other open clients', async () => {
    const member = await createUser(ctx, org.id);
    const mc = await signedIn(ctx, member.email);
    const s = await socketFor(mc, member.id);
    await ctx.em().transactional((tem) => notifyUser(tem, { organizationId: org.id, userId: member.id, level: 'info', message: 'One' }));
    await ctx.em().transactional((tem) => notifyUser(tem, { organizationId: org.id, userId: member.id, level: 'info', message: 'Two' }));
    const res = await mc.put('/api/v1/notifications/read-all');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'All notifications marked as read', count: 2 });
    expect((await mc.get('/api/v1/notifications/unread-count')).json().count).toBe(0);
    expect((await mc.get('/api/v1/notifications')).json().notifications.every((n: NotificationDto) => n.read)).toBe(true);
    const events = await s.waitForEvents((e) => e.some((x) => x.kind === 'notifications.read'));
    expect(events.map((e) => e.kind)).toEqual(['notification.created', 'notification.created', 'notifications.read']);
    expect(events[2].data).toEqual({ unreadCount: 0 });
    // Nothing left to mark: count 0.
    expect((await mc.put('/api/v1/notifications/read-all')).json().count).toBe(0);
  });

  it(
    'a notification is pushed live on user/{uid}/notifications; deduplicated by uniqueKey per user (changed text ' +
      'updates it, unread again; same text does nothing)',
    async () => {
      const s = await socketFor(c, admin.id);
      const key = `test:${randomUUID()}`;
      const first = await notify({ uniqueKey: key, level: 'warning', message: 'Expires in 3 days', href: '/account/profile' });
      expect(first).not.toBeNull();
      expect(await notify({ uniqueKey: key, level: 'warning', message: 'Expires in 3 days', href: '/account/profile' })).toBeNull();
      await c.put('/api/v1/notifications/read-all');
      const changed = await notify({ uniqueKey: key, level: 'warning', message: 'Expires in 2 days', href: '/account/profile' });
      expect(changed?.id).toBe(first!.id);
      const mine = (await c.get('/api/v1/notifications')).json().notifications.filter((n: NotificationDto) => n.uniqueKey === key);
      expect(mine).toEqual([expect.objectContaining({ id: first!.id, message: 'Expires in 2 days', read: false })]);
      // Another user may hold the same key.
      const member = await createUser(ctx, org.id);
      expect(
        await ctx
          .em()
          .transactional((tem) =>
            notifyUser(tem, { organizationId: org.id, userId: member.id, level: 'info', message: 'x', uniqueKey: key }),
          ),
      ).not.toBeNull();
      const events = await s.waitForEvents((e) => e.filter((x) => x.kind === 'notification.created').length >= 2);
      const created = events.filter((x) => x.kind === 'notification.created').map((x) => x.data as NotificationDto);
      expect(created.map((n) => n.message)).toEqual(['Expires in 3 days', 'Expires in 2 days']);
      expect(created.every((n) => n.uniqueKey === key && n.href === '/account/profile')).toBe(true);
    },
  );

  it(
    'integration expiry notices: warning within 5 days (today / in 1 day / in N days), error once expired, linking ' +
      'to the profile; one per integration, updated as days pass',
    async () => {
      const member = await createUser(ctx, org.id);
      const now = new Date('2026-03-10T12:00:00Z');
      const day = 86_400_000;
      const integrations = (expiresIn: number[]): ExpiringIntegration[] =>
        expiresIn.map((d, i) => ({
          organizationId: org.id,
          integrationId: `int-${i}`,
          provider: i === 0 ? 'Office 365' : 'Salesforce',
          expiresAt: new Date(now.getTime() + d),
          userIds: [member.id],
        }));
      const changed = await applyIntegrationExpiryNotices(
        ctx.em(),
        integrations([2 * day + 60_000, 10 * day, 3_600_000, -60_000, day + 1000]),
        now,
      );
      expect(changed).toBe(4);
      const list = async () =>
        await ctx
          .em()
          .execute<{ unique_key: string; level: string; message: string; href: string }[]>(
            `select unique_key, level, message, href from notification where user_id = ? order by unique_key`,
            [member.id],
          );
      expect(await list()).toEqual([
        {
          unique_key: 'integration-expiry:int-0',
          level: 'warning',
          message: 'Your Office 365 integration will expire in 2 days.',
          href: '/account/profile',
        },
        {
          unique_key: 'integration-expiry:int-2',
          level: 'warning',
          message: 'Your Salesforce integration expires today.',
          href: '/account/profile',
        },
        {
          unique_key: 'integration-expiry:int-3',
          level: 'error',
          message: 'Your Salesforce integration has expired. Please renew your subscription to regain access.',
          href: '/account/profile',
        },
        {
          unique_key: 'integration-expiry:int-4',
          level: 'warning',
          message: 'Your Salesforce integration will expire in 1 day.',
          href: '/account/profile',
        },
      ]);
      // The same day again: nothing new. Two days later: Office 365, the 'today' and the 'in 1 day'
      // ones have expired (each updated in place); the one that had expired already stays as it was;
      // the one 10 days out is still outside the window.
      expect(
        await applyIntegrationExpiryNotices(ctx.em(), integrations([2 * day + 60_000, 10 * day, 3_600_000, -60_000, day + 1000]), now),
      ).toBe(0);
      expect(
        await applyIntegrationExpiryNotices(
          ctx.em(),
          integrations([2 * day + 60_000, 10 * day, 3_600_000, -60_000, day + 1000]),
          new Date(now.getTime() + 2 * day + 120_000),
        ),
      ).toBe(3);
      const after = await list();
      expect(after.map((n) => [n.unique_key, n.level, n.message])).toEqual([
        ['integration-expiry:int-0', 'error', 'Your Office 365 integration has expired. Please renew your subscription to regain access.'],
        ['integration-expiry:int-2', 'error', 'Your Salesforce integration has expired. Please renew your subscription to regain access.'],
        ['integration-expiry:int-3', 'error', 'Your Salesforce integration has expired. Please renew your subscription to regain access.'],
        ['integration-expiry:int-4', 'error', 'Your Salesforce integration has expired. Please renew your subscription to regain access.'],
      ]);
    },
  );

  it('the expiry job applies the notices of every registered integration source', async () => {
    const member = await createUser(ctx, org.id);
    const source = async (): Promise<ExpiringIntegration[]> => [
      {
        organizationId: org.id,
        integrationId: `job-${member.id}`,
        provider: 'Affinity',
        expiresAt: new Date(Date.now() + 4 * 86_400_000 + 3_600_000),
        userIds: [member.id],
      },
    ];
    integrationExpirySources.push(source);
    try {
      await integrationExpiryJob.handle(
        {},
        { orm: ctx.orm, logger: pino({ level: 'silent' }), boss: null as never, config: ctx.config },
        {} as never,
      );
    } finally {
      integrationExpirySources.splice(integrationExpirySources.indexOf(source), 1);
    }
    const rows = await ctx.em().execute<{ message: string }[]>(`select message from notification where user_id = ?`, [member.id]);
    expect(rows).toEqual([{ message: 'Your Affinity integration will expire in 4 days.' }]);
  });
});
