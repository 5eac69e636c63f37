// How realtime events change the TanStack Query caches shared by every client (query keys of
// ApiContext.tsx). Kept apart from React so the rules are tested on a bare QueryClient.
import type { QueryClient } from '@tanstack/react-query';
import {
  type ActivitiesResponse,
  type ActivityDto,
  type ExecutionDto,
  type NotificationDto,
  type NotificationsResponse,
  type RealtimeEvent,
  type UnreadCountResponse,
} from '../../contracts';
import { REALTIME_EVENT_KINDS } from '../../domain';
import { queryKeys } from '../ApiContext';

interface ActivityRef {
  id: string;
  companyId: string | null;
  contactId: string | null;
}

function isActivityRef(v: unknown): v is ActivityRef {
  return !!v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string';
}

/**
 * An activity was created, changed or deleted: every cached list of its company and contact
 * refetches (each filter of them), and so does any cached list that still holds it (an edit may
 * have moved it to another record).
 */
export function invalidateActivity(queryClient: QueryClient, a: ActivityRef): Promise<void> {
  const jobs: Promise<void>[] = [];
  if (a.companyId) jobs.push(queryClient.invalidateQueries({ queryKey: queryKeys.activities('company', a.companyId) }));
  if (a.contactId) jobs.push(queryClient.invalidateQueries({ queryKey: queryKeys.activities('contact', a.contactId) }));
  for (const [key, data] of queryClient.getQueriesData<ActivitiesResponse>({ queryKey: ['activities'] })) {
    if (data?.activities.some((x) => x.id === a.id)) jobs.push(queryClient.invalidateQueries({ queryKey: key, exact: true }));
  }
  jobs.push(queryClient.invalidateQueries({ queryKey: queryKeys.activityParticipant(a.id) }));
  return Promise.all(jobs).then(() => undefined);
}

/** A new or changed notification: put it first in the cached list at once, then refetch list and count. */
export function applyNotification(queryClient: QueryClient, n: NotificationDto): Promise<void> {
  queryClient.setQueryData<NotificationsResponse>(queryKeys.notificationList, (old) => {
    if (!old) return old;
    const rest = old.notifications.filter((x) => x.id !== n.id && (n.uniqueKey === null || x.uniqueKey !== n.uniqueKey));
    const wasUnread = old.notifications.some((x) => !x.read && (x.id === n.id || (n.uniqueKey !== null && x.uniqueKey === n.uniqueKey)));
    return { ...old, notifications: [n, ...rest], unreadCount: old.unreadCount + (n.read ? 0 : 1) - (wasUnread ? 1 : 0) };
  });
  return queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
}

/** All read (this client or another one opened the bell). */
export function applyNotificationsRead(queryClient: QueryClient, unreadCount: number): void {
  queryClient.setQueryData<UnreadCountResponse>(queryKeys.unreadCount, (old) =>
    old ? { ...old, count: unreadCount } : { success: true, count: unreadCount },
  );
  queryClient.setQueryData<NotificationsResponse>(queryKeys.notificationList, (old) =>
    old
      ? { ...old, unreadCount, notifications: unreadCount === 0 ? old.notifications.map((x) => ({ ...x, read: true })) : old.notifications }
      : old,
  );
}

/** Applies one event from the organization's or the user's paths to the caches. */
export function applyRealtimeEvent(queryClient: QueryClient, e: RealtimeEvent): void {
  switch (e.kind) {
    case REALTIME_EVENT_KINDS.activityCreated:
    case REALTIME_EVENT_KINDS.activityUpdated:
    case REALTIME_EVENT_KINDS.activityDeleted:
      if (isActivityRef(e.data)) void invalidateActivity(queryClient, e.data as ActivityDto);
      return;
    case REALTIME_EVENT_KINDS.notificationCreated:
      if (e.data && typeof e.data === 'object') void applyNotification(queryClient, e.data as NotificationDto);
      return;
    case REALTIME_EVENT_KINDS.notificationsRead: {
      const n = (e.data as { unreadCount?: unknown } | null)?.unreadCount;
      if (typeof n === 'number') applyNotificationsRead(queryClient, n);
      return;
    }
    case REALTIME_EVENT_KINDS.executionUpdated: {
      const x = e.data as ExecutionDto | null;
      if (x && typeof x.id === 'string') {
        queryClient.setQueryData(queryKeys.execution(x.id), { success: true, execution: x });
        void queryClient.invalidateQueries({ queryKey: queryKeys.executions, predicate: (q) => q.queryKey[1] !== x.id });
      }
      return;
    }
    default:
      applyEntityEvent(queryClient, e);
  }
}

/**
 * Record changes on org/{oid}/entities/{type} (another user's create, edit, link or delete): that
 * type's tables refetch the page they show (same page, filters and selection; the rows change),
 * a changed record's drawer refetches, and a deleted record's drawer query is dropped (a refetch
 * would only answer 404; the drawer closes itself, see RecordDrawer).
 */
function applyEntityEvent(queryClient: QueryClient, e: RealtimeEvent): void {
  const m = /^org\/[^/]+\/entities(?:\/([a-z]+))?$/.exec(e.path);
  if (!m) return;
  const type = m[1];
  if (e.kind === REALTIME_EVENT_KINDS.fieldsChanged) {
    // Another user's new field, field settings, currency or enrichment assignment: the columns, the
    // filter picker, the drawer's rows and the Enrich popover re-read the type's fields (the rows'
    // values stay; their text follows the fields, e.g. a currency).
    for (const t of type ? [type] : ['company', 'contact']) {
      void queryClient.invalidateQueries({ queryKey: ['fields', t] });
      void queryClient.invalidateQueries({ queryKey: ['filter-fields', t] });
    }
    void queryClient.invalidateQueries({ queryKey: ['fields', 'all'] });
    return;
  }
  const data = e.data as { id?: unknown; entityId?: unknown; ids?: unknown } | null;
  const id = typeof data?.id === 'string' ? data.id : typeof data?.entityId === 'string' ? data.entityId : null;
  const deleted = e.kind === REALTIME_EVENT_KINDS.entityDeleted;
  const deletedIds = deleted && Array.isArray(data?.ids) ? (data.ids as unknown[]).filter((x): x is string => typeof x === 'string') : null;
  const apply = (list: readonly unknown[], one: (id: string) => readonly unknown[], single: string) => {
    void queryClient.invalidateQueries({ queryKey: list });
    if (deleted) {
      if (deletedIds) for (const x of deletedIds) queryClient.removeQueries({ queryKey: one(x), exact: true });
      else void queryClient.invalidateQueries({ queryKey: [single] });
    } else if (id) void queryClient.invalidateQueries({ queryKey: one(id) });
  };
  if (!type || type === 'company') apply(queryKeys.companies, queryKeys.company, 'company');
  if (!type || type === 'contact') apply(queryKeys.contacts, queryKeys.contact, 'contact');
}

/** Events were lost for good (the server said 'reset'): everything live is fetched again. */
export function invalidateAfterReset(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['activities'] }),
    queryClient.invalidateQueries({ queryKey: queryKeys.notifications }),
    queryClient.invalidateQueries({ queryKey: queryKeys.executions }),
    queryClient.invalidateQueries({ queryKey: queryKeys.companies }),
    queryClient.invalidateQueries({ queryKey: queryKeys.contacts }),
  ]).then(() => undefined);
}
