// The field definitions of an organization's record type, kept for a few seconds per API process so
// that a table page, a count or an export costs no field lookup. Kept correct across processes the
// way the session cache is (server/src/lib/session-cache.ts, whose LISTEN connection it shares): a
// trigger on field_definition announces every change on `ds_realtime_auth` ({fo: organization}) at
// commit and each process drops that organization's entries; entries are served only while that
// connection is up; a lookup that started before an invalidation never stores its answer; and the
// time to live (SESSION_CACHE_MS) bounds the rest. Reads inside a transaction bypass it, so a
// transaction sees its own uncommitted fields.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldDataType, RecordEntityType } from '@dealscout/shared/domain';
import { tenantSql } from '../../db/sql';

/** What a table query needs of a field definition (a plain, frozen copy: shared by concurrent requests). */
export interface QueryField {
  readonly id: string;
  readonly entityType: RecordEntityType;
  readonly key: string;
  readonly label: string;
  readonly dataType: FieldDataType;
  readonly builtInColumn: string | null | undefined;
  readonly slot: number | null | undefined;
}

interface Entry {
  fields: readonly QueryField[];
  until: number;
}

export class FieldCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;

  constructor(private readonly opts: { ttlMs: number; live: () => boolean; maxEntries?: number }) {}

  get(organizationId: string, entityType: RecordEntityType): readonly QueryField[] | null {
    if (!this.opts.live()) return null;
    const k = `${organizationId}/${entityType}`;
    const e = this.entries.get(k);
    if (!e) return null;
    if (e.until <= Date.now()) {
      this.entries.delete(k);
      return null;
    }
    return e.fields;
  }

  /** Taken before a lookup; `set` stores its answer only if nothing was invalidated since. */
  mark(): number {
    return this.generation;
  }

  set(organizationId: string, entityType: RecordEntityType, fields: readonly QueryField[], mark: number): void {
    if (this.opts.ttlMs <= 0 || !this.opts.live() || mark !== this.generation) return;
    if (this.entries.size >= (this.opts.maxEntries ?? 20_000)) this.entries.clear();
    this.entries.set(`${organizationId}/${entityType}`, { fields, until: Date.now() + this.opts.ttlMs });
  }

  /** An announcement on the shared channel: {fo} drops an organization; null (the connection was lost or is back) drops all. */
  announced(payload: { fo?: unknown } | null): void {
    if (payload === null) return this.clear();
    if (typeof payload.fo === 'string') this.forget(payload.fo);
  }

  forget(organizationId: string): void {
    this.generation += 1;
    for (const k of ['company', 'contact']) this.entries.delete(`${organizationId}/${k}`);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}

/** The cache of each ORM (one per app: an API process, or each app a test starts), found from any of its EntityManagers. */
const byOrm = new WeakMap<object, FieldCache>();

export function useFieldCache(em: EntityManager, cache: FieldCache | null): void {
  if (cache) byOrm.set(em.config, cache);
  else byOrm.delete(em.config);
}

/** This process's own change to an organization's fields: dropped at once, before the notification comes. */
export function forgetFields(em: EntityManager, organizationId: string): void {
  byOrm.get(em.config)?.forget(organizationId);
}

async function readFields(em: EntityManager, organizationId: string, entityType: RecordEntityType): Promise<QueryField[]> {
  const rows = await tenantSql(em, organizationId).all<{
    id: string;
    key: string;
    label: string;
    data_type: string;
    built_in_column: string | null;
    slot: number | null;
  }>(`select id, key, label, data_type, built_in_column, slot from field_definition where organization_id = ? and entity_type = ?`, [
    organizationId,
    entityType,
  ]);
  return rows.map((r) =>
    Object.freeze({
      id: String(r.id),
      entityType,
      key: r.key,
      label: r.label,
      dataType: r.data_type as FieldDataType,
      builtInColumn: r.built_in_column,
      slot: r.slot === null ? null : Number(r.slot),
    }),
  );
}

/** The organization's fields of a record type: from the cache when it has them, else read (and kept). */
export async function queryFields(em: EntityManager, organizationId: string, entityType: RecordEntityType): Promise<readonly QueryField[]> {
  const cache = em.getTransactionContext() ? undefined : byOrm.get(em.config);
  const hit = cache?.get(organizationId, entityType);
  if (hit) return hit;
  const mark = cache?.mark() ?? 0;
  const fields = Object.freeze(await readFields(em, organizationId, entityType));
  cache?.set(organizationId, entityType, fields, mark);
  return fields;
}

/** For tests: the cache of the app whose ORM this EntityManager belongs to. */
export function fieldCacheOf(em: EntityManager): FieldCache | undefined {
  return byOrm.get(em.config);
}
