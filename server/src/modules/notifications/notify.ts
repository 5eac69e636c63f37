import type { EntityManager } from '@mikro-orm/postgresql';
import type { NotificationDto } from '@dealscout/shared/contracts';
import { realtimePaths, type NotificationLevel } from '@dealscout/shared/domain';
import { REALTIME_EVENT_KINDS } from '@dealscout/shared/contracts';
import { publish } from '../realtime/publish';
import { toNotificationDto, type NotificationRow } from './notification.presenter';
import { tenantSql } from '../../db/sql';

export interface NotifyInput {
  organizationId: string;
  userId: string;
  level: NotificationLevel;
  message: string;
  href?: string | null;
  /**
   * One notification per key and user: a second notice with the same key updates it (unread again) when its text, level
   * or link changed, and does nothing otherwise.
   */
  uniqueKey?: string | null;
}

/**
 * Raises a notification and pushes it on `user/{uid}/notifications`, in the caller's transaction.
 * Answers the row when something was created or changed, null when an identical notice with the
 * same key already existed.
 */
export async function notifyUser(em: EntityManager, n: NotifyInput): Promise<NotificationRow | null> {
  const rows = await tenantSql(em, n.organizationId).all<NotificationRow>(
    `insert into notification (id, organization_id, user_id, level, unique_key, read, href, message, created_at, updated_at)
     values (gen_random_uuid(), ?, ?, ?, ?, false, ?, ?, clock_timestamp(), clock_timestamp())
     on conflict (organization_id, user_id, unique_key) do update
       set level = excluded.level, message = excluded.message, href = excluded.href, read = false,
           created_at = excluded.created_at, updated_at = excluded.updated_at
       where (notification.level, notification.message, coalesce(notification.href, '')) is distinct from (excluded.level,
         excluded.message, coalesce(excluded.href, ''))
     returning id, organization_id, user_id, level, unique_key, read, href, message, created_at`,
    [n.organizationId, n.userId, n.level, n.uniqueKey ?? null, n.href ?? null, n.message],
  );
  const row = rows[0] ?? null;
  if (row) {
    await publish(em, n.organizationId, {
      path: realtimePaths.notifications(n.userId),
      kind: REALTIME_EVENT_KINDS.notificationCreated,
      data: toNotificationDto(row),
    });
  }
  return row;
}

/** Unread notifications of a user (one per key). */
export async function unreadCount(em: EntityManager, organizationId: string, userId: string): Promise<number> {
  const [r] = await tenantSql(em, organizationId).all<{ n: string | number }>(
    `select count(*) as n from notification where organization_id = ? and user_id = ? and not read`,
    [organizationId, userId],
  );
  return Number(r.n);
}

/** A user's latest notifications, newest first. */
export async function latestNotifications(
  em: EntityManager,
  organizationId: string,
  userId: string,
  limit: number,
): Promise<NotificationDto[]> {
  const rows = await tenantSql(em, organizationId).all<NotificationRow>(
    `select id, organization_id, user_id, level, unique_key, read, href, message, created_at from notification
    where organization_id = ? and user_id = ? order by created_at desc, id limit ?`,
    [organizationId, userId, limit],
  );
  return rows.map(toNotificationDto);
}

/** Marks all a user's notifications read; every open client of the user clears its badge. Answers how many changed. */
export async function markAllRead(em: EntityManager, organizationId: string, userId: string): Promise<number> {
  return em.transactional(async (tem) => {
    const changed = await tenantSql(tem, organizationId).run(
      `update notification set read = true, updated_at = clock_timestamp() where organization_id = ? and user_id = ? and not read`,
      [organizationId, userId],
    );
    if (changed > 0) {
      await publish(tem, organizationId, {
        path: realtimePaths.notifications(userId),
        kind: REALTIME_EVENT_KINDS.notificationsRead,
        data: { unreadCount: 0 },
      });
    }
    return changed;
  });
}
