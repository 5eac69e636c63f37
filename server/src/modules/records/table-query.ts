// Filters, search and sort of the companies and contacts tables, translated to SQL. Every query
// names the organization explicitly (raw SQL is not covered by the ORM's tenant filter). Values are
// always bound parameters; identifiers come only from the fixed maps below.
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  filterProblem, itemValues, FILTER_MESSAGES, NUMERIC_TYPES, TEMPORAL_TYPES,
  type FieldDataType, type FilterItem, type RecordEntityType, type TableFilter,
} from '@dealscout/shared/domain';
import type { IFieldDefinition } from '../fields/field.entity';
import { FieldDefinition } from '../fields/field.entity';
import { filterDataType } from '../fields/fields.service';
import { badRequest } from '../../lib/errors';
import { slotBit, slotColumn, slotFamily, TEXT_SORT_PREFIX } from '../fields/projection';

export interface Sql {
  text: string;
  params: unknown[];
}

interface EntitySpec {
  table: 'company' | 'contact';
  search: string;
  defaultSort: string[];
  /** Built-in sort keys → expressions over `r`. */
  sorts: Record<string, string>;
}

export const SPECS: Record<RecordEntityType, EntitySpec> = {
  company: {
    table: 'company',
    search: `lower(r.name || ' ' || r.domain)`,
    defaultSort: ['lower(r.name)'],
    sorts: {
      name: 'lower(r.name)', website: 'lower(r.website)', domain: 'r.domain', created_at: 'r.created_at', createdAt: 'r.created_at',
      updated_at: 'r.updated_at', updatedAt: 'r.updated_at',
      owner: `(select lower(u.first_name || ' ' || u.last_name) from app_user u where u.id = r.owner_id)`,
    },
  },
  contact: {
    table: 'contact',
    search: `lower(r.first_name || ' ' || r.last_name || ' ' || r.email)`,
    defaultSort: ['lower(r.last_name)', 'lower(r.first_name)'],
    sorts: {
      first_name: 'lower(r.first_name)', firstName: 'lower(r.first_name)', last_name: 'lower(r.last_name)', lastName: 'lower(r.last_name)',
      name: 'lower(r.last_name)', email: 'lower(r.email)', created_at: 'r.created_at', createdAt: 'r.created_at',
      updated_at: 'r.updated_at', updatedAt: 'r.updated_at',
      owner: `(select lower(u.first_name || ' ' || u.last_name) from app_user u where u.id = r.owner_id)`,
    },
  },
};

export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Everything needed to translate one table request. */
export interface QueryContext {
  organizationId: string;
  entityType: RecordEntityType;
  fieldsByKey: Map<string, IFieldDefinition>;
}

export async function loadQueryContext(em: EntityManager, organizationId: string, entityType: RecordEntityType): Promise<QueryContext> {
  const fields = await em.find(FieldDefinition, { organization: organizationId, entityType }, { filters: false });
  return { organizationId, entityType, fieldsByKey: new Map(fields.map((f) => [f.key, f])) };
}

type Kind = 'num' | 'bool' | 'temporal' | 'text';
function kindOf(dataType: FieldDataType): Kind {
  if (NUMERIC_TYPES.includes(dataType)) return 'num';
  if (dataType === 'boolean') return 'bool';
  if (TEMPORAL_TYPES.includes(dataType)) return 'temporal';
  return 'text';
}

const NEGATIVE: Partial<Record<FilterItem['condition'], FilterItem['condition']>> = {
  not_equals: 'equals', not_contains: 'contains', not_starts_with: 'starts_with', not_ends_with: 'ends_with', not_between: 'between',
};

/** The SQL of a positive condition over `expr` (a value expression of kind `kind`). */
function positive(expr: string, kind: Kind, item: FilterItem, params: unknown[]): string {
  const vals = itemValues(item);
  const bind = (v: unknown) => {
    params.push(v);
    return '?';
  };
  const typed = (v: unknown) => (kind === 'num' ? `${bind(Number(v))}::double precision` : kind === 'bool' ? `${bind(String(v) === 'true')}::boolean` : kind === 'temporal' ? `${bind(String(v))} collate "C"` : `${bind(String(v).toLowerCase())}`);
  const e = kind === 'temporal' ? `${expr} collate "C"` : expr;
  switch (item.condition) {
    case 'equals': return `${e} = ${typed(vals[0])}`;
    case 'contains': return `${expr} like ${bind(`%${likeEscape(String(vals[0]).toLowerCase())}%`)} escape '\\'`;
    case 'starts_with': return `${expr} like ${bind(`${likeEscape(String(vals[0]).toLowerCase())}%`)} escape '\\'`;
    case 'ends_with': return `${expr} like ${bind(`%${likeEscape(String(vals[0]).toLowerCase())}`)} escape '\\'`;
    case 'in': return `${e} in (${vals.map((v) => typed(v)).join(', ')})`;
    case 'greater_than': return `${e} > ${typed(vals[0])}`;
    case 'less_than': return `${e} < ${typed(vals[0])}`;
    case 'greater_than_or_equal': return `${e} >= ${typed(vals[0])}`;
    case 'less_than_or_equal': return `${e} <= ${typed(vals[0])}`;
    case 'between': {
      let [lo, hi] = vals;
      const swap = kind === 'num' ? Number(lo) > Number(hi) : String(lo) > String(hi);
      if (swap) [lo, hi] = [hi, lo];
      return `(${e} >= ${typed(lo)} and ${e} <= ${typed(hi)})`;
    }
    default: throw badRequest(FILTER_MESSAGES.unsupported);
  }
}

/** Value expression of a custom field inside `field_value v`. */
function customExpr(kind: Kind): string {
  return kind === 'num' ? 'v.value_num' : kind === 'bool' ? 'v.value_bool' : kind === 'temporal' ? 'v.value_text' : 'lower(v.value_text)';
}

/** Value expression of a built-in column of `r`. */
function builtInExpr(field: IFieldDefinition, kind: Kind): string {
  const col = `r.${field.builtInColumn}`;
  if (field.builtInColumn === 'created_at') return `to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD')`;
  if (field.builtInColumn === 'owner_id') return `r.owner_id::text`;
  if (field.builtInColumn === 'id') return `r.id::text`;
  return kind === 'text' ? `lower(${col})` : col;
}

function itemSql(ctx: QueryContext, field: IFieldDefinition, dataType: FieldDataType, item: FilterItem, params: unknown[]): string {
  const kind = kindOf(dataType);
  const neg = NEGATIVE[item.condition];
  const pos: FilterItem = neg ? { ...item, condition: neg } : item;
  if (field.builtInColumn) {
    if (field.builtInColumn === 'owner_id') {
      for (const v of itemValues(item)) if (typeof v !== 'string' || !UUID_RE.test(v)) throw badRequest(FILTER_MESSAGES.fillAll);
    }
    const cond = positive(builtInExpr(field, kind), kind === 'temporal' ? 'temporal' : kind, pos, params);
    const nullable = field.builtInColumn === 'owner_id';
    if (!neg) return cond;
    return nullable ? `(r.owner_id is null or not (${cond}))` : `not (${cond})`;
  }
  const pattern = pos.condition === 'contains' || pos.condition === 'starts_with' || pos.condition === 'ends_with';
  if (field.slot && !pattern) {
    // The typed copy on the record row (fields/projection.ts): tested on the row the rest of the
    // request reads anyway. Text patterns stay on field_value, whose trigram index finds them.
    const col = `r.${slotColumn(field.slot)}`;
    const expr = kind === 'bool' ? `(${col} = 1)` : col;
    const cond = positive(expr, kind, pos, params);
    if (neg) return `(${col} is null or not (${cond}))`;
    if (pos.condition === 'equals' && (kind === 'text' || kind === 'temporal')) {
      // Implied by the condition, and the key of the slot's index: a selective value is found there.
      const v = String(itemValues(pos)[0]);
      params.push(kind === 'text' ? v.toLowerCase() : v);
      return `(${cond} and left(${col}, ${TEXT_SORT_PREFIX}) = left(?, ${TEXT_SORT_PREFIX}))`;
    }
    return cond;
  }
  params.push(ctx.organizationId, field.id);
  const sub = `select 1 from field_value v where v.organization_id = ? and v.field_id = ? and v.entity_id = r.id and `;
  const cond = positive(customExpr(kind), kind, pos, params);
  return neg ? `not exists (${sub}${cond})` : `exists (${sub}${cond})`;
}

/** Validates the filters (same rules and messages as the filter editor) and returns their SQL. */
export function filtersSql(ctx: QueryContext, filters: readonly TableFilter[], params: unknown[]): string[] {
  const out: string[] = [];
  for (const f of filters) {
    const field = ctx.fieldsByKey.get(f.key);
    if (!field) throw badRequest(FILTER_MESSAGES.unknownField);
    const dataType = filterDataType(field);
    const problem = filterProblem(f, dataType);
    if (problem) throw badRequest(problem);
    const parts = f.items.map((item) => itemSql(ctx, field, dataType, item, params));
    out.push(parts.length === 1 ? parts[0] : `(${parts.join(f.operator === 'or' ? ' or ' : ' and ')})`);
  }
  return out;
}

export interface WhereInput {
  text?: string;
  filters?: readonly TableFilter[];
  ids?: readonly string[];
  excludeIds?: readonly string[];
}

/** A `where` with what pageIds needs to know to pick its plan. */
export interface WhereSql extends Sql {
  /** Only the organization condition: the total is the maintained record count. */
  unfiltered?: boolean;
  /** A search text is part of the condition. */
  searched?: boolean;
}

/** `where …` over `r` (the entity table) for the organization, search text, filters and id sets. */
export function whereSql(ctx: QueryContext, input: WhereInput): WhereSql {
  const spec = SPECS[ctx.entityType];
  const params: unknown[] = [ctx.organizationId];
  const parts = ['r.organization_id = ?'];
  const text = (input.text ?? '').trim().toLowerCase();
  if (text) {
    parts.push(`${spec.search} like ? escape '\\'`);
    params.push(`%${likeEscape(text)}%`);
  }
  parts.push(...filtersSql(ctx, input.filters ?? [], params));
  if (input.ids) {
    if (input.ids.length === 0) parts.push('false');
    else {
      parts.push(`r.id in (${input.ids.map(() => '?').join(', ')})`);
      params.push(...input.ids);
    }
  }
  if (input.excludeIds && input.excludeIds.length > 0) {
    parts.push(`r.id not in (${input.excludeIds.map(() => '?').join(', ')})`);
    params.push(...input.excludeIds);
  }
  return { text: `where ${parts.join(' and ')}`, params, unfiltered: parts.length === 1, searched: Boolean(text) };
}

/**
 * A sort by a custom field that has a slot: the rows with a value in the order of the slot's index
 * (value, id), then the rows without one in the table's default order — two index walks that
 * pageIds joins at the filled count.
 */
export interface SlotSort {
  slot: number;
  /** `r.num_3`: the slot column. */
  column: string;
  /** The slot's index key: the column, or its sort prefix for text. */
  key: string;
  desc: boolean;
}

export interface OrderSql {
  join: Sql;
  slotSort?: SlotSort;
  /**
   * Expressions with their directions, ending with the id tie-breaker. `nullable` terms (custom
   * values, the owner) put empty values last in either direction; the others keep PostgreSQL's
   * default null placement so a backward index scan still serves a descending sort.
   */
  terms: { expr: string; desc: boolean; nullable?: boolean }[];
}

/** The ORDER BY of a table request: a field key (custom or built-in) or id, a built-in alias, or the default. */
export function orderSql(ctx: QueryContext, sortKey: string | null | undefined, sortOrder: 'asc' | 'desc' | null | undefined): OrderSql {
  const spec = SPECS[ctx.entityType];
  const desc = sortOrder === 'desc';
  const noJoin = { text: '', params: [] as unknown[] };
  if (sortKey && sortOrder) {
    // The organization's fields come first: a custom field may have a key that is also a built-in
    // alias (a contact field labelled 'Name' has the key 'name').
    const field = ctx.fieldsByKey.get(sortKey) ?? [...ctx.fieldsByKey.values()].find((f) => f.id === sortKey);
    if (field && !field.builtInColumn) {
      // Values in order (ties by id), the rows without a value last, in the table's default order:
      // (value, [default sort of the empty rows], id), in the sort's direction.
      const emptyTerms = (valueExpr: string) => spec.defaultSort.map((d) => ({ expr: `(case when ${valueExpr} is null then ${d} end)`, desc }));
      if (field.slot) {
        const column = `r.${slotColumn(field.slot)}`;
        const key = slotFamily(field.dataType as FieldDataType) === 'txt' ? `left(${column}, ${TEXT_SORT_PREFIX})` : column;
        return {
          join: noJoin,
          terms: [{ expr: key, desc, nullable: true }, ...emptyTerms(column), { expr: 'r.id', desc }],
          slotSort: { slot: field.slot, column, key, desc },
        };
      }
      const kind = kindOf(field.dataType as FieldDataType);
      const expr = kind === 'num' ? 'sv.value_num' : kind === 'bool' ? 'sv.value_bool' : kind === 'temporal' ? 'sv.value_text collate "C"' : 'lower(sv.value_text)';
      return {
        join: { text: 'left join field_value sv on sv.organization_id = ? and sv.field_id = ? and sv.entity_id = r.id', params: [ctx.organizationId, field.id] },
        terms: [{ expr, desc, nullable: true }, ...emptyTerms(expr), { expr: 'r.id', desc }],
      };
    }
    const builtInKey = field ? field.key : sortKey;
    const expr = spec.sorts[builtInKey] ?? (field ? `r.${field.builtInColumn}` : undefined);
    if (expr) return { join: noJoin, terms: [{ expr, desc, nullable: builtInKey === 'owner' }, { expr: 'r.id', desc }] };
    throw badRequest('Unknown sort column');
  }
  return { join: noJoin, terms: [...spec.defaultSort.map((expr) => ({ expr, desc: false })), { expr: 'r.id', desc: false }] };
}

export function orderBy(terms: OrderSql['terms'], reverse = false): string {
  return `order by ${terms.map((t) => {
    const desc = t.desc !== reverse;
    const nullsLast = t.nullable ? !reverse : !desc;
    return `${t.expr} ${desc ? 'desc' : 'asc'} nulls ${nullsLast ? 'last' : 'first'}`;
  }).join(', ')}`;
}

/** Rows of record_count an organization may pile up (one per insert or delete statement) before a read folds them into one. */
const COUNT_PARTS_BEFORE_FOLD = 64;

/**
 * How many companies or contacts the organization has (with `slot`: how many fill that slot): the
 * sum of its record_count rows, which
 * triggers on the tables keep exact (one row per insert or delete statement). When the rows pile up,
 * they are folded into one in a single statement (a concurrent fold skips the rows this one
 * deleted, and rows of transactions still open are left for the next time).
 */
export async function recordTotal(em: EntityManager, organizationId: string, entityType: RecordEntityType, slot: number | null = null): Promise<number> {
  const conn = em.getConnection();
  // `slot is null` / `slot = ?` (not `is not distinct from`), so the index on (organization, type, slot) serves both.
  const which = slot === null ? 'slot is null' : 'slot = ?';
  const key = slot === null ? [organizationId, entityType] : [organizationId, entityType, slot];
  const [row] = await conn.execute<{ n: number; parts: number }[]>(
    `select coalesce(sum(delta), 0)::int as n, count(*)::int as parts from record_count where organization_id = ? and entity_type = ? and ${which}`,
    key,
  );
  if (row.parts > COUNT_PARTS_BEFORE_FOLD) {
    await conn.execute(
      `with gone as (delete from record_count where organization_id = ? and entity_type = ? and ${which} returning delta)
       insert into record_count (organization_id, entity_type, slot, delta) select ?, ?, ?::smallint, sum(delta) from gone having count(*) > 0`,
      [...key, organizationId, entityType, slot],
    );
  }
  return row.n;
}

/** How many of the organization's records hold a value in a slot (record_count rows of that slot). */
export function slotTotal(em: EntityManager, organizationId: string, entityType: RecordEntityType, slot: number): Promise<number> {
  return recordTotal(em, organizationId, entityType, slot);
}

/** The most rows a search collects (see collectedPage); a larger set is counted and walked instead. */
export const COLLECT_MAX = 50_000;

/**
 * Total and the ids of one page, in one statement that first collects the rows of the set (a
 * materialized CTE), then counts them and sorts out the page (top-N). Used for a search text: its
 * matches often cluster in the sort order (searching 'summit' finds the names starting with
 * 'Summit'), and walking the sort index until enough matches turn up can then read most of the
 * table, whereas collecting the matches costs what counting them does. Collecting stops after
 * COLLECT_MAX rows: a set that large is dense enough to walk (null: the caller counts and walks).
 */
async function collectedPage(em: EntityManager, table: string, where: Sql, order: OrderSql, offset: number, limit: number, max: number): Promise<{ total: number; ids: string[] } | null> {
  const keys = order.terms.map((t, i) => (t.expr === 'r.id' ? null : `${t.expr} as k${i}`)).filter(Boolean);
  const outer = order.terms.map((t, i) => ({ ...t, expr: t.expr === 'r.id' ? 'm.id' : `m.k${i}` }));
  // A page past the middle is sorted out from the end (reverse order, then turned around), so the
  // top-N sort keeps at most half of the set (in memory rather than spilling to disk). Only the
  // branch the count picks is evaluated.
  const [row] = await em.getConnection().execute<{ n: number; ids: string[]; rev: boolean }[]>(
    `with m as materialized (select r.id${keys.map((k) => `, ${k}`).join('')} from ${table} r ${order.join.text} ${where.text} limit ${Math.floor(max) + 1}),
          c as (select count(*)::int as n from m)
     select c.n, c.n < 2 * ?::int as rev,
            case when c.n < 2 * ?::int
              then array(select m.id::text from m ${orderBy(outer, true)} limit greatest(0, least(?::int, c.n - ?::int)) offset greatest(0, c.n - ?::int - ?::int))
              else array(select m.id::text from m ${orderBy(outer)} limit ? offset ?) end as ids
       from c`,
    [...order.join.params, ...where.params, offset, offset, limit, offset, offset, limit, limit, offset],
  );
  if (row.n > max) return null;
  return { total: row.n, ids: row.rev ? [...row.ids].reverse() : row.ids };
}

/**
 * Total and the ids of one page. Without search or filters the total is the maintained count
 * (record_count) and the page an index-only walk of the sort index; with a search text, see
 * collectedPage. Otherwise (and for a search matching more than COLLECT_MAX rows) the set is
 * counted and the page read from the sort order, pages past the middle from the end in reverse
 * order, so the last page costs what the first does (the name indexes carry every searched column,
 * so a walk never reads the table itself).
 */
export async function pageIds(em: EntityManager, ctx: QueryContext, where: WhereSql, order: OrderSql, pageIndex: number, pageSize: number, opts: { collectMax?: number } = {}): Promise<{ total: number; ids: string[] }> {
  const table = SPECS[ctx.entityType].table;
  const conn = em.getConnection();
  if (where.searched) {
    const collected = await collectedPage(em, table, where, order, pageIndex * pageSize, pageSize, opts.collectMax ?? COLLECT_MAX);
    if (collected) return collected;
  }
  if (order.slotSort) return slotSortedPage(em, ctx, table, where, order.slotSort, pageIndex * pageSize, pageSize);
  const count = async () => (where.unfiltered
    ? recordTotal(em, ctx.organizationId, ctx.entityType)
    : (await conn.execute<{ n: number }[]>(`select count(*)::int as n from ${table} r ${where.text}`, where.params))[0].n);
  const fetch = async (offset: number, limit: number, reverse: boolean) => {
    const rows = await conn.execute<{ id: string }[]>(
      `select r.id from ${table} r ${order.join.text} ${where.text} ${orderBy(order.terms, reverse)} limit ? offset ?`,
      [...order.join.params, ...where.params, limit, offset],
    );
    const ids = rows.map((r) => r.id);
    return reverse ? ids.reverse() : ids;
  };
  if (pageIndex === 0) {
    const [total, ids] = await Promise.all([count(), fetch(0, pageSize, false)]);
    return { total, ids };
  }
  const total = await count();
  const offset = pageIndex * pageSize;
  if (offset >= total) return { total, ids: [] };
  if (offset > total / 2) {
    const end = Math.min(total, offset + pageSize);
    return { total, ids: await fetch(total - end, end - offset, true) };
  }
  return { total, ids: await fetch(offset, pageSize, false) };
}

/**
 * A page sorted by a custom field that has a slot. The order is the rows with a value by (value,
 * id) — a walk of the slot's partial index — then the rows without one in the table's default
 * order — a walk of the name index, whose entries carry filled_mask, so both walks read no table
 * row without a search or filter. The number of rows with a value says which walk (or both, at
 * the seam) a page comes from; each walk reads from its nearer end. Without search or filters both
 * counts are maintained (record_count); otherwise one statement counts the set and its filled rows.
 */
async function slotSortedPage(em: EntityManager, ctx: QueryContext, table: string, where: WhereSql, sort: SlotSort, offset: number, limit: number): Promise<{ total: number; ids: string[] }> {
  const conn = em.getConnection();
  const spec = SPECS[ctx.entityType];
  let total: number;
  let filled: number;
  if (where.unfiltered) {
    [total, filled] = await Promise.all([recordTotal(em, ctx.organizationId, ctx.entityType), slotTotal(em, ctx.organizationId, ctx.entityType, sort.slot)]);
  } else {
    const [row] = await conn.execute<{ n: number; f: number }[]>(`select count(*)::int as n, count(${sort.column})::int as f from ${table} r ${where.text}`, where.params);
    total = row.n;
    filled = row.f;
  }
  if (offset >= total) return { total, ids: [] };
  const end = Math.min(total, offset + limit);
  // One part of the order: rows [from, to) of a set of `size` rows, read from its nearer end.
  const part = async (cond: string, terms: OrderSql['terms'], size: number, from: number, to: number): Promise<string[]> => {
    if (to <= from) return [];
    const reverse = from > size - to;
    const rows = await conn.execute<{ id: string }[]>(
      `select r.id from ${table} r ${where.text} and ${cond} ${orderBy(terms, reverse)} limit ? offset ?`,
      [...where.params, to - from, reverse ? size - to : from],
    );
    const ids = rows.map((r) => r.id);
    return reverse ? ids.reverse() : ids;
  };
  const [withValue, without] = await Promise.all([
    part(`${sort.column} is not null`, [{ expr: sort.key, desc: sort.desc }, { expr: 'r.id', desc: sort.desc }], filled, offset, Math.min(end, filled)),
    part(`(r.filled_mask & ${slotBit(sort.slot)}) = 0`, [...spec.defaultSort.map((expr) => ({ expr, desc: sort.desc })), { expr: 'r.id', desc: sort.desc }], total - filled, Math.max(0, offset - filled), end - filled),
  ]);
  return { total, ids: [...withValue, ...without] };
}
