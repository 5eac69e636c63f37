import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  NotificationsQuery,
  NotificationsResponse,
  UnreadCountResponse,
  MarkAllReadResponse,
  ErrorResponse,
  REALTIME_EVENT_KINDS,
} from '@dealscout/shared/contracts';
import { NOTIFICATION_MESSAGES, realtimePaths } from '@dealscout/shared/domain';
import { authOf } from '../../plugins/types';
import { publish } from '../realtime/publish';
import { toNotificationDto, type NotificationRow } from './notification.presenter';
import { unreadCount } from './notify';
import { tenantSql } from '../../db/sql';

export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/notifications',
    {
      schema: {
        tags: ['notifications'],
        summary: "The signed-in user's notifications, newest first, with the unread count",
        querystring: NotificationsQuery,
        response: { 200: NotificationsResponse, 401: ErrorResponse },
      },
    },
    async (req) => {
      const { organizationId, user } = authOf(req);
      const rows = await tenantSql(req.em, organizationId).all<NotificationRow>(
        `select id, organization_id, user_id, level, unique_key, read, href, message, created_at from notification
        where organization_id = ? and user_id = ? order by created_at desc, id limit ?`,
        [organizationId, user.id, req.query.limit],
      );
      return {
        success: true as const,
        notifications: rows.map(toNotificationDto),
        unreadCount: await unreadCount(req.em, organizationId, user.id),
      };
    },
  );

  r.get(
    '/notifications/unread-count',
    {
      schema: {
        tags: ['notifications'],
        summary: 'How many notifications the signed-in user has not read (the bell badge)',
        response: { 200: UnreadCountResponse, 401: ErrorResponse },
      },
    },
    async (req) => {
      const { organizationId, user } = authOf(req);
      return { success: true as const, count: await unreadCount(req.em, organizationId, user.id) };
    },
  );

  r.put(
    '/notifications/read-all',
    {
      schema: {
        tags: ['notifications'],
        summary: "Mark all the signed-in user's notifications read (when the bell opens)",
        response: { 200: MarkAllReadResponse, 401: ErrorResponse },
      },
    },
    async (req) => {
      const { organizationId, user } = authOf(req);
      const count = await req.em.transactional(async (em) => {
        const changed = await tenantSql(em, organizationId).run(
          `update notification set read = true, updated_at = clock_timestamp() where organization_id = ? and user_id = ? and not read`,
          [organizationId, user.id],
        );
        if (changed > 0) {
          // Every open client of the user clears its badge.
          await publish(em, organizationId, {
            path: realtimePaths.notifications(user.id),
            kind: REALTIME_EVENT_KINDS.notificationsRead,
            data: { unreadCount: 0 },
          });
        }
        return changed;
      });
      return { success: true as const, message: NOTIFICATION_MESSAGES.allRead, count };
    },
  );
}
