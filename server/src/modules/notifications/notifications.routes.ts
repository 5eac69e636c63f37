import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  NotificationsQuery,
  NotificationsResponse,
  UnreadCountResponse,
  MarkAllReadResponse,
  ErrorResponse,
} from '@dealscout/shared/contracts';
import { NOTIFICATION_MESSAGES } from '@dealscout/shared/domain';
import { authOf } from '../../plugins/types';
import { latestNotifications, markAllRead, unreadCount } from './notify';

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
      return {
        success: true as const,
        notifications: await latestNotifications(req.em, organizationId, user.id, req.query.limit),
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
      const count = await markAllRead(req.em, organizationId, user.id);
      return { success: true as const, message: NOTIFICATION_MESSAGES.allRead, count };
    },
  );
}
