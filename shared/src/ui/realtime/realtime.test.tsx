// @vitest-environment happy-dom
// The realtime provider against a scripted socket that speaks the server's protocol
// (shared/src/contracts/realtime.ts): auth → ready, subscribe → subscribed, then events.
import '../test-dom';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import type { SocketLike } from '../../client';
import type { ActivityDto, NotificationDto, RealtimeEvent } from '../../contracts';
import { REALTIME_MESSAGES, realtimePaths } from '../../domain';
import { fakeApi, renderWithApi } from '../test-render';
import { queryKeys } from '../ApiContext';
import { RealtimeProvider, useRealtimeEvents, cachePaths } from './RealtimeProvider';
import { applyNotification, applyNotificationsRead, applyRealtimeEvent } from './cache';

afterEach(cleanup);

const UID = 'b0000000-0000-4000-8000-000000000001';
const OID = 'c0000000-0000-4000-8000-000000000001';
const COMPANY = 'd0000000-0000-4000-8000-000000000001';
const CONTACT = 'e0000000-0000-4000-8000-000000000001';

class ScriptedSocket implements SocketLike {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason?: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  private seq = 0;
  constructor() {
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.({});
    });
  }
  send(data: string) {
    const msg = JSON.parse(data) as { type: string; paths?: string[] };
    this.sent.push(msg);
    if (msg.type === 'auth') this.reply({ type: 'ready', uid: UID, oid: OID, seq: 0 });
    if (msg.type === 'subscribe') this.reply({ type: 'subscribed', paths: msg.paths, seq: this.seq });
  }
  close() {
    this.readyState = 3;
  }
  reply(msg: unknown) {
    queueMicrotask(() => this.onmessage?.({ data: JSON.stringify(msg) }));
  }
  emit(path: string, kind: string, data: unknown) {
    this.seq += 1;
    const e: RealtimeEvent = { seq: this.seq, path, kind, key: null, data, at: new Date().toISOString() };
    this.onmessage?.({ data: JSON.stringify({ type: 'events', events: [e] }) });
  }
}

function activity(over: Partial<ActivityDto> = {}): ActivityDto {
  return {
    id: 'a0000000-0000-4000-8000-000000000001',
    type: 'call',
    group: 'Recent',
    title: 'Phone Call',
    date: '2026-01-05',
    dueDate: null,
    status: null,
    source: 'manual',
    sourceId: null,
    content: 'Call',
    subject: null,
    to: null,
    others: [],
    by: null,
    followUp: false,
    errorMessage: null,
    companyId: COMPANY,
    contactId: CONTACT,
    createdById: UID,
    editable: true,
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: '2026-01-05T10:00:00.000Z',
    ...over,
  };
}

function notification(over: Partial<NotificationDto> = {}): NotificationDto {
  return {
    id: 'f0000000-0000-4000-8000-000000000001',
    level: 'warning',
    uniqueKey: 'k1',
    read: false,
    href: '/account/profile',
    message: 'Expiring',
    createdAt: new Date().toISOString(),
    ...over,
  };
}

function Listener({ path, onEvent }: { path: Parameters<typeof useRealtimeEvents>[0]; onEvent: (e: RealtimeEvent) => void }) {
  useRealtimeEvents(path, onEvent, { kinds: ['execution.updated'] });
  return null;
}

describe('realtime caches', () => {
  it('subscribes to the organization and user paths of the catalogue', () => {
    expect(cachePaths({ uid: UID, oid: OID })).toEqual([
      `org/${OID}/activities`,
      `user/${UID}/notifications`,
      `org/${OID}/executions`,
      `org/${OID}/entities`,
    ]);
  });

  it('an activity event refetches the lists of its company and contact, and any list that held it', async () => {
    const qc = new QueryClient();
    const keys = [
      queryKeys.activitiesFiltered('company', COMPANY, []),
      queryKeys.activitiesFiltered('company', COMPANY, ['call']),
      queryKeys.activitiesFiltered('contact', CONTACT, []),
      queryKeys.activitiesFiltered('company', 'elsewhere', []),
      queryKeys.activitiesFiltered('company', 'unrelated', []),
    ];
    for (const k of keys) qc.setQueryData(k, { success: true, activities: k[2] === 'elsewhere' ? [activity()] : [] });
    applyRealtimeEvent(qc, { seq: 1, path: `org/${OID}/activities`, kind: 'activity.updated', key: null, data: activity(), at: '' });
    await Promise.resolve();
    expect(keys.map((k) => qc.getQueryState(k)?.isInvalidated)).toEqual([true, true, true, true, false]);
  });

  it("another user's field change re-reads that type's fields and filter fields, not the rows", async () => {
    const qc = new QueryClient();
    const keys = [
      queryKeys.fields('company'),
      queryKeys.filterFields('company'),
      ['fields', 'all'],
      queryKeys.fields('contact'),
      [...queryKeys.companies, 'page'],
    ];
    for (const k of keys) qc.setQueryData(k, { success: true });
    applyRealtimeEvent(qc, {
      seq: 1,
      path: `org/${OID}/entities/company`,
      kind: 'entity.fields.changed',
      key: 'fields:company',
      data: { entityType: 'company' },
      at: '',
    });
    await Promise.resolve();
    expect(keys.map((k) => qc.getQueryState(k)?.isInvalidated)).toEqual([true, true, true, false, false]);
  });

  it('notifications: a new one goes first and counts as unread; a repeated key replaces its row; read-all clears', () => {
    const qc = new QueryClient();
    qc.setQueryData(queryKeys.notificationList, {
      success: true,
      unreadCount: 1,
      notifications: [notification({ id: 'old', uniqueKey: 'k0', message: 'Old' })],
    });
    void applyNotification(qc, notification());
    expect(qc.getQueryData<{ unreadCount: number; notifications: NotificationDto[] }>(queryKeys.notificationList)).toMatchObject({
      unreadCount: 2,
      notifications: [{ message: 'Expiring' }, { message: 'Old' }],
    });
    void applyNotification(qc, notification({ id: 'again', message: 'Expiring sooner' }));
    const after = qc.getQueryData<{ unreadCount: number; notifications: NotificationDto[] }>(queryKeys.notificationList)!;
    expect(after.unreadCount).toBe(2);
    expect(after.notifications.map((x) => x.message)).toEqual(['Expiring sooner', 'Old']);
    applyNotificationsRead(qc, 0);
    const read = qc.getQueryData<{ unreadCount: number; notifications: NotificationDto[] }>(queryKeys.notificationList)!;
    expect(read.unreadCount).toBe(0);
    expect(read.notifications.every((x) => x.read)).toBe(true);
  });
});

describe('RealtimeProvider', () => {
  it('opens one socket with a fresh token, updates caches from events and feeds useRealtimeEvents', async () => {
    const sockets: ScriptedSocket[] = [];
    const token = vi.fn(async () => ({ token: 't1', uid: UID, oid: OID, expiresAt: '' }));
    const forCompany = vi.fn(async () => ({ success: true as const, activities: [] as ActivityDto[] }));
    const api = fakeApi({ notifications: { token }, activities: { forCompany } });
    const seen: RealtimeEvent[] = [];
    function Probe() {
      const [n, setN] = useState(0);
      useRealtimeEvents(
        ({ oid }) => realtimePaths.activities(oid),
        () => setN((x) => x + 1),
      );
      return <span data-testid="probe">{n}</span>;
    }
    const { queryClient } = renderWithApi(
      <RealtimeProvider
        identity={{ uid: UID, oid: OID }}
        url="ws://test/api/v1/realtime"
        clientOptions={{
          socketFactory: () => {
            const s = new ScriptedSocket();
            sockets.push(s);
            return s;
          },
          pingIntervalMs: 0,
        }}
      >
        <Probe />
        <Listener path={({ oid }) => realtimePaths.executions(oid, 'enrichment')} onEvent={(e) => seen.push(e)} />
      </RealtimeProvider>,
      api,
    );
    await waitFor(() => expect(sockets[0]?.sent.some((m) => m.type === 'subscribe')).toBe(true));
    expect(sockets).toHaveLength(1);
    expect(token).toHaveBeenCalledTimes(1);
    expect(sockets[0].sent[0]).toEqual({ type: 'auth', token: 't1' });
    const subscribed = sockets[0].sent.filter((m) => m.type === 'subscribe').flatMap((m) => m.paths as string[]);
    expect(subscribed).toEqual(expect.arrayContaining([...cachePaths({ uid: UID, oid: OID }), `org/${OID}/executions/enrichment`]));

    // A cached activity list refetches when an activity of its company arrives.
    await queryClient.fetchQuery({ queryKey: queryKeys.activitiesFiltered('company', COMPANY, []), queryFn: () => forCompany() });
    act(() => sockets[0].emit(`org/${OID}/activities`, 'activity.created', activity()));
    expect(queryClient.getQueryState(queryKeys.activitiesFiltered('company', COMPANY, []))?.isInvalidated).toBe(true);
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('1'));

    // Notifications of the user.
    queryClient.setQueryData(queryKeys.notificationList, { success: true, unreadCount: 0, notifications: [] });
    act(() => sockets[0].emit(`user/${UID}/notifications`, 'notifications.read', { unreadCount: 0 }));
    act(() => sockets[0].emit(`user/${UID}/notifications`, 'notification.created', notification()));
    expect(queryClient.getQueryData<{ unreadCount: number }>(queryKeys.notificationList)?.unreadCount).toBe(1);

    // The feature listener gets only its path and kinds.
    act(() => sockets[0].emit(`org/${OID}/executions/enrichment`, 'execution.updated', { id: 'x1' }));
    act(() => sockets[0].emit(`org/${OID}/executions/enrichment`, 'execution.progress', { id: 'x1' }));
    act(() => sockets[0].emit(`org/${OID}/executions/list`, 'execution.updated', { id: 'x2' }));
    expect(seen.map((e) => [e.path, e.kind])).toEqual([[`org/${OID}/executions/enrichment`, 'execution.updated']]);
  });

  it("shows 'Cannot connect to socket server. Please reload the page.' when the socket cannot connect", async () => {
    const token = vi.fn(async () => {
      throw new Error('offline');
    });
    renderWithApi(
      <RealtimeProvider
        identity={{ uid: UID, oid: OID }}
        url="ws://test/api/v1/realtime"
        clientOptions={{ failAfter: 2, initialDelayMs: 1, maxDelayMs: 2, pingIntervalMs: 0 }}
      >
        <span />
      </RealtimeProvider>,
      fakeApi({ notifications: { token } }),
    );
    expect((await screen.findByTestId('toast-error')).textContent).toBe(REALTIME_MESSAGES.cannotConnect);
    expect(REALTIME_MESSAGES.cannotConnect).toBe('Cannot connect to socket server. Please reload the page.');
  });

  it('opens nothing while signed out', async () => {
    const token = vi.fn();
    renderWithApi(
      <RealtimeProvider identity={null}>
        <span data-testid="child" />
      </RealtimeProvider>,
      fakeApi({ notifications: { token } }),
    );
    expect(screen.getByTestId('child')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 10));
    expect(token).not.toHaveBeenCalled();
  });
});
