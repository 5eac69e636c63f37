// The source 'Companies matching filters' (POST /list-company/filter): the organization's companies
// matching the companies table's search text and filters. A dry run counts them; otherwise they are
// added to the list as ideas (de-duplicated by domain) under a new completed source, in one
// transaction that locks the list first.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { ListFilterBody, ListFilterResponse } from '@dealscout/shared/contracts';
import { FILTER_SOURCE_MAX, LIST_SOURCE_MESSAGES } from '@dealscout/shared/domain';
import { badRequest } from '../../lib/errors';
import { tenantSql } from '../../db/sql';
import { exactTotal, loadQueryContext, whereSql } from '../records/table-query';
import { createSource, insertIdeas, listOr404, lockList, publishListChange, type Actor } from './lists.service';
import type { ListSourceScope } from './list-sources.service';

type Body = z.output<typeof ListFilterBody>;
type Where = ReturnType<typeof whereSql>;

/** The answer: `dryRun` true (the count only) or false (the source was created: the route answers 201). */
export async function addFilterSource(c: ListSourceScope, b: Body): Promise<ListFilterResponse> {
  await listOr404(c.em, c.organizationId, b.listCompanyId);
  // The filters are checked here (unknown field, empty value...: 400 with the filter editor's message).
  const ctx = await loadQueryContext(c.em, c.organizationId, 'company');
  const where = whereSql(ctx, { text: b.text, filters: b.filters });
  if (b.dryRun) {
    const total = await exactTotal(c.em, ctx, where);
    return { success: true as const, dryRun: true, total, message: '', sourceId: null, inserted: 0, merged: 0, skipped: 0, list: null };
  }
  const done = await c.em.transactional((tem) => addMatchingIdeas(tem, c, b, where));
  await publishListChange(c.em, c.organizationId, b.listCompanyId, 'sources');
  await publishListChange(c.em, c.organizationId, b.listCompanyId, 'ideas');
  return { success: true as const, dryRun: false, ...done, list: await listOr404(c.em, c.organizationId, b.listCompanyId) };
}

/** Inside the transaction: the list locked, the matching companies added as ideas under a new source with its report. */
async function addMatchingIdeas(tem: EntityManager, actor: Actor, b: Body, where: Where) {
  await lockList(tem, actor.organizationId, b.listCompanyId);
  const companies = await tenantSql(tem, actor.organizationId).all<{ name: string; website: string; domain: string }>(
    `select r.name, r.website, r.domain from company r ${where.text} order by r.created_at, r.id limit ${FILTER_SOURCE_MAX + 1}`,
    where.params,
  );
  if (companies.length > FILTER_SOURCE_MAX) throw badRequest(LIST_SOURCE_MESSAGES.filterTooMany(FILTER_SOURCE_MAX));
  if (companies.length === 0) throw badRequest(LIST_SOURCE_MESSAGES.filterNoMatch);
  const rows = companies.filter((c) => c.domain && c.website);
  const skipped = companies.length - rows.length;
  const sourceId = await createSource(
    tem,
    actor,
    b.listCompanyId,
    'filter',
    { text: b.text, filters: b.filters, matched: companies.length },
    'completed',
  );
  const res = await insertIdeas(tem, actor.organizationId, b.listCompanyId, sourceId, rows);
  const parts = [
    `${res.inserted.toLocaleString('en-US')} idea${res.inserted === 1 ? '' : 's'} added`,
    `${res.merged.toLocaleString('en-US')} already in the list`,
    `${skipped.toLocaleString('en-US')} without a domain skipped`,
  ];
  const message = parts.join(', ');
  await tenantSql(tem, actor.organizationId).run(
    `update list_source set status_severity = ?, status_reason = ?, updated_at = now() where organization_id = ? and id = ?`,
    [skipped ? 'warning' : 'info', message, actor.organizationId, sourceId],
  );
  return { sourceId, total: companies.length, message, skipped, ...res };
}
