// Lists, sources and ideas (spec 002 §3, §4, §7). Every statement names the organization (raw SQL
// is not covered by the ORM's tenant filter) and goes through tenantSql, which refuses one that does not. The list's and the sources' totals are kept by the
// statements that change ideas: each locks the list row first (so writers of one list queue on it),
// changes the ideas set-based and adds the deltas it saw in the same transaction — a list of a
// million ideas answers its totals without counting.
import { expandDetails, type RunField } from './score-breakdown';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  companyProblems,
  normalizeDomain,
  roundEstimate,
  totalPagesFor,
  EXACT_TOTAL_MAX,
  LIST_MESSAGES,
  realtimePaths,
  type IdeaStatus,
} from '@dealscout/shared/domain';
import { REALTIME_EVENT_KINDS, type IdeaDto, type IdeaFilters, type ListDto, type ListSourceDto } from '@dealscout/shared/contracts';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { orderBy, type OrderSql } from '../records/table-query';
import { ideaWhere, keepGenerated, type IdeaWhere } from '../records/idea-query';
import { publishEntityChange } from '../records/records.service';
import { publish } from '../realtime/publish';
import { loadResults } from '../enrichments/enrichment.presenter';
import { tenantSql, unscopedSql } from '../../db/sql';
import { carryIdeaBoundaries, IDEA_MAP_MIN_TOTAL, listVersion, pageFromBoundaries } from './idea-boundaries';

export interface Actor {
  organizationId: string;
  userId: string;
}

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
const pgArray = (xs: readonly string[]) => `{${xs.map((x) => `"${x.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;

// ---------- presenting ----------

function toSourceDto(r: Row): ListSourceDto {
  // A provider source whose last list execution ended in error (retries spent, a crash) is failed,
  // with the execution's message, whatever its own row last said.
  const dead = (r.status === 'pending' || r.status === 'inProgress') && r.e_status === 'error';
  return {
    id: String(r.id),
    listCompanyId: String(r.list_id),
    type: String(r.type),
    status: (dead ? 'failed' : r.status) as ListSourceDto['status'],
    reason: (r.reason as string | null) ?? null,
    statusSeverity: dead ? 'error' : ((r.status_severity as string | null) ?? null),
    statusReason: dead
      ? ((r.e_message as string | null) ?? (r.status_reason as string | null) ?? null)
      : ((r.status_reason as string | null) ?? null),
    parameters: (r.parameters as Record<string, unknown>) ?? {},
    shortlisted: Number(r.shortlisted),
    total: Number(r.total),
    createdAt: iso(r.created_at),
  };
}

/** Lists by id, with their sources and creators, in the order of `ids`. */
export async function listDtos(em: EntityManager, organizationId: string, ids: readonly string[]): Promise<ListDto[]> {
  if (ids.length === 0) return [];
  const db = tenantSql(em, organizationId);
  // The sources first, then the lists, one after the other: a source completes in the transaction
  // that adds its ideas to the list's totals, and two statements each see the commits made before
  // they start. Read side by side (two connections), a list could show a completed source with the
  // totals from before it; read in this order, a completed source's ideas are always counted.
  const sources = await db.all<Row>(
    `select s.*, e.status as e_status, e.status_message as e_message from list_source s
       left join lateral (select x.status, x.status_message from execution x where x.organization_id = s.organization_id and x.type =
         'list' and x.type_id = s.id
                           order by x.created_at desc limit 1) e on s.status in ('pending', 'inProgress')
      where s.organization_id = ? and s.list_id = any(?::uuid[]) order by s.created_at, s.id`,
    [organizationId, pgArray(ids)],
  );
  const lists = await db.all<Row>(
    `select l.*, u.id as u_id, u.first_name as u_first, u.last_name as u_last, u.email as u_email
       from list_company l left join app_user u on u.organization_id = l.organization_id and u.id = l.created_by_id
      where l.organization_id = ? and l.id = any(?::uuid[])`,
    [organizationId, pgArray(ids)],
  );
  const byId = new Map(lists.map((l) => [String(l.id), l]));
  return ids
    .filter((id) => byId.has(id))
    .map((id) => {
      const l = byId.get(id)!;
      const own = sources.filter((s) => String(s.list_id) === id).map(toSourceDto);
      return {
        id,
        name: String(l.name),
        status: l.status as ListDto['status'],
        sources: own,
        totalSources: own.length,
        totalShortListedIdeas: Number(l.total_short_listed_ideas),
        totalIdeas: Number(l.total_ideas),
        createdAt: iso(l.created_at),
        updatedAt: iso(l.updated_at),
        createdBy: l.u_id
          ? { id: String(l.u_id), firstName: String(l.u_first), lastName: String(l.u_last), email: String(l.u_email) }
          : null,
      };
    });
}

export async function listOr404(em: EntityManager, organizationId: string, id: string): Promise<ListDto> {
  const [l] = await listDtos(em, organizationId, [id]);
  if (!l) throw notFound(LIST_MESSAGES.listNotFound);
  return l;
}

/**
 * A scoring result's id in the API (spec 002 §3 scoringResults[].id), derived from its model and idea: idea_score
 * stores none (Migration20261130090000). A version-5-shaped UUID of the md5 of the two ids, the same for every run.
 */
export const scoreResultId = (alias: string) =>
  `overlay(overlay(md5(${alias}.model_id::text || ${alias}.idea_id::text) placing '5' from 13) placing '8' from 17)::uuid`;

/** Ideas by id, in the order of `ids`, with their enrichment results, executions and company. */
export async function ideaDtos(em: EntityManager, organizationId: string, ids: readonly string[]): Promise<IdeaDto[]> {
  if (ids.length === 0) return [];
  const db = tenantSql(em, organizationId);
  const arr = pgArray(ids);
  const [rows, results, executions, scores] = await Promise.all([
    db.all<Row>(
      `select i.*, c.name as c_name, c.domain as c_domain from idea i left join company c on c.organization_id = i.organization_id and c.id = i.company_id
        where i.organization_id = ? and i.id = any(?::uuid[])`,
      [organizationId, arr],
    ),
    loadResults(em, organizationId, `r.entity_type = 'idea' and r.entity_id = any(?::uuid[])`, [arr]),
    db.all<Row>(
      `select id, type, type_id, status, status_message, entity_id from execution where organization_id = ? and entity_type = 'idea' and
        entity_id = any(?::uuid[])
          and status in ('scheduled', 'processing') order by created_at`,
      [organizationId, arr],
    ),
    db.all<Row>(
      `select ${scoreResultId('s')} as id, s.model_id, s.idea_id, s.status, s.status_message, s.details,
         s.execution_id, s.total_score, sr.fields from idea_score s
         left join score_run sr on sr.organization_id = s.organization_id and sr.id = s.execution_id
        where s.organization_id = ? and s.idea_id = any(?::uuid[]) order by s.updated_at`,
      [organizationId, arr],
    ),
  ]);
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  return ids
    .filter((id) => byId.has(id))
    .map((id) => {
      const r = byId.get(id)!;
      return {
        id,
        listCompanyId: String(r.list_id),
        name: String(r.name),
        website: String(r.website),
        domain: String(r.domain),
        shortListed: Boolean(r.short_listed),
        status: r.status as IdeaStatus,
        sourceIds: (r.source_ids as string[]) ?? [],
        data: (r.data as Record<string, unknown>) ?? {},
        enrichmentResults: results.filter((x) => x.entityId === id),
        scoringResults: scores
          .filter((x) => String(x.idea_id) === id)
          .map((x) => ({
            id: String(x.id),
            scoringModelId: String(x.model_id),
            status: String(x.status),
            entityId: id,
            statusMessage: (x.status_message as string | null) ?? null,
            details: expandDetails(x.details, x.fields as RunField[] | null),
            executionId: (x.execution_id as string | null) ?? null,
            totalScore: x.total_score === null ? null : Number(x.total_score),
          })),
        executions: executions
          .filter((x) => String(x.entity_id) === id)
          .map((x) => ({
            id: String(x.id),
            type: String(x.type),
            typeId: (x.type_id as string | null) ?? null,
            status: String(x.status),
            statusMessage: (x.status_message as string | null) ?? null,
          })),
        company: r.company_id ? { id: String(r.company_id), name: String(r.c_name), domain: String(r.c_domain) } : null,
        createdAt: iso(r.created_at),
        updatedAt: iso(r.updated_at),
      };
    });
}

/** Tells the open list page (org/{oid}/lists/{listId}) and the lists table that a list changed. */
export async function publishListChange(em: EntityManager, organizationId: string, listId: string, what: string): Promise<void> {
  await publish(em, organizationId, [
    {
      path: realtimePaths.lists(organizationId, listId),
      kind: REALTIME_EVENT_KINDS.entityUpdated,
      key: `list:${listId}`,
      data: { id: listId, what },
    },
  ]);
}

// ---------- the ideas table ----------

/** Pages within this many rows of either end take the offset walk from the nearer end (as short as a boundary walk). */
const EDGE_ROWS = 500;

/** Idea rows a sample aims at, and the least matches it needs before the estimate is trusted. */
const SAMPLE_TARGET_ROWS = 3_000;

/**
 * Total and the ids of one page of a list's ideas, the way the companies table pages
 * (docs/ARCHITECTURE.md 'Paging', 'Estimated totals'): without filters (or with the shortlist flag
 * alone) the total is the list's maintained one; otherwise the set is counted up to
 * EXACT_TOTAL_MAX + 1 rows, and a larger set's total is estimated from a repeatable sample of the
 * list's ideas (three standard deviations must still be above 10,000, else it is counted). Pages
 * past the middle of an exact total are read from the end in the reverse order.
 */
export async function ideaPage(
  em: EntityManager,
  list: { id: string; totalIdeas: number; totalShortListedIdeas: number },
  where: IdeaWhere,
  terms: OrderSql['terms'],
  pageIndex: number,
  pageSize: number,
  exactMax = EXACT_TOTAL_MAX,
): Promise<{ total: number; ids: string[]; estimate: boolean }> {
  const db = tenantSql(em, where.organizationId);
  const fetch = async (offset: number, limit: number, reverse: boolean) => {
    const rows = await db.all<{ id: string }>(`select r.id from idea r ${where.text} ${orderBy(terms, reverse)} limit ? offset ?`, [
      ...where.params,
      limit,
      offset,
    ]);
    const ids = rows.map((r) => r.id);
    return reverse ? ids.reverse() : ids;
  };
  const count = async (): Promise<{ total: number; estimate: boolean }> => {
    if (where.maintained === 'all') return { total: list.totalIdeas, estimate: false };
    if (where.maintained === 'shortlisted') return { total: list.totalShortListedIdeas, estimate: false };
    if (where.maintained === 'notShortlisted') return { total: list.totalIdeas - list.totalShortListedIdeas, estimate: false };
    const [c] = await db.all<{ n: number }>(`select count(*)::int as n from (select 1 from idea r ${where.text} limit ?) x`, [
      ...where.params,
      exactMax + 1,
    ]);
    if (c.n <= exactMax) return { total: c.n, estimate: false };
    const percent = Math.min(100, (100 * SAMPLE_TARGET_ROWS) / Math.max(1, list.totalIdeas));
    const cond = where.text.replace(/^where /, '');
    const [s] = await db.all<{ rows: number; matched: number }>(
      `select count(*)::int as rows, count(*) filter (where ${cond})::int as matched from idea r tablesample system (?::float8)
        repeatable (17) where r.organization_id = ? and r.list_id = ?`,
      [...where.params, percent, where.params[0], where.params[1]],
    );
    if (s.rows > 0 && s.matched >= 30) {
      const low = ((s.matched - 3 * Math.sqrt(s.matched)) / s.rows) * list.totalIdeas;
      if (low > exactMax) return { total: roundEstimate((s.matched / s.rows) * list.totalIdeas), estimate: true };
    }
    const [all] = await db.all<{ n: number }>(`select count(*)::int as n from idea r ${where.text}`, where.params);
    return { total: all.n, estimate: false };
  };
  if (pageIndex === 0) {
    const [c, ids] = await Promise.all([count(), fetch(0, pageSize, false)]);
    return { ...c, ids };
  }
  const c = await count();
  const offset = pageIndex * pageSize;
  if (c.estimate) {
    // The last page by the estimate is read from the end, so 'Last page' shows the set's last rows.
    if (pageIndex >= totalPagesFor(c.total, pageSize) - 1) return { ...c, ids: await fetch(0, pageSize, true) };
    // A page between starts at its share of the list's order, from the list's page-boundary map
    // (idea-boundaries.ts): an estimated position, like the companies table's.
    const rank = Math.floor((offset / Math.max(1, c.total)) * list.totalIdeas);
    const ids = await pageFromBoundaries(em, where.organizationId, list.id, terms, where, rank, pageSize, false);
    if (ids && ids.length > 0) return { ...c, ids };
    return { ...c, ids: await fetch(offset, pageSize, false) };
  }
  if (offset >= c.total) return { ...c, ids: [] };
  // A page in the middle of a large list (no filter): from the nearest page boundary of a map built
  // at the list's current version — exact ranks — instead of OFFSET (idea-boundaries.ts).
  if (where.maintained === 'all' && c.total >= IDEA_MAP_MIN_TOTAL && offset > EDGE_ROWS && c.total - offset > EDGE_ROWS) {
    const ids = await pageFromBoundaries(em, where.organizationId, list.id, terms, where, offset, pageSize, true);
    if (ids) return { ...c, ids };
  }
  if (offset > c.total / 2) {
    const end = Math.min(c.total, offset + pageSize);
    return { ...c, ids: await fetch(c.total - end, end - offset, true) };
  }
  return { ...c, ids: await fetch(offset, pageSize, false) };
}

// ---------- writes ----------

interface ListRow {
  id: string;
  total_ideas: number;
  total_short_listed_ideas: number;
  status: string;
}

/** Locks the list row for the rest of the transaction (writers of one list queue here); 404 when it is not the organization's. */
export async function lockList(em: EntityManager, organizationId: string, listId: string): Promise<ListRow> {
  const [l] = await tenantSql(em, organizationId).all<ListRow>(
    `select id, total_ideas, total_short_listed_ideas, status from list_company where organization_id = ? and id = ? for update`,
    [organizationId, listId],
  );
  if (!l) throw notFound(LIST_MESSAGES.listNotFound);
  return l;
}

async function addTotals(em: EntityManager, organizationId: string, listId: string, ideas: number, shortlisted: number): Promise<void> {
  await tenantSql(em, organizationId).run(
    `update list_company set total_ideas = total_ideas + ?, total_short_listed_ideas = total_short_listed_ideas + ?, updated_at = now()
      where organization_id = ? and id = ?`,
    [ideas, shortlisted, organizationId, listId],
  );
}

export async function createList(em: EntityManager, actor: Actor, name: string): Promise<string> {
  const [r] = await tenantSql(em, actor.organizationId).all<{ id: string }>(
    `insert into list_company (id, organization_id, name, created_by_id, created_at, updated_at) values (gen_random_uuid(), ?, ?, ?,
      now(), now()) returning id::text`,
    [actor.organizationId, name.trim(), actor.userId],
  );
  return r.id;
}

export async function renameList(em: EntityManager, actor: Actor, listId: string, name: string): Promise<void> {
  const res = await tenantSql(em, actor.organizationId).all<{ id: string }>(
    `update list_company set name = ?, updated_at = now() where organization_id = ? and id = ? returning id`,
    [name.trim(), actor.organizationId, listId],
  );
  if (res.length === 0) throw notFound(LIST_MESSAGES.listNotFound);
  await publishListChange(em, actor.organizationId, listId, 'renamed');
}

export async function deleteList(em: EntityManager, actor: Actor, listId: string): Promise<void> {
  await em.transactional(async (tem) => {
    await lockList(tem, actor.organizationId, listId);
    const db = tenantSql(tem, actor.organizationId);
    await db.run(
      `delete from enrichment_result er using idea i where er.organization_id = ? and er.entity_type = 'idea' and i.organization_id = ?
        and i.list_id = ? and er.entity_id = i.id`,
      [actor.organizationId, actor.organizationId, listId],
    );
    // Ideas and sources go with the list (ON DELETE CASCADE).
    await db.run(`delete from list_company where organization_id = ? and id = ?`, [actor.organizationId, listId]);
    await publishListChange(tem, actor.organizationId, listId, 'deleted');
  });
}

/** The list's source of a kind that collects ideas over time (manual adds), created on first use. */
async function standingSource(em: EntityManager, actor: Actor, listId: string, type: string): Promise<string> {
  const db = tenantSql(em, actor.organizationId);
  const [s] = await db.all<{ id: string }>(
    `select id::text from list_source where organization_id = ? and list_id = ? and type = ? order by created_at limit 1`,
    [actor.organizationId, listId, type],
  );
  if (s) return s.id;
  const [n] = await db.all<{ id: string }>(
    `insert into list_source (id, organization_id, list_id, type, status, parameters, created_by_id, created_at, updated_at) values
      (gen_random_uuid(), ?, ?, ?, 'completed', '{}', ?, now(), now()) returning id::text`,
    [actor.organizationId, listId, type, actor.userId],
  );
  return n.id;
}

/** A manual idea (POST /list-company/idea): validated like a company; a domain already in the list is a 409. */
export async function addManualIdea(
  em: EntityManager,
  actor: Actor,
  listId: string,
  companyName: string | null | undefined,
  website: string | null | undefined,
): Promise<string> {
  const problems = companyProblems({ name: companyName, website });
  const first = problems.name ?? problems.website;
  if (first) throw badRequest(first);
  const name = companyName!.trim();
  const site = website!.trim();
  const domain = normalizeDomain(site);
  return em.transactional(async (tem) => {
    await lockList(tem, actor.organizationId, listId);
    const sourceId = await standingSource(tem, actor, listId, 'manual');
    const db = tenantSql(tem, actor.organizationId);
    const rows = await db.all<{ id: string }>(
      `insert into idea (id, organization_id, list_id, name, website, domain, source_ids, status, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, ?, ?, ?, ?::text[], 'idea', now(), now())
       on conflict (organization_id, list_id, domain) do nothing returning id::text`,
      [actor.organizationId, listId, name, site, domain, pgArray([sourceId])],
    );
    if (rows.length === 0) throw conflict(LIST_MESSAGES.duplicateIdea);
    await db.run(`update list_source set total = total + 1, updated_at = now() where organization_id = ? and id = ?`, [
      actor.organizationId,
      sourceId,
    ]);
    await addTotals(tem, actor.organizationId, listId, 1, 0);
    await publishListChange(tem, actor.organizationId, listId, 'ideas');
    return rows[0].id;
  });
}

/**
 * The lists that hold a company, by its website's normalized domain (the side panel): one indexed
 * probe per list of the organization ((organization_id, list_id, domain) is unique), newest list
 * first, each with its idea as the ideas table reads it. The caller adds the lists' models and enrichments.
 */
export async function ideasByDomain(
  em: EntityManager,
  organizationId: string,
  website: string,
): Promise<{ domain: string; rows: { listId: string; name: string; status: string; ideaId: string }[] }> {
  const domain = normalizeDomain(website);
  if (!domain) return { domain: '', rows: [] };
  const rows = await tenantSql(em, organizationId).all<{ list_id: string; name: string; status: string; idea_id: string }>(
    `select l.id::text as list_id, l.name, l.status, i.id::text as idea_id from list_company l
       join lateral (select x.id from idea x where x.organization_id = l.organization_id and x.list_id = l.id and x.domain = ?) i on true
      where l.organization_id = ? order by l.created_at desc, l.id limit 200`,
    [domain, organizationId],
  );
  return { domain, rows: rows.map((r) => ({ listId: r.list_id, name: r.name, status: r.status, ideaId: r.idea_id })) };
}

export interface IdeaInput {
  name: string;
  website: string;
  domain: string;
  data?: Record<string, unknown>;
}

/**
 * Adds a batch of ideas of one source to a list, set-based, in the caller's transaction (which
 * holds the list's lock: lockList). Rows are deduplicated by normalized domain: within the batch
 * the first row of a domain wins; a domain already in the list gains this source instead of a
 * second idea. Answers how many ideas were new and how many existing ones gained the source.
 */
export async function insertIdeas(
  em: EntityManager,
  organizationId: string,
  listId: string,
  sourceId: string,
  rows: readonly IdeaInput[],
): Promise<{ inserted: number; merged: number }> {
  if (rows.length === 0) return { inserted: 0, merged: 0 };
  const db = tenantSql(em, organizationId);
  const [r] = await db.all<{ inserted: number; merged: number; merged_short: number }>(
    `with src as (select distinct on (t.d) t.n, t.w, t.d, t.x, t.o from unnest(?::text[], ?::text[], ?::text[], ?::jsonb[]) with
      ordinality as t(n, w, d, x, o) order by t.d, t.o),
          ins as (insert into idea (id, organization_id, list_id, name, website, domain, source_ids, data, created_at, updated_at)
                  select gen_random_uuid(), ?, ?, src.n, src.w, src.d, array[?::text], src.x, clock_timestamp(), now() from src order by src.o
                  on conflict (organization_id, list_id, domain) do update set source_ids = idea.source_ids || excluded.source_ids, updated_at = now()
                   where not (idea.source_ids @> excluded.source_ids)
                  returning (xmax = 0) as inserted, short_listed)
     select (count(*) filter (where inserted))::int as inserted, (count(*) filter (where not inserted))::int as merged,
            (count(*) filter (where not inserted and short_listed))::int as merged_short from ins`,
    [
      pgArray(rows.map((x) => x.name)),
      pgArray(rows.map((x) => x.website)),
      pgArray(rows.map((x) => x.domain)),
      pgArray(rows.map((x) => JSON.stringify(x.data ?? {}))),
      organizationId,
      listId,
      sourceId,
    ],
  );
  await db.run(
    `update list_source set total = total + ?, shortlisted = shortlisted + ?, updated_at = now() where organization_id = ? and id = ?`,
    [r.inserted + r.merged, r.merged_short, organizationId, sourceId],
  );
  await addTotals(em, organizationId, listId, r.inserted, 0);
  return { inserted: r.inserted, merged: r.merged };
}

/** A new source of a list (its ideas come after). */
export async function createSource(
  em: EntityManager,
  actor: Actor,
  listId: string,
  type: string,
  parameters: Record<string, unknown>,
  status = 'pending',
  id?: string,
): Promise<string> {
  const [n] = await tenantSql(em, actor.organizationId).all<{ id: string }>(
    `insert into list_source (id, organization_id, list_id, type, status, parameters, created_by_id, created_at, updated_at)
     values (coalesce(?::uuid, gen_random_uuid()), ?, ?, ?, ?, ?::jsonb, ?, now(), now()) returning id::text`,
    [id ?? null, actor.organizationId, listId, type, status, JSON.stringify(parameters), actor.userId],
  );
  return n.id;
}

/** The selection of a bulk call: explicit ids, or 'all selected' by the table's filters (minus excludeIds). */
export function selectionWhere(
  organizationId: string,
  listId: string,
  ids: readonly string[] | undefined,
  filters: IdeaFilters | null | undefined,
): IdeaWhere {
  if (filters) return ideaWhere(organizationId, listId, filters);
  if (!ids || ids.length === 0) throw badRequest(LIST_MESSAGES.nothingSelected);
  return ideaWhere(organizationId, listId, { ids });
}

/**
 * Shortlists (or un-shortlists) the selection; answers how many ideas changed. One statement, in
 * one transaction with the list's totals: the flag written in place (a HOT update, idea's
 * fillfactor leaves room on its page), the sources' counts from the changed rows grouped by their
 * sources. The list's page-boundary maps stay valid (the set and its order are unchanged): they are
 * carried to the list's new version (idea-boundaries.ts).
 */
export async function setShortlist(em: EntityManager, actor: Actor, listId: string, where: IdeaWhere, status: boolean): Promise<number> {
  const r = await em.transactional(async (tem) => {
    await lockList(tem, actor.organizationId, listId);
    const before = await listVersion(tem, actor.organizationId, listId);
    const sign = status ? 1 : -1;
    // No JIT: compiling the scan's expressions costs more than it saves on one pass.
    await unscopedSql(tem, 'connection').run(`set local jit = off`);
    // keepGenerated: PostgreSQL 18 would rebuild search_text's expression for every row.
    const [c] = await tenantSql(tem, actor.organizationId).all<{ n: number }>(
      `with u as (update idea r set short_listed = ?, updated_at = now(), ${keepGenerated('r')} ${where.text} and r.short_listed <> ?
                  returning r.source_ids),
            g as (select source_ids, count(*)::int as n from u group by source_ids),
            s as (update list_source ls set shortlisted = ls.shortlisted + ? * x.n, updated_at = now()
                    from (select sid, sum(g.n)::int as n from g, unnest(g.source_ids) sid group by sid) x
                   where ls.organization_id = ? and ls.id::text = x.sid)
       select coalesce(sum(n), 0)::int as n from g`,
      [status, ...where.params, status, sign, actor.organizationId],
    );
    if (c.n === 0) return { n: 0, before, after: before };
    await addTotals(tem, actor.organizationId, listId, 0, sign * c.n);
    await publishListChange(tem, actor.organizationId, listId, 'shortlist');
    return { n: c.n, before, after: await listVersion(tem, actor.organizationId, listId) };
  });
  if (r.n > 0 && r.before && r.after) carryIdeaBoundaries(actor.organizationId, listId, r.before.version, r.after.version);
  return r.n;
}

/** Deletes the selection (and its enrichment results); answers how many ideas went. */
export async function deleteIdeas(em: EntityManager, actor: Actor, listId: string, where: IdeaWhere): Promise<number> {
  return em.transactional(async (tem) => {
    await lockList(tem, actor.organizationId, listId);
    const [r] = await tenantSql(tem, actor.organizationId).all<{ n: number; s: number }>(
      `with d as (delete from idea r ${where.text} returning r.id, r.source_ids, r.short_listed),
            e as (delete from enrichment_result er using d where er.organization_id = ? and er.entity_type = 'idea' and er.entity_id = d.id),
            s as (update list_source ls set total = ls.total - x.n, shortlisted = ls.shortlisted - x.sn, updated_at = now()
                    from (select sid, count(*)::int as n, (count(*) filter (where d.short_listed))::int as sn from d, unnest(d.source_ids) sid group by sid) x
                   where ls.organization_id = ? and ls.id::text = x.sid)
       select count(*)::int as n, (count(*) filter (where short_listed))::int as s from d`,
      [...where.params, actor.organizationId, actor.organizationId],
    );
    if (r.n > 0) {
      await addTotals(tem, actor.organizationId, listId, -r.n, -r.s);
      await publishListChange(tem, actor.organizationId, listId, 'ideas');
    }
    return r.n;
  });
}

/** Removes a source: its ideas that no other source proposed go with it; the others only lose its id. */
export async function deleteSource(em: EntityManager, actor: Actor, sourceId: string): Promise<void> {
  const [s] = await tenantSql(em, actor.organizationId).all<{ list_id: string }>(
    `select list_id::text from list_source where organization_id = ? and id = ?`,
    [actor.organizationId, sourceId],
  );
  if (!s) throw notFound(LIST_MESSAGES.sourceNotFound);
  await em.transactional(async (tem) => {
    await lockList(tem, actor.organizationId, s.list_id);
    const where = ideaWhere(actor.organizationId, s.list_id, {});
    const db = tenantSql(tem, actor.organizationId);
    const [r] = await db.all<{ n: number; s: number }>(
      `with d as (delete from idea r ${where.text} and r.source_ids = ?::text[] returning r.id, r.short_listed),
            e as (delete from enrichment_result er using d where er.organization_id = ? and er.entity_type = 'idea' and er.entity_id = d.id)
       select count(*)::int as n, (count(*) filter (where short_listed))::int as s from d`,
      [...where.params, pgArray([sourceId]), actor.organizationId],
    );
    await db.run(
      `update idea r set source_ids = array_remove(r.source_ids, ?::text), updated_at = now(), ${keepGenerated('r')}
        ${where.text} and r.source_ids @> ?::text[]`,
      [sourceId, ...where.params, pgArray([sourceId])],
    );
    await db.run(`delete from list_source where organization_id = ? and id = ?`, [actor.organizationId, sourceId]);
    await addTotals(tem, actor.organizationId, s.list_id, -r.n, -r.s);
    await publishListChange(tem, actor.organizationId, s.list_id, 'sources');
  });
}

// ---------- completing a list ----------

/** The shortlisted ideas a completion takes in, and how many of them already exist as companies (by domain). */
export async function completeConfirmation(
  em: EntityManager,
  organizationId: string,
  listId: string,
): Promise<{ total: number; existing: number; candidate: number }> {
  const db = tenantSql(em, organizationId);
  const [l] = await db.all<{ id: string }>(`select id from list_company where organization_id = ? and id = ?`, [organizationId, listId]);
  if (!l) throw notFound(LIST_MESSAGES.listNotFound);
  const [r] = await db.all<{ total: number; existing: number }>(
    `select count(*)::int as total, count(c.id)::int as existing
       from idea r left join company c on c.organization_id = r.organization_id and c.domain = r.domain
      where r.organization_id = ? and r.list_id = ? and r.short_listed and r.status = 'idea'`,
    [organizationId, listId],
  );
  return { total: r.total, existing: r.existing, candidate: r.total - r.existing };
}

/**
 * Turns the list's shortlisted ideas into companies (status inDealscout) in one transaction: a
 * company with the same domain is linked, not duplicated. Ideas already taken in are left alone,
 * so running it twice changes nothing.
 */
export async function completeList(em: EntityManager, actor: Actor, listId: string): Promise<{ created: number; linked: number }> {
  return em.transactional(async (tem) => {
    await lockList(tem, actor.organizationId, listId);
    const db = tenantSql(tem, actor.organizationId);
    const created = await db.all<{ id: string }>(
      `insert into company (id, organization_id, name, website, domain, created_by_id, created_at, updated_at)
       select gen_random_uuid(), r.organization_id, r.name, r.website, r.domain, ?, now(), now()
         from idea r where r.organization_id = ? and r.list_id = ? and r.short_listed and r.status = 'idea'
       on conflict (organization_id, domain) do nothing returning id::text`,
      [actor.userId, actor.organizationId, listId],
    );
    const [u] = await db.all<{ n: number }>(
      `with u as (update idea r set status = 'inDealscout', company_id = c.id, updated_at = now(), ${keepGenerated('r')} from company c
                   where r.organization_id = ? and r.list_id = ? and r.short_listed and r.status = 'idea'
                     and c.organization_id = r.organization_id and c.domain = r.domain returning r.id)
       select count(*)::int as n from u`,
      [actor.organizationId, listId],
    );
    await db.run(
      `update list_company set status = 'completed', updated_at = now() where organization_id = ? and id = ? and (status <> 'completed' or ? > 0)`,
      [actor.organizationId, listId, u.n],
    );
    if (created.length)
      await publishEntityChange(
        tem,
        actor.organizationId,
        'company',
        'created',
        created.map((c) => c.id),
      );
    if (u.n) await publishListChange(tem, actor.organizationId, listId, 'completed');
    return { created: created.length, linked: u.n - created.length };
  });
}
