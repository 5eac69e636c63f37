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
 * Writes events in the caller's transaction (or on their own when there is none). Each gets the
 * organization's next sequence number; the row lock on realtime_sequence is held until commit, so
 * numbers follow commit order with no gaps — call this last in a transaction to hold it briefly.
 * The insert trigger announces each event to every API process (NOTIFY, delivered at commit).
 */
export async function publish(
  em: EntityManager,
  organizationId: string,
  events: PublishEvent | readonly PublishEvent[],
): Promise<number[]> {
  const list = Array.isArray(events) ? events : [events as PublishEvent];
  if (list.length === 0) return [];
  const items = JSON.stringify(list.map((e) => ({ path: e.path, kind: e.kind, key: e.key ?? null, data: e.data ?? null })));
  const rows = await tenantSql(em, organizationId).bound<{ seq: string | number }>(
    `with s as (
       insert into realtime_sequence (organization_id, last_seq) values ($1, $2)
       on conflict (organization_id) do update set last_seq = realtime_sequence.last_seq + excluded.last_seq
       returning last_seq
     )
     insert into realtime_event (id, organization_id, seq, path, kind, key, data, created_at)
     select gen_random_uuid(), $1, s.last_seq - $2 + e.ord, e.item->>'path', e.item->>'kind', e.item->>'key', e.item->'data', clock_timestamp()
       from s, jsonb_array_elements($3::jsonb) with ordinality as e(item, ord)
     order by e.ord
     returning seq`,
    [organizationId, list.length, items],
  );
  return rows.map((r) => Number(r.seq)).sort((a, b) => a - b);
}

/** The organization's latest sequence number (0 before its first event). */
export async function currentSeq(em: EntityManager, organizationId: string): Promise<number> {
  const rows = await tenantSql(em, organizationId).all<{ last_seq: string | number }>(
    `select last_seq from realtime_sequence where organization_id = ?`,
    [organizationId],
  );
  return rows.length ? Number(rows[0].last_seq) : 0;
}
