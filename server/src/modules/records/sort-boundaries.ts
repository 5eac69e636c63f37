// The page-boundary map of a sort order (docs/ARCHITECTURE.md 'Estimated totals'): every `step`-th record of an
// organization's sort order (its sort key values), kept in
// memory per (table, organization, order). A page in the middle of an estimated set starts at the
// record at its share of the organization's order; with the map that record is found by walking at
// most `step` index entries from the nearest boundary instead of up to half of the organization
// (`limit 1 offset 500000` read 500,000 index entries: 378 ms under load at 1,000,000 companies).
//
// The map does not depend on the search or filters (the anchor is a position in the
// organization's order), so one map per organization and order serves every query. It is built by
// one index-only walk of the whole order, in the background (never in a request: a request without
// a usable map takes the offset walk), and rebuilt when it is older than MAX_AGE_MS or the
// organization's record count moved by more than REBUILD_DRIFT. A map that is somewhat stale still
// gives correct keys (the walk compares keys, so a deleted boundary record does not matter); only
// the positions drift by the number of records added or removed, and positions in the middle of an
// estimated set are estimates anyway. Beyond USE_DRIFT it is not used.
import { IsolationLevel, type EntityManager } from '@mikro-orm/postgresql';
import { tenantSql, unscopedSql } from '../../db/sql';

export interface SortTerm {
  expr: string;
  desc: boolean;
}

interface BoundaryMap {
  step: number;
  /** The sort key values of the records at ranks 0, step, 2·step, … */
  keys: unknown[][];
  /** The organization's record count when the map was built. */
  total: number;
  builtAt: number;
}

/** At most this many boundaries per map (the step grows with the organization). */
const MAX_BOUNDARIES = 2_000;
/** At least this many records between boundaries (a small organization has a small map). */
const MIN_STEP = 200;
/** Maps kept (least recently used dropped first); one is ~2,000 keys. */
const MAX_MAPS = 200;
const MAX_AGE_MS = 15 * 60_000;
/** Relative change of the record count that makes a map due for a rebuild… */
const REBUILD_DRIFT = 0.01;
/** …and beyond which it is not used at all. */
const USE_DRIFT = 0.1;

const maps = new Map<string, BoundaryMap>();
const building = new Map<string, Promise<void>>();

export function stepFor(total: number): number {
  return Math.max(MIN_STEP, Math.ceil(total / MAX_BOUNDARIES));
}

function mapKey(table: string, organizationId: string, terms: readonly SortTerm[]): string {
  return `${table}|${organizationId}|${terms.map((t) => `${t.expr} ${t.desc ? 'desc' : 'asc'}`).join(',')}`;
}

function orderOf(terms: readonly SortTerm[]): string {
  return `order by ${terms.map((t) => `${t.expr} ${t.desc ? 'desc nulls first' : 'asc nulls last'}`).join(', ')}`;
}

/**
 * Builds the map: one walk of the organization's sort index (index-only), keeping every `step`-th
 * key. Sorts, bitmap scans and parallel workers are off for the statement, so the plan is that walk.
 */
export async function buildBoundaries(
  em: EntityManager,
  table: 'company' | 'contact',
  organizationId: string,
  terms: readonly SortTerm[],
  total: number,
): Promise<BoundaryMap> {
  const step = stepFor(total);
  const keys = terms.map((t, i) => `${t.expr} as k${i}`).join(', ');
  const sql = `select ${terms.map((_, i) => `s.k${i}`).join(', ')} from (
                 select ${keys}, row_number() over (${orderOf(terms)}) as rn from ${table} r where r.organization_id = ?) s
               where (s.rn - 1) % ? = 0 order by s.rn`;
  // One snapshot for the walk and the record count (record_count, kept by statement triggers, is
  // exact within a snapshot), so the map knows exactly which count its ranks belong to.
  const { rows, n } = await em.transactional(
    async (tem) => {
      await unscopedSql(tem, 'connection').run(
        `set local enable_sort = off; set local enable_bitmapscan = off; set local max_parallel_workers_per_gather = 0`,
      );
      const db = tenantSql(tem, organizationId);
      const [count] = await db.all<{ n: number }>(
        `select coalesce(sum(delta), 0)::int as n from record_count where organization_id = ? and entity_type = ? and slot is null`,
        [organizationId, table],
      );
      return { rows: await db.all<Record<string, unknown>>(sql, [organizationId, step]), n: count.n };
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ },
  );
  const map: BoundaryMap = { step, keys: rows.map((r) => terms.map((_, i) => r[`k${i}`])), total: n, builtAt: Date.now() };
  remember(mapKey(table, organizationId, terms), map);
  return map;
}

function remember(key: string, map: BoundaryMap): void {
  maps.delete(key);
  maps.set(key, map);
  while (maps.size > MAX_MAPS) maps.delete(maps.keys().next().value!);
}

/** When each map was last asked to be built (a map for exact pages is rebuilt on any change, at most every EXACT_REBUILD_MS). */
const lastBuild = new Map<string, number>();
const EXACT_REBUILD_MS = 30_000;

/** Builds the map in the background unless it is being built (errors leave it unbuilt: requests walk by offset). */
function buildLater(
  em: EntityManager,
  table: 'company' | 'contact',
  organizationId: string,
  terms: readonly SortTerm[],
  total: number,
  throttle: boolean,
): void {
  const key = mapKey(table, organizationId, terms);
  if (building.has(key)) return;
  if (throttle && Date.now() - (lastBuild.get(key) ?? 0) < EXACT_REBUILD_MS) return;
  lastBuild.set(key, Date.now());
  while (lastBuild.size > MAX_MAPS * 2) lastBuild.delete(lastBuild.keys().next().value!);
  const run = buildBoundaries(em.fork(), table, organizationId, terms, total)
    .then(
      () => undefined,
      () => undefined,
    )
    .finally(() => building.delete(key));
  building.set(key, run);
}

/**
 * The map of this order if it is usable for an organization of `total` records (scheduling a
 * rebuild when it is due). `exact`: for the pages of an exactly counted set, whose positions must be
 * exact — only a map built at this very record count serves them (rebuilt after any change, at most
 * every 30 s; meanwhile those pages take the offset walk).
 */
export function boundariesFor(
  em: EntityManager,
  table: 'company' | 'contact',
  organizationId: string,
  terms: readonly SortTerm[],
  total: number,
  exact = false,
): BoundaryMap | null {
  const key = mapKey(table, organizationId, terms);
  const map = maps.get(key);
  const drift = map ? Math.abs(total - map.total) / Math.max(1, map.total) : Infinity;
  const old = map ? Date.now() - map.builtAt > MAX_AGE_MS : true;
  if (!map || drift > REBUILD_DRIFT || old) buildLater(em, table, organizationId, terms, total, false);
  else if (exact && map.total !== total) buildLater(em, table, organizationId, terms, total, true);
  if (!map || drift > USE_DRIFT || map.keys.length === 0) return null;
  if (exact && (map.total !== total || old)) return null;
  remember(key, map);
  return map;
}

/** Waits for the builds under way (tests). */
export async function boundariesSettled(): Promise<void> {
  await Promise.all([...building.values()]);
}

/** Forgets every map (tests). */
export function forgetBoundaries(): void {
  maps.clear();
  lastBuild.clear();
}

/**
 * The sort key values of the record at `rank` (0-based) of the organization's order: from the
 * nearest boundary at or before it, `rank − boundary` entries further; null without a usable map
 * (or a boundary holding a null key, which a row comparison cannot start from).
 */
export async function anchorFromBoundaries(
  em: EntityManager,
  table: 'company' | 'contact',
  organizationId: string,
  terms: readonly SortTerm[],
  total: number,
  rank: number,
  exact = false,
): Promise<unknown[] | null> {
  const map = boundariesFor(em, table, organizationId, terms, total, exact);
  if (!map) return null;
  const i = Math.min(map.keys.length - 1, Math.floor(rank / map.step));
  const from = map.keys[i];
  if (from.some((v) => v === null || v === undefined)) return null;
  const within = rank - i * map.step;
  const cmp = terms[0].desc ? '<=' : '>=';
  const [row] = await tenantSql(em, organizationId).all<Record<string, unknown>>(
    `select ${terms.map((t, k) => `${t.expr} as k${k}`).join(', ')} from ${table} r
      where r.organization_id = ? and (${terms.map((t) => t.expr).join(', ')}) ${cmp} (${from.map(() => '?').join(', ')})
      ${orderOf(terms)} limit 1 offset ?`,
    [organizationId, ...from, within],
  );
  return row ? terms.map((_, k) => row[`k${k}`]) : null;
}
