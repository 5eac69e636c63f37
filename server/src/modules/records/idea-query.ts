// The ideas table of a list as SQL: the WHERE of its filters (also what 'all selected' means) and
// its ORDER BY. Lists page and export with it; enrichments and scoring run on the ideas it selects.
// Every WHERE names the organization first (raw SQL is not covered by the ORM's tenant filter).
import type { IdeaStatus } from '@dealscout/shared/domain';
import type { IdeaFilters } from '@dealscout/shared/contracts';
import { badRequest } from '../../lib/errors';
import { likeEscape, type OrderSql, type Sql } from './table-query';

const pgArray = (xs: readonly string[]) => `{${xs.map((x) => `"${x.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;

export interface IdeaWhere extends Sql {
  /** The organization the WHERE is scoped to (its first parameter). */
  organizationId: string;
  /** Only the list itself, or the list and the shortlist flag: the total is the list's maintained one. */
  maintained: 'all' | 'shortlisted' | 'notShortlisted' | null;
  searched: boolean;
}

/**
 * A SET item for a bulk UPDATE of idea that writes neither of search_text's inputs (name, domain).
 * Without it PostgreSQL 18 rebuilds the stored generated column's expression (parsing its stored
 * text) for every row, only to find it needs no recomputing: 45% of a shortlist's CPU. With `name`
 * in the SET the expression is built once and evaluated per row; the value is the same, so the
 * update stays HOT.
 */
export const keepGenerated = (alias: string) => `name = ${alias}.name`;

function statusesOf(s: IdeaFilters['recordStatus']): IdeaStatus[] {
  if (!s) return [];
  return Array.isArray(s) ? [...s] : [s];
}

/** The WHERE of the ideas of one list under the table's filters (also what 'all selected' means). */
export function ideaWhere(organizationId: string, listId: string, f: Partial<IdeaFilters> & { ids?: readonly string[] }): IdeaWhere {
  const conds = ['r.organization_id = ?', 'r.list_id = ?'];
  const params: unknown[] = [organizationId, listId];
  const text = (f.text ?? '').trim().toLowerCase();
  if (text) {
    conds.push(`r.search_text like ? escape '\\'`);
    params.push(`%${likeEscape(text)}%`);
  }
  if (f.inShortlist === true) conds.push('r.short_listed');
  if (f.inShortlist === false) conds.push('not r.short_listed');
  const statuses = statusesOf(f.recordStatus);
  if (statuses.length) {
    conds.push('r.status = any(?::text[])');
    params.push(pgArray(statuses));
  }
  if (f.listSourceIds?.length) {
    conds.push('r.source_ids && ?::text[]');
    params.push(pgArray(f.listSourceIds));
  }
  if (f.excludeIds?.length) {
    conds.push('r.id <> all(?::uuid[])');
    params.push(pgArray(f.excludeIds));
  }
  if (f.ids) {
    conds.push('r.id = any(?::uuid[])');
    params.push(pgArray(f.ids));
  }
  const only = !text && !statuses.length && !f.listSourceIds?.length && !f.excludeIds?.length && !f.ids;
  const maintained = !only ? null : f.inShortlist === true ? 'shortlisted' : f.inShortlist === false ? 'notShortlisted' : 'all';
  return { organizationId, text: `where ${conds.join(' and ')}`, params, maintained, searched: !!text };
}

const IDEA_SORTS: Record<string, string> = {
  createdAt: 'r.created_at',
  created_at: 'r.created_at',
  name: 'lower(r.name)',
  website: 'lower(r.website)',
  domain: 'r.domain',
  status: 'r.status',
  shortListed: 'r.short_listed',
  updatedAt: 'r.updated_at',
  updated_at: 'r.updated_at',
};

/** The ideas table's order: newest first by default (spec 002 §9), the id as tie-breaker. */
export function ideaOrder(sortKey: string | null | undefined, sortOrder: 'asc' | 'desc' | null | undefined): OrderSql['terms'] {
  if (!sortKey || !sortOrder)
    return [
      { expr: 'r.created_at', desc: true },
      { expr: 'r.id', desc: true },
    ];
  // A score column: `score:<model id>`, the idea's total for that model; unscored ideas
  // last either way. The id is checked to be a UUID before it is written into the expression (the
  // order terms carry no parameters); a model of another organization or list matches no result
  // (idea_score is read within the idea's own organization), so it only orders nothing.
  const score = /^score:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(sortKey);
  if (score) {
    const desc = sortOrder === 'desc';
    return [
      {
        expr: `(select s.total_score from idea_score s where s.organization_id = r.organization_id and s.model_id =
          '${score[1]!.toLowerCase()}'::uuid and s.idea_id = r.id)`,
        desc,
        nullable: true,
      },
      { expr: 'r.id', desc },
    ];
  }
  const expr = IDEA_SORTS[sortKey];
  if (!expr) throw badRequest('Unknown sort column');
  const desc = sortOrder === 'desc';
  return [
    { expr, desc },
    { expr: 'r.id', desc },
  ];
}
