import { z } from 'zod';
import { NOTIFICATION_LEVELS } from '../domain/notifications';

export const NotificationLevelSchema = z.enum(NOTIFICATION_LEVELS);

/** A notification (spec 000 §3); onClick is the client's (it follows href). */
export const NotificationDto = z.object({
  id: z.string(),
  level: NotificationLevelSchema,
  uniqueKey: z.string().nullable(),
  read: z.boolean(),
  href: z.string().nullable(),
  message: z.string(),
  createdAt: z.string(),
});
export type NotificationDto = z.infer<typeof NotificationDto>;

// GET /api/v1/notifications?limit=50 — newest first (one per uniqueKey), with the unread count.
export const NotificationsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) });
export const NotificationsResponse = z.object({
  success: z.literal(true),
  notifications: z.array(NotificationDto),
  unreadCount: z.number(),
});
export type NotificationsResponse = z.infer<typeof NotificationsResponse>;

// GET /api/v1/notifications/unread-count
export const UnreadCountResponse = z.object({ success: z.literal(true), count: z.number() });
export type UnreadCountResponse = z.infer<typeof UnreadCountResponse>;

// PUT /api/v1/notifications/read-all — when the bell opens.
export const MarkAllReadResponse = z.object({ success: z.literal(true), message: z.string(), count: z.number() });
export type MarkAllReadResponse = z.infer<typeof MarkAllReadResponse>;
