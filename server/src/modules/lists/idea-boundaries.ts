// The page-boundary map of a list's ideas (the companies table's design, docs/ARCHITECTURE.md
// 'Estimated totals', records/sort-boundaries.ts): every `step`-th key of
// one list's order, kept in process memory per (organization, list, order). A page in the middle of
// a list of a million ideas starts at the nearest boundary and walks at most `step` index entries
// (`(keys) <= (boundary) … limit n offset within`: ~1 ms) instead of OFFSET into the list (1.5 s at
// offset 500,000 under load).
//
// Unlike companies, a list's ideas have no record_count: the map remembers the list row's version
// (`total_ideas` and `updated_at`, read in the map's own REPEATABLE READ snapshot). Every statement
// that adds or removes ideas moves both (lists.service.ts addTotals, csv-import.ts), so a map whose
// version equals the list's current one has exact ranks. Exact pages use only such a map; estimated
// sets (a search over a large list) use any map of the list within 10% of its size (their positions
// are estimates anyway, and a stale map still gives valid keys). The map is built by one index-only
// walk of the list's order in the background — never inside a request, which meanwhile takes the
// offset walk.
import { IsolationLevel, type EntityManager } from '@mikro-orm/postgresql';
import { tenantSql, unscopedSql } from '../../db/sql';
import { orderBy, type OrderSql } from '../records/table-query';

type Terms = OrderSql['terms'];

interface IdeaBoundaryMap {
  step: number;
  keys: unknown[][];
  total: number;
  version: string;
  builtAt: number;
}

const MAX_BOUNDARIES = 2_000;
const MIN_STEP = 200;
const MAX_MAPS = 200;
const MAX_AGE_MS = 15 * 60_000;
const USE_DRIFT = 0.1;
/** Below this many ideas a list pages by offset (the walk is short). */
export const IDEA_MAP_MIN_TOTAL = 20_000;

/**
 * The orders a map serves: those with a paging index (idea_org_list_created_index,
 * idea_org_list_name_index), with the type their key is read back as (keys travel as text: a
 * timestamp read as a JavaScript Date would lose its microseconds).
 */
const MAPPED: Record<string, string> = { 'r.created_at': 'timestamptz', 'lower(r.name)': 'text' };

const maps = new Map<string, IdeaBoundaryMap>();
const building = new Map<string, Promise<void>>();

export function ideaStepFor(total: number): number {
  return Math.max(MIN_STEP, Math.ceil(total / MAX_BOUNDARIES));
}

const mapKey = (organizationId: string, listId: string, terms: Terms) =>
  `${organizationId}|${listId}|${terms.map((t) => `${t.expr} ${t.desc ? 'desc' : 'asc'}`).join(',')}`;

/** Whether an order can be walked from a boundary: a paging index, the id as tie-breaker, one direction. */
export function mappable(terms: Terms): boolean {
  return terms.length === 2 && terms[0].expr in MAPPED && terms[1].expr === 'r.id' && terms[0].desc === terms[1].desc;
}

/** The list row's version: what any change to its ideas moves. */
export async function listVersion(
  em: EntityManager,
  organizationId: string,
  listId: string,
): Promise<{ total: number; version: string } | null> {
  const [l] = await tenantSql(em, organizationId).all<{ total: number; version: string }>(
    `select total_ideas as total, total_ideas || '@' || updated_at::text as version from list_company where organization_id = ? and id = ?`,
    [organizationId, listId],
  );
  return l ?? null;
}

/** Builds the map of one list's order: one walk of its paging index (sorts, bitmap scans and parallel workers off). */
export async function buildIdeaBoundaries(
  em: EntityManager,
  organizationId: string,
  listId: string,
  terms: Terms,
): Promise<IdeaBoundaryMap | null> {
  const map = await em.transactional(
    async (tem) => {
      // No JIT: compiling the walk's expressions costs more than the walk of a million entries saves.
      await unscopedSql(tem, 'connection').run(
        `set local enable_sort = off; set local enable_bitmapscan = off; set local max_parallel_workers_per_gather = 0; set local jit = off`,
      );
      const v = await listVersion(tem, organizationId, listId);
      if (!v) return null;
      const step = ideaStepFor(v.total);
      // The keys are turned into text only for the boundaries kept (one in `step`), not for every entry walked.
      const rows = await tenantSql(tem, organizationId).all<Record<string, unknown>>(
        `select s.k0::text as k0, s.k1::text as k1, s.rn from (select ${terms[0].expr} as k0, r.id as k1, row_number() over (${orderBy(terms)}) as rn
                                   from idea r where r.organization_id = ? and r.list_id = ?) s
        where (s.rn - 1) % ? = 0`,
        [organizationId, listId, step],
      );
      rows.sort((x, y) => Number(x.rn) - Number(y.rn));
      return {
        step,
        keys: rows.map((r) => [r.k0, r.k1]),
        total: v.total,
        version: v.version,
        builtAt: Date.now(),
      } satisfies IdeaBoundaryMap;
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ },
  );
  const key = mapKey(organizationId, listId, terms);
  if (map) {
    maps.delete(key);
    maps.set(key, map);
    while (maps.size > MAX_MAPS) maps.delete(maps.keys().next().value!);
  }
  return map;
}

/**
 * Carries the maps of a list from one version to the next when the change kept its set and order
 * (shortlisting): a map of version `from` becomes one of version `to`, its ranks still exact.
 */
export function carryIdeaBoundaries(organizationId: string, listId: string, from: string, to: string): void {
  const prefix = `${organizationId}|${listId}|`;
  for (const [key, map] of maps) if (key.startsWith(prefix) && map.version === from) map.version = to;
}

/** Builds the map in the background unless it is being built (an error leaves it unbuilt: pages walk by offset). */
export function buildIdeaBoundariesLater(em: EntityManager, organizationId: string, listId: string, terms: Terms): void {
  const key = mapKey(organizationId, listId, terms);
  if (building.has(key)) return;
  const run = buildIdeaBoundaries(em.fork(), organizationId, listId, terms)
    .then(
      () => undefined,
      () => undefined,
    )
    .finally(() => building.delete(key));
  building.set(key, run);
}

/**
 * The ids of `limit` ideas from rank `rank` of the list's order (all its ideas) under `where`, walked
 * from the nearest boundary; null without a usable map (one is then built in the background).
 * `exact`: the map must be of the list's current version (exact pages); otherwise any recent map
 * within 10% of the list's size serves (estimated positions).
 */
export async function pageFromBoundaries(
  em: EntityManager,
  organizationId: string,
  listId: string,
  terms: Terms,
  where: { text: string; params: unknown[] },
  rank: number,
  limit: number,
  exact: boolean,
): Promise<string[] | null> {
  if (!mappable(terms)) return null;
  const key = mapKey(organizationId, listId, terms);
  const map = maps.get(key);
  const v = await listVersion(em, organizationId, listId);
  if (!v) return null;
  const stale = !map || map.version !== v.version || Date.now() - map.builtAt > MAX_AGE_MS;
  if (stale) buildIdeaBoundariesLater(em, organizationId, listId, terms);
  if (!map || map.keys.length === 0) return null;
  if (exact && map.version !== v.version) return null;
  if (!exact && Math.abs(v.total - map.total) / Math.max(1, map.total) > USE_DRIFT) return null;
  maps.delete(key);
  maps.set(key, map);
  const i = Math.max(0, Math.min(map.keys.length - 1, Math.floor(rank / map.step)));
  const from = map.keys[i];
  if (from.some((x) => x === null || x === undefined)) return null;
  const within = exact ? rank - i * map.step : 0;
  const cmp = terms[0].desc ? '<=' : '>=';
  const rows = await tenantSql(em, organizationId).all<{ id: string }>(
    `select r.id from idea r ${where.text} and (${terms[0].expr}, r.id) ${cmp} (?::${MAPPED[terms[0].expr]}, ?::uuid) ${orderBy(terms)} limit ? offset ?`,
    [...where.params, from[0], from[1], limit, within],
  );
  return rows.map((r) => r.id);
}

/** Waits for the builds under way (tests). */
export async function ideaBoundariesSettled(): Promise<void> {
  await Promise.all([...building.values()]);
}

/** Forgets every map (tests). */
export function forgetIdeaBoundaries(): void {
  maps.clear();
}
