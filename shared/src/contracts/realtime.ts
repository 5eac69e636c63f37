// The realtime protocol over the WebSocket at /api/v1/realtime (JSON text frames).
//
// 1. GET /api/v1/notifications/token → { token, uid, oid } (short-lived, signed).
// 2. Open the socket and send { type: 'auth', token } first; the server answers 'ready' (or closes
//    with 4001).
// 3. { type: 'subscribe', paths, since? } — paths of realtime.ts in shared/domain, only under the
//    caller's own organization and user (others get 'refused'). With `since` (the last `seq` the
//    client saw) the server first replays what the client missed, in order, then goes live.
// 4. The server sends { type: 'events', events: [...] }: every event has the organization's `seq`
//    (strictly increasing). Events with the same `key` supersede each other, so a client may see
//    a hole where an event was replaced by a newer one with the same key — never a lost event.
import { z } from 'zod';
import { ExecutionDto } from './executions';
import { NotificationDto } from './notifications';
import { ActivityDto } from './activities';

// GET /api/v1/notifications/token
export const NotificationsTokenResponse = z.object({
  token: z.string(),
  uid: z.string(),
  oid: z.string(),
  /** When the token stops being accepted for a new connection (ISO time). */
  expiresAt: z.string(),
});
export type NotificationsTokenResponse = z.infer<typeof NotificationsTokenResponse>;

export const MAX_SUBSCRIBE_PATHS = 50;

// ---------- client → server ----------
export const RealtimeClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(2000) }),
  z.object({
    type: z.literal('subscribe'),
    paths: z.array(z.string().max(300)).min(1).max(MAX_SUBSCRIBE_PATHS),
    since: z.number().int().min(0).optional(),
  }),
  z.object({ type: z.literal('unsubscribe'), paths: z.array(z.string().max(300)).min(1).max(MAX_SUBSCRIBE_PATHS) }),
  z.object({ type: z.literal('ping') }),
]);
export type RealtimeClientMessage = z.infer<typeof RealtimeClientMessage>;

// ---------- server → client ----------
export const RealtimeEvent = z.object({
  seq: z.number(),
  path: z.string(),
  kind: z.string(),
  key: z.string().nullable(),
  data: z.unknown(),
  at: z.string(),
});
export type RealtimeEvent = z.infer<typeof RealtimeEvent>;

export const RealtimeServerMessage = z.discriminatedUnion('type', [
  /** Authenticated; `seq` is the organization's latest sequence number. */
  z.object({ type: z.literal('ready'), uid: z.string(), oid: z.string(), seq: z.number() }),
  /** Subscribed (after any replay); events after `seq` on these paths will follow. */
  z.object({ type: z.literal('subscribed'), paths: z.array(z.string()), seq: z.number() }),
  z.object({ type: z.literal('unsubscribed'), paths: z.array(z.string()) }),
  z.object({ type: z.literal('refused'), path: z.string(), message: z.string() }),
  z.object({ type: z.literal('events'), events: z.array(RealtimeEvent) }),
  /** Events after `since` are no longer kept: reload the data, then carry on from `seq`. */
  z.object({ type: z.literal('reset'), seq: z.number(), message: z.string() }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type RealtimeServerMessage = z.infer<typeof RealtimeServerMessage>;

// ---------- event kinds and their data ----------
// The kinds are plain values of the domain (domain/realtime.ts), which the clients' first views use without the zod contracts.
export { REALTIME_EVENT_KINDS } from '../domain/realtime';
/** entity.created / entity.updated carry the record's id; entity.deleted the ids (or none when many went). */
export const EntityChangedEvent = z.object({ id: z.string() });
export const EntitiesDeletedEvent = z.object({ ids: z.array(z.string()).nullable(), count: z.number() });

export const ExecutionUpdatedEvent = ExecutionDto;
export const ActivityChangedEvent = ActivityDto;
export const ActivityDeletedEvent = z.object({ id: z.string(), companyId: z.string().nullable(), contactId: z.string().nullable() });
export const NotificationCreatedEvent = NotificationDto;
export const NotificationsReadEvent = z.object({ unreadCount: z.number() });
