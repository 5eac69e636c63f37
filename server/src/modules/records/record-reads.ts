// The record reads' use cases (routes in records.routes.ts): a company's or contact's details, the
// typeahead search, the owners a record may have, a page of the companies or contacts table, a
// table's exact total and its CSV export. Each receives one RecordContext: the request's
// EntityManager and the caller.
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type {
  CompanyDetails,
  CompanyDto,
  ContactDetails,
  ContactDto,
  ExportBody,
  SearchHit,
  TableQuery,
  TableTotalQuery,
} from '@dealscout/shared/contracts';
import { COMPANY_MESSAGES, CONTACT_MESSAGES, type RecordEntityType } from '@dealscout/shared/domain';
import { notFound } from '../../lib/errors';
import { tenantSql } from '../../db/sql';
import { User, type IUser } from '../users/user.entity';
import { companyDetails, companyRows, contactDetails, contactRows } from './presenter';
import { exactTotal, likeEscape, loadQueryContext, orderSql, pageIds, SPECS, whereSql } from './table-query';
import { exportCsv } from './export';
import { selectionWhere, type RecordContext } from './records.service';

/** A company with its contacts and field values (404 when it is not the organization's). */
export async function companyDetailsOf(ctx: RecordContext, id: string): Promise<CompanyDetails> {
  const c = await companyDetails(ctx.em, ctx.organizationId, id);
  if (!c) throw notFound(COMPANY_MESSAGES.notFound);
  return c;
}

/** A contact with its companies and field values (404 when it is not the organization's). */
export async function contactDetailsOf(ctx: RecordContext, id: string): Promise<ContactDetails> {
  const c = await contactDetails(ctx.em, ctx.organizationId, id);
  if (!c) throw notFound(CONTACT_MESSAGES.notFound);
  return c;
}

async function searchType(ctx: RecordContext, entityType: RecordEntityType, query: string, limit: number): Promise<SearchHit[]> {
  const { organizationId } = ctx;
  const spec = SPECS[entityType];
  const q = `%${likeEscape(query.trim().toLowerCase())}%`;
  if (entityType === 'company') {
    const rows = await tenantSql(ctx.em, organizationId).all<{ id: string; name: string; domain: string }>(
      `select r.id, r.name, r.domain from company r where r.organization_id = ? and ${spec.search} like ? escape '\\' order by lower(r.name), r.id limit ?`,
      [organizationId, q, limit],
    );
    return rows.map((x) => ({ id: x.id, entityType, title: x.name, subtitle: x.domain }));
  }
  const rows = await tenantSql(ctx.em, organizationId).all<{ id: string; first_name: string; last_name: string; email: string }>(
    `select r.id, r.first_name, r.last_name, r.email from contact r where r.organization_id = ? and ${spec.search} like ? escape '\\'
      order by lower(r.last_name), lower(r.first_name), r.id limit ?`,
    [organizationId, q, limit],
  );
  return rows.map((x) => ({ id: x.id, entityType, title: `${x.first_name} ${x.last_name}`, subtitle: x.email }));
}

/** Companies and/or contacts whose search text contains the query, each type in its own order. */
export async function searchRecords(
  ctx: RecordContext,
  search: { types: readonly RecordEntityType[]; query: string; limit: number },
): Promise<SearchHit[]> {
  return (await Promise.all(search.types.map((t) => searchType(ctx, t, search.query, search.limit)))).flat();
}

/** Users who can own companies and contacts: active, invitation accepted, not deleted. */
export async function listOwners(ctx: RecordContext): Promise<IUser[]> {
  return ctx.em.find(
    User,
    { status: 'active', invitationAccepted: true, deleted: false },
    { orderBy: { firstName: 'asc', lastName: 'asc' } },
  );
}

export interface TablePage<Row> {
  rows: Row[];
  total: number;
  /** The total is an estimate (a large filtered table); the count route gives the exact one. */
  estimate: boolean;
}

async function pageOf(ctx: RecordContext, entityType: RecordEntityType, q: z.output<typeof TableQuery>) {
  const qctx = await loadQueryContext(ctx.em, ctx.organizationId, entityType);
  return pageIds(
    ctx.em,
    qctx,
    whereSql(qctx, { text: q.text, filters: q.filters }),
    orderSql(qctx, q.sortKey, q.sortOrder),
    q.pageIndex,
    q.pageSize,
    { cursor: { afterId: q.afterId, beforeId: q.beforeId } },
  );
}

/** A page of the companies table (zero-based pageIndex, sort, search, filters). */
export async function companiesPage(ctx: RecordContext, q: z.output<typeof TableQuery>): Promise<TablePage<CompanyDto>> {
  const { total, ids, estimate } = await pageOf(ctx, 'company', q);
  return { rows: await companyRows(ctx.em, ctx.organizationId, ids), total, estimate: estimate === true };
}

/** A page of the contacts table (zero-based pageIndex, sort, search, filters). */
export async function contactsPage(ctx: RecordContext, q: z.output<typeof TableQuery>): Promise<TablePage<ContactDto>> {
  const { total, ids, estimate } = await pageOf(ctx, 'contact', q);
  return { rows: await contactRows(ctx.em, ctx.organizationId, ids), total, estimate: estimate === true };
}

/** The exact number of records a search and filters match. */
export async function exactRecordCount(
  ctx: RecordContext,
  entityType: RecordEntityType,
  q: z.output<typeof TableTotalQuery>,
): Promise<number> {
  const qctx = await loadQueryContext(ctx.em, ctx.organizationId, entityType);
  return exactTotal(ctx.em, qctx, whereSql(qctx, { text: q.text, filters: q.filters }));
}

/** The CSV of the selected or filtered rows, validated and started (cursor declared, first batch read). */
export async function exportRecords(
  ctx: RecordContext,
  entityType: RecordEntityType,
  input: z.output<typeof ExportBody>,
): Promise<Readable> {
  const qctx = await loadQueryContext(ctx.em, ctx.organizationId, entityType);
  return exportCsv(ctx.em, qctx, selectionWhere(qctx, input.selection), input.columns);
}
