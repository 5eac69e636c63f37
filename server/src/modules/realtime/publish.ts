import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantSql } from '../../db/sql';

/** An event for realtime clients (see shared/src/domain/realtime.ts for the paths). */
export interface PublishEvent {
  path: string;
  kind: string;
  /** Events with the same key supersede each other (only the newest is delivered to a slow or resuming client). */
  key?: string | null;
  data: unknown;
}

/**
 * Writes events in the caller's transaction (or on their own when there is none), as one
 * realtime_pending row. Just before the transaction commits, a deferred trigger gives them the
 * organization's next sequence numbers (the realtime_sequence row stays locked only from there to
 * the end of the commit, so numbers follow commit order with no gaps) and moves them into
 * realtime_event, whose trigger announces them to every API process (NOTIFY, delivered at commit).
 * Where in the transaction this is called does not matter; a rollback publishes nothing.
 */
export async function publish(em: EntityManager, organizationId: string, events: PublishEvent | readonly PublishEvent[]): Promise<void> {
  const list = Array.isArray(events) ? events : [events as PublishEvent];
  if (list.length === 0) return;
  const items = JSON.stringify(list.map((e) => ({ path: e.path, kind: e.kind, key: e.key ?? null, data: e.data ?? null })));
  await tenantSql(em, organizationId).bound(
    `insert into realtime_pending (id, organization_id, events, created_at) values (gen_random_uuid(), $1, $2::jsonb, clock_timestamp())`,
    [organizationId, items],
  );
}

/** The organization's latest sequence number (0 before its first event). */
export async function currentSeq(em: EntityManager, organizationId: string): Promise<number> {
  const rows = await tenantSql(em, organizationId).all<{ last_seq: string | number }>(
    `select last_seq from realtime_sequence where organization_id = ?`,
    [organizationId],
  );
  return rows.length ? Number(rows[0].last_seq) : 0;
}
