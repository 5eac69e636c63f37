// The lists' reads and downloads behind lists.routes.ts: a page of the lists table, the users who
// created lists, the scoring models of lists, a source's rejected rows and a list's ideas as CSV
// (both streamed in keyset batches), and a failed upload's source.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { IdeaExportBody, ListDto, ListsQuery } from '@dealscout/shared/contracts';
import { csvCell, exportValueText, totalPagesFor, LIST_MESSAGES } from '@dealscout/shared/domain';
import { badRequest, notFound } from '../../lib/errors';
import { tenantSql } from '../../db/sql';
import { retryOnConnectionLoss } from '../../db/connection-loss';
import { likeEscape, orderBy } from '../records/table-query';
import { exportScoreColumns } from './export-scores';
import { exportEnrichmentColumns } from './export-enrichments';
import { listDtos, publishListChange, selectionWhere } from './lists.service';
import { ideaWhere } from '../records/idea-query';

const LIST_SORTS: Record<string, string> = {
  createdAt: 'l.created_at',
  updatedAt: 'l.updated_at',
  name: 'lower(l.name)',
  status: 'l.status',
  totalIdeas: 'l.total_ideas',
  totalShortListedIdeas: 'l.total_short_listed_ideas',
  createdBy: `lower(coalesce(u.first_name || ' ' || u.last_name, ''))`,
};

/** A page of the lists table (search, status, created by; newest first by default). */
export async function listsPage(em: EntityManager, organizationId: string, q: z.output<typeof ListsQuery>) {
  const conds = ['l.organization_id = ?'];
  const params: unknown[] = [organizationId];
  const text = q.text.trim().toLowerCase();
  if (text) {
    conds.push(`lower(l.name) like ? escape '\\'`);
    params.push(`%${likeEscape(text)}%`);
  }
  const statuses = q.status ? (Array.isArray(q.status) ? q.status : [q.status]) : [];
  if (statuses.length) {
    conds.push(`l.status = any(?::text[])`);
    params.push(`{${statuses.join(',')}}`);
  }
  if (q.createdBy.length) {
    conds.push(`l.created_by_id = any(?::uuid[])`);
    params.push(`{${q.createdBy.join(',')}}`);
  }
  let terms = [
    { expr: 'l.created_at', desc: true },
    { expr: 'l.id', desc: true },
  ];
  if (q.sortKey && q.sortOrder) {
    const expr = LIST_SORTS[q.sortKey];
    if (!expr) throw badRequest('Unknown sort column');
    terms = [
      { expr, desc: q.sortOrder === 'desc' },
      { expr: 'l.id', desc: q.sortOrder === 'desc' },
    ];
  }
  const from = `from list_company l left join app_user u on u.organization_id = l.organization_id and u.id = l.created_by_id where ${conds.join(' and ')}`;
  const db = tenantSql(em, organizationId);
  const [[c], rows] = await Promise.all([
    db.all<{ n: number }>(`select count(*)::int as n ${from}`, params),
    db.all<{ id: string }>(`select l.id::text as id ${from} ${orderBy(terms)} limit ? offset ?`, [
      ...params,
      q.pageSize,
      q.pageIndex * q.pageSize,
    ]),
  ]);
  return {
    lists: await listDtos(
      em,
      organizationId,
      rows.map((x) => x.id),
    ),
    hasRecords: c.n > 0,
    totalRecords: c.n,
    totalPages: totalPagesFor(c.n, q.pageSize),
    pageIndex: q.pageIndex,
    pageSize: q.pageSize,
  };
}

/** The users who created lists (the Created by filter). */
export async function listCreators(em: EntityManager, organizationId: string) {
  const rows = await tenantSql(em, organizationId).all<{ id: string; first_name: string; last_name: string; email: string }>(
    `select u.id::text, u.first_name, u.last_name, u.email from app_user u where u.organization_id = ? and exists (select 1 from
      list_company l where l.organization_id = u.organization_id and l.created_by_id = u.id) order by lower(u.first_name),
      lower(u.last_name), u.id`,
    [organizationId],
  );
  return rows.map((u) => ({ id: u.id, firstName: u.first_name, lastName: u.last_name, email: u.email }));
}

/** The scoring models of the given lists. */
export async function scoringModelsOfLists(em: EntityManager, organizationId: string, listIds: readonly string[]) {
  if (!listIds.length) return [];
  return tenantSql(em, organizationId).all<{ id: string; name: string; list_id: string }>(
    `select id::text, name, list_id::text from scoring_model where organization_id = ? and list_id = any(?::uuid[]) order by created_at, id`,
    [organizationId, `{${listIds.join(',')}}`],
  );
}

/** The rows of an upload that did not become ideas, with their reasons, as CSV (404 for an unknown source). */
export async function rejectedRowsCsv(em: EntityManager, organizationId: string, sourceId: string): Promise<AsyncGenerator<string>> {
  const db = tenantSql(em, organizationId);
  const [src] = await db.all<{ id: string }>(`select id from list_source where organization_id = ? and id = ?`, [organizationId, sourceId]);
  if (!src) throw notFound(LIST_MESSAGES.sourceNotFound);
  async function* csv() {
    yield '\uFEFF' + ['Line', 'Name', 'Website', 'Reason'].map(csvCell).join(',') + '\r\n';
    let after = 0;
    for (;;) {
      const rows = await db.all<{ line: number; name: string | null; website: string | null; reason: string }>(
        `select line, name, website, reason from list_source_rejection where organization_id = ? and source_id = ? and line > ? order by line limit 5000`,
        [organizationId, sourceId, after],
      );
      if (rows.length === 0) return;
      yield rows.map((x) => [x.line, x.name ?? '', x.website ?? '', x.reason].map(csvCell).join(',')).join('\r\n') + '\r\n';
      after = rows[rows.length - 1].line;
    }
  }
  return csv();
}

/** A list's ideas as CSV (ideaIds, ideaFilters, or the whole list), formula-safe, in keyset batches. */
export async function ideaExportCsv(
  em: EntityManager,
  organizationId: string,
  list: ListDto,
  b: z.output<typeof IdeaExportBody>,
): Promise<AsyncGenerator<string>> {
  const where =
    b.ideaIds?.length || b.ideaFilters
      ? selectionWhere(organizationId, list.id, b.ideaIds, b.ideaFilters)
      : ideaWhere(organizationId, list.id, {});
  const sourceType = new Map(list.sources.map((s) => [s.id, s.type]));
  const db = tenantSql(em.fork(), organizationId);
  // The extra columns of the list's sources (a CSV's other columns), in the order first seen.
  const keys = await db.all<{ k: string }>(
    `select distinct jsonb_object_keys(r.data) as k from (select data from idea r ${where.text} limit 1000) r order by 1`,
    where.params,
  );
  const extra = keys.map((k) => k.k);
  const scores = await exportScoreColumns(em.fork(), organizationId, list.id);
  const enriched = await exportEnrichmentColumns(em.fork(), organizationId, list.id);
  const BATCH = 2000;
  async function* csv() {
    yield (
      '\uFEFF' +
      ['Name', 'Website', 'Domain', 'Shortlisted', 'Status', 'Sources', 'Created', ...extra, ...enriched.header, ...scores.header]
        .map(csvCell)
        .join(',') +
      '\r\n'
    );
    // Keyset pages in the table's default order (newest first): each batch its own short query.
    // A page whose connection was cut is read again on a new one (reads only, from the same key):
    // the download goes on and every idea is in it once.
    let after: { at: unknown; id: string } | null = null;
    for (;;) {
      const page = after;
      const rows: Record<string, unknown>[] = await retryOnConnectionLoss(() =>
        db.all(
          `select r.id::text, r.name, r.website, r.domain, r.short_listed, r.status, r.source_ids, r.created_at, r.data from idea r ${where.text}
         ${page ? 'and (r.created_at, r.id) < (?, ?)' : ''} order by r.created_at desc, r.id desc limit ?`,
          [...where.params, ...(page ? [page.at, page.id] : []), BATCH],
        ),
      );
      if (rows.length === 0) return;
      let chunk = '';
      const ids = rows.map((x) => String(x.id));
      const scoreCells = await retryOnConnectionLoss(() => scores.cells(ids));
      const enrichmentCells = await retryOnConnectionLoss(() => enriched.cells(ids));
      for (const x of rows) {
        const data = (x.data ?? {}) as Record<string, unknown>;
        chunk +=
          [
            x.name,
            x.website,
            x.domain,
            x.short_listed ? 'Yes' : 'No',
            x.status,
            ((x.source_ids as string[]) ?? []).map((s) => sourceType.get(s) ?? s).join('; '),
            new Date(x.created_at as string).toISOString(),
            ...extra.map((k) => exportValueText(data[k], { key: k })),
            ...(enrichmentCells.get(String(x.id)) ?? []),
            ...(scoreCells.get(String(x.id)) ?? []),
          ]
            .map(csvCell)
            .join(',') + '\r\n';
      }
      yield chunk;
      const last = rows[rows.length - 1];
      after = { at: last.created_at, id: String(last.id) };
      if (rows.length < BATCH) return;
    }
  }
  return csv();
}

/**
 * A failed upload: bad input removes its source (the user uploads again); anything else leaves it
 * failed with the reason. Tried again on a new connection when the connection was cut.
 */
export async function failImportSource(
  em: EntityManager,
  organizationId: string,
  listId: string,
  sourceId: string,
  refused: boolean,
  reason: string,
): Promise<void> {
  const db = tenantSql(em, organizationId);
  await retryOnConnectionLoss(async () => {
    if (refused) await db.run(`delete from list_source where organization_id = ? and id = ?`, [organizationId, sourceId]);
    else {
      await db.run(
        `update list_source set status = 'failed', status_severity = 'error', status_reason = ?, updated_at = now()
                   where organization_id = ? and id = ? and status = 'inProgress'`,
        [reason, organizationId, sourceId],
      );
    }
    await publishListChange(em, organizationId, listId, 'sources');
  });
}
