// Realtime paths (spec 002 §7 'Realtime access': paths per organization or user for enrichment,
// idea, list, score and play executions, activities, notifications, lists and entities) and the
// rule of who may subscribe to what. The exact strings are ours (the spec shows none):
//
//   org/{oid}/executions[/{type}[/{entityType}]]   execution changes (type: enrichment|play|list|score;
//                                                   idea executions: …/enrichment/idea, …/score/idea)
//   org/{oid}/lists[/{listId}]                     a list and its ideas
//   org/{oid}/entities[/{entityType}]              records (company, contact, idea…)
//   org/{oid}/activities                           activities of the organization
//   user/{uid}/notifications                       one user's notifications
//
// A subscription matches an event whose path equals it or continues it segment by segment, so
// 'org/{oid}/executions/enrichment' also receives 'org/{oid}/executions/enrichment/idea'.
import { EXECUTION_TYPES, EXECUTION_ENTITY_TYPES } from './executions';

export const REALTIME_MESSAGES = {
  cannotConnect: 'Cannot connect to socket server. Please reload the page.',
  invalidToken: 'Realtime token is invalid or has expired.',
  notAuthenticated: 'Authenticate first.',
  invalidPath: 'Unknown realtime path.',
  refused: 'You cannot subscribe to this path.',
  sessionEnded: 'Your session has ended.',
  tooSlow: 'The connection could not keep up.',
  badMessage: 'Invalid message.',
  reset: 'Events were missed; reload the data.',
} as const;

/** WebSocket close codes (4000–4999 are free for applications). */
export const REALTIME_CLOSE_CODES = {
  /** Bad, expired or missing token, or no auth message in time. */
  unauthorized: 4001,
  /** The user logged out, was disabled or deleted, or the session expired. */
  sessionEnded: 4003,
  /** A message that is not part of the protocol. */
  protocol: 4002,
  /** The socket's send buffer grew over the bound: reconnect and resume. */
  tooSlow: 4008,
  /** The server is shutting down: reconnect (to another process) and resume. */
  goingAway: 1001,
} as const;

/** Codes after which a client must not reconnect on its own (it needs a new sign-in). */
export const REALTIME_FINAL_CLOSE_CODES: readonly number[] = [REALTIME_CLOSE_CODES.sessionEnded];

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SEGMENT_RE = /^[a-z0-9_-]{1,64}$/i;

export const realtimePaths = {
  executions: (oid: string, type?: string, entityType?: string) =>
    ['org', oid, 'executions', type, type ? entityType : undefined].filter(Boolean).join('/'),
  lists: (oid: string, listId?: string) => ['org', oid, 'lists', listId].filter(Boolean).join('/'),
  entities: (oid: string, entityType?: string) => ['org', oid, 'entities', entityType].filter(Boolean).join('/'),
  activities: (oid: string) => `org/${oid}/activities`,
  notifications: (uid: string) => `user/${uid}/notifications`,
} as const;

export interface ParsedRealtimePath {
  scope: 'org' | 'user';
  ownerId: string;
  collection: string;
  rest: string[];
}

/** A well-formed path of the catalogue above, or null. */
export function parseRealtimePath(path: string): ParsedRealtimePath | null {
  if (typeof path !== 'string' || path.length > 300) return null;
  const parts = path.split('/');
  const [scope, ownerId, collection, ...rest] = parts;
  if ((scope !== 'org' && scope !== 'user') || !ownerId || !UUID_RE.test(ownerId) || !collection) return null;
  if (!parts.every((p) => SEGMENT_RE.test(p))) return null;
  const ok =
    scope === 'user'
      ? collection === 'notifications' && rest.length === 0
      : collection === 'executions'
        ? rest.length === 0 ||
          (rest.length === 1 && (EXECUTION_TYPES as readonly string[]).includes(rest[0])) ||
          (rest.length === 2 &&
            (EXECUTION_TYPES as readonly string[]).includes(rest[0]) &&
            (EXECUTION_ENTITY_TYPES as readonly string[]).includes(rest[1]))
        : collection === 'lists'
          ? rest.length === 0 || (rest.length === 1 && UUID_RE.test(rest[0]))
          : collection === 'entities'
            ? rest.length === 0 || (rest.length === 1 && (EXECUTION_ENTITY_TYPES as readonly string[]).includes(rest[0]))
            : collection === 'activities' && rest.length === 0;
  return ok ? { scope, ownerId: ownerId.toLowerCase(), collection, rest } : null;
}

export type SubscribeCheck = 'ok' | 'invalid' | 'refused';

/** A client may subscribe only under its own organization and its own user. */
export function canSubscribe(path: string, who: { oid: string; uid: string }): SubscribeCheck {
  const p = parseRealtimePath(path);
  if (!p) return 'invalid';
  const own = p.scope === 'org' ? who.oid.toLowerCase() : who.uid.toLowerCase();
  return p.ownerId === own ? 'ok' : 'refused';
}

/** Does a subscription receive an event published on `eventPath`? (equal, or a segment prefix) */
export function pathMatches(subscription: string, eventPath: string): boolean {
  return eventPath === subscription || eventPath.startsWith(`${subscription}/`);
}

// The kinds of events (contracts/realtime.ts and enrichments.ts give their data's schemas).
export const REALTIME_EVENT_KINDS = {
  executionUpdated: 'execution.updated',
  activityCreated: 'activity.created',
  activityUpdated: 'activity.updated',
  activityDeleted: 'activity.deleted',
  notificationCreated: 'notification.created',
  notificationsRead: 'notifications.read',
  /** A company or contact was created, changed (fields, links) or deleted: on org/{oid}/entities/{type}. */
  entityCreated: 'entity.created',
  entityUpdated: 'entity.updated',
  entityDeleted: 'entity.deleted',
  /** The field definitions of a type changed (new field, config, currency, enrichment assignment): on org/{oid}/entities/{type}. */
  fieldsChanged: 'entity.fields.changed',
} as const;
/** The kinds of an enrichment run's events (contracts/enrichments.ts). */
export const ENRICHMENT_EVENT_KINDS = { execution: 'execution.updated', result: 'enrichment.result', fieldValue: 'field.value' } as const;
