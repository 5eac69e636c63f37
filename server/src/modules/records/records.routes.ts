import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

import {
  CreateCompanyBody,
  CreateContactBody,
  CreateEntityPairBody,
  UpdateCompanyBody,
  UpdateContactBody,
  CompanyResponse,
  ContactResponse,
  EntityPairResponse,
  GenericCreateBody,
  GenericCreateResponse,
  GenericUpdateBody,
  GenericUpdateResponse,
  MappingContactBody,
  MappingCompanyBody,
  MappingResponse,
  LinkBody,
  PairBody,
  SearchBody,
  SearchResponse,
  CompanyDetailsResponse,
  ContactDetailsResponse,
  OwnersResponse,
  TableQuery,
  TableTotalQuery,
  TableTotal,
  CompaniesPage,
  ContactsPage,
  BulkDeleteBody,
  BulkResponse,
  ExportBody,
  SuccessResponse,
  ErrorResponse,
  IdParams,
  type SearchHit,
} from '@dealscout/shared/contracts';
import { COMPANY_MESSAGES, CONTACT_MESSAGES, ENTITY_MESSAGES, totalPagesFor, type RecordEntityType } from '@dealscout/shared/domain';
import { authOf } from '../../plugins/types';
import { badRequest, notFound } from '../../lib/errors';
import { User } from '../users/user.entity';
import {
  createCompany,
  createContact,
  updateCompany,
  updateContact,
  linkCompanyContact,
  setKeyContact,
  setPrimaryCompany,
  updateMapping,
  deleteRecords,
  selectionWhere,
  toMappingDto,
  type Actor,
} from './records.service';
import { companyDetails, contactDetails, companyRows, contactRows } from './presenter';
import { loadQueryContext, whereSql, orderSql, pageIds, exactTotal, likeEscape, SPECS } from './table-query';
import { exportCsv } from './export';
import { tenantSql } from '../../db/sql';

function actorOf(req: FastifyRequest): Actor {
  const a = authOf(req);
  return { organizationId: a.organizationId, userId: a.user.id };
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A NUL character or an unpaired UTF-16 surrogate anywhere in a JSON body (PostgreSQL cannot store the one, and would store the other as U+FFFD). */
export function hasUnstorableText(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('\u0000') || LONE_SURROGATE.test(v);
  if (Array.isArray(v)) return v.some(hasUnstorableText);
  if (v && typeof v === 'object') return Object.entries(v).some(([k, x]) => hasUnstorableText(k) || hasUnstorableText(x));
  return false;
}

export const UNSTORABLE_TEXT = 'Text must not contain NUL characters or invalid Unicode (lone surrogates).';

export async function recordRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Bad characters are a 400 that changes nothing, before any handler runs (a NUL reached PostgreSQL as a 500).
  app.addHook('preValidation', async (req) => {
    if (hasUnstorableText(req.body)) throw badRequest(UNSTORABLE_TEXT);
  });

  async function companyOr404(req: FastifyRequest, id: string) {
    const c = await companyDetails(req.em, authOf(req).organizationId, id);
    if (!c) throw notFound(COMPANY_MESSAGES.notFound);
    return c;
  }
  async function contactOr404(req: FastifyRequest, id: string) {
    const c = await contactDetails(req.em, authOf(req).organizationId, id);
    if (!c) throw notFound(CONTACT_MESSAGES.notFound);
    return c;
  }

  // ---- create / update ----

  // The New Company dialog's route, and POST /company/create (spec 002 §7 'Company'), which answers alike.
  for (const path of ['/entity/company', '/company/create'])
    r.post(
      path,
      {
        schema: {
          tags: ['companies'],
          summary: 'Create a company, optionally with a new linked contact or linking an existing one',
          body: CreateCompanyBody,
          response: { 201: CompanyResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
        },
      },
      async (req, reply) => {
        const actor = actorOf(req);
        const id = await req.em.transactional(async (em) => {
          const company = await createCompany(em, actor, req.body.company);
          if (req.body.contact) {
            const contact = await createContact(em, actor, req.body.contact);
            await linkCompanyContact(em, actor, company.id, contact.id);
          } else if (req.body.assignContactId) {
            await linkCompanyContact(em, actor, company.id, req.body.assignContactId);
          }
          return company.id;
        });
        return reply.status(201).send({ success: true as const, message: COMPANY_MESSAGES.created, company: await companyOr404(req, id) });
      },
    );

  r.post(
    '/entity/contact',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Create a contact, optionally with a new linked company or linking an existing one',
        body: CreateContactBody,
        response: { 201: ContactResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const id = await req.em.transactional(async (em) => {
        const contact = await createContact(em, actor, req.body.contact);
        if (req.body.company) {
          const company = await createCompany(em, actor, req.body.company);
          await linkCompanyContact(em, actor, company.id, contact.id);
        } else if (req.body.assignCompanyId) {
          await linkCompanyContact(em, actor, req.body.assignCompanyId, contact.id);
        }
        return contact.id;
      });
      return reply.status(201).send({ success: true as const, message: CONTACT_MESSAGES.created, contact: await contactOr404(req, id) });
    },
  );

  r.post(
    '/entity',
    {
      schema: {
        tags: ['companies'],
        summary: 'Create a company and a contact together, linked (key contact, primary company)',
        body: CreateEntityPairBody,
        response: { 201: EntityPairResponse, 400: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const ids = await req.em.transactional(async (em) => {
        const company = await createCompany(em, actor, req.body.company);
        const contact = await createContact(em, actor, req.body.contact);
        await linkCompanyContact(em, actor, company.id, contact.id);
        return { companyId: company.id, contactId: contact.id };
      });
      return reply.status(201).send({ success: true as const, message: COMPANY_MESSAGES.created, ...ids });
    },
  );

  r.put(
    '/entity/company',
    {
      schema: {
        tags: ['companies'],
        summary: 'Update a company (owner via accountOwnerId; assignContactId links a contact)',
        body: UpdateCompanyBody,
        response: { 200: CompanyResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      await req.em.transactional(async (em) => {
        await updateCompany(em, actor, req.body.id, req.body.company, req.body.accountOwnerId);
        if (req.body.assignContactId) await linkCompanyContact(em, actor, req.body.id, req.body.assignContactId);
      });
      return { success: true as const, message: COMPANY_MESSAGES.updated, company: await companyOr404(req, req.body.id) };
    },
  );

  r.put(
    '/entity/contact',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Update a contact (owner via accountOwnerId; assignCompanyId links a company)',
        body: UpdateContactBody,
        response: { 200: ContactResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      await req.em.transactional(async (em) => {
        await updateContact(em, actor, req.body.id, req.body.contact, req.body.accountOwnerId);
        if (req.body.assignCompanyId) await linkCompanyContact(em, actor, req.body.assignCompanyId, req.body.id);
      });
      return { success: true as const, message: CONTACT_MESSAGES.updated, contact: await contactOr404(req, req.body.id) };
    },
  );

  r.post(
    '/entity/create',
    {
      schema: {
        tags: ['companies', 'contacts'],
        summary: 'Create a company or a contact; 201 with its id',
        body: GenericCreateBody,
        response: { 201: GenericCreateResponse, 400: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      if (req.body.entityType === 'company') {
        const c = await createCompany(req.em, actor, req.body.data);
        return reply.status(201).send({ success: true as const, message: COMPANY_MESSAGES.created, companyId: c.id });
      }
      const c = await createContact(req.em, actor, req.body.data);
      return reply.status(201).send({ success: true as const, message: CONTACT_MESSAGES.created, contactId: c.id });
    },
  );

  r.put(
    '/entity/update',
    {
      schema: {
        tags: ['companies', 'contacts'],
        summary: 'Update a company or a contact',
        body: GenericUpdateBody,
        response: { 200: GenericUpdateResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      if (req.body.entityType === 'company') {
        await updateCompany(req.em, actor, req.body.id, req.body.data);
        return { success: true as const, message: COMPANY_MESSAGES.updated };
      }
      await updateContact(req.em, actor, req.body.id, req.body.data);
      return { success: true as const, message: CONTACT_MESSAGES.updated };
    },
  );

  // ---- links ----

  r.post(
    '/company/create-mapping',
    {
      schema: {
        tags: ['companies'],
        summary: 'Link a contact to a company (201)',
        body: LinkBody,
        response: { 201: MappingResponse, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const { mapping } = await linkCompanyContact(req.em, actorOf(req), req.body.companyId, req.body.contactId, req.body);
      return reply.status(201).send({ success: true as const, message: ENTITY_MESSAGES.linked, mapping: toMappingDto(mapping) });
    },
  );

  r.put(
    '/entity/mapping-contact',
    {
      schema: {
        tags: ['companies'],
        summary: "A company's link to a contact: label, value, key flag, or remove",
        body: MappingContactBody,
        response: { 200: MappingResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      let m = await updateMapping(req.em, req.body.companyId, req.body.contactId, req.body);
      if (m && req.body.isKey) m = await setKeyContact(req.em, req.body.companyId, req.body.contactId);
      return { success: true as const, message: ENTITY_MESSAGES.linked, mapping: m ? toMappingDto(m) : null };
    },
  );

  r.put(
    '/entity/mapping-company',
    {
      schema: {
        tags: ['contacts'],
        summary: "A contact's link to a company: label, value, primary flag, or remove",
        body: MappingCompanyBody,
        response: { 200: MappingResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      let m = await updateMapping(req.em, req.body.companyId, req.body.contactId, req.body);
      if (m && req.body.isPrimary) m = await setPrimaryCompany(req.em, req.body.contactId, req.body.companyId);
      return { success: true as const, message: ENTITY_MESSAGES.linked, mapping: m ? toMappingDto(m) : null };
    },
  );

  r.put(
    '/company/set-key',
    {
      schema: {
        tags: ['companies'],
        summary: "Make a linked contact the company's key contact",
        body: PairBody,
        response: { 200: MappingResponse, 404: ErrorResponse },
      },
    },
    async (req) => ({
      success: true as const,
      message: ENTITY_MESSAGES.keySet,
      mapping: toMappingDto(await setKeyContact(req.em, req.body.companyId, req.body.contactId)),
    }),
  );

  r.put(
    '/contact/set-primary',
    {
      schema: {
        tags: ['contacts'],
        summary: "Make a linked company the contact's primary company",
        body: PairBody,
        response: { 200: MappingResponse, 404: ErrorResponse },
      },
    },
    async (req) => ({
      success: true as const,
      message: ENTITY_MESSAGES.primarySet,
      mapping: toMappingDto(await setPrimaryCompany(req.em, req.body.contactId, req.body.companyId)),
    }),
  );

  // ---- search ----

  async function search(req: FastifyRequest, entityType: RecordEntityType, query: string, limit: number): Promise<SearchHit[]> {
    const { organizationId } = authOf(req);
    const spec = SPECS[entityType];
    const q = `%${likeEscape(query.trim().toLowerCase())}%`;
    if (entityType === 'company') {
      const rows = await tenantSql(req.em, organizationId).all<{ id: string; name: string; domain: string }>(
        `select r.id, r.name, r.domain from company r where r.organization_id = ? and ${spec.search} like ? escape '\\' order by lower(r.name), r.id limit ?`,
        [organizationId, q, limit],
      );
      return rows.map((x) => ({ id: x.id, entityType, title: x.name, subtitle: x.domain }));
    }
    const rows = await tenantSql(req.em, organizationId).all<{ id: string; first_name: string; last_name: string; email: string }>(
      `select r.id, r.first_name, r.last_name, r.email from contact r where r.organization_id = ? and ${spec.search} like ? escape '\\' order by lower(r.last_name), lower(r.first_name), r.id limit ?`,
      [organizationId, q, limit],
    );
    return rows.map((x) => ({ id: x.id, entityType, title: `${x.first_name} ${x.last_name}`, subtitle: x.email }));
  }

  r.post(
    '/entity/search',
    {
      schema: {
        tags: ['companies', 'contacts'],
        summary: 'Search companies and/or contacts by text',
        body: SearchBody,
        response: { 200: SearchResponse },
      },
    },
    async (req) => {
      const types: RecordEntityType[] = req.body.entityType ? [req.body.entityType] : ['company', 'contact'];
      const results = (await Promise.all(types.map((t) => search(req, t, req.body.query, req.body.limit)))).flat();
      return { success: true as const, results };
    },
  );
  for (const entityType of ['company', 'contact'] as const) {
    r.post(
      `/${entityType}/search`,
      {
        schema: {
          tags: [entityType === 'company' ? 'companies' : 'contacts'],
          summary: `Search ${entityType === 'company' ? 'companies' : 'contacts'} (typeahead)`,
          body: SearchBody,
          response: { 200: SearchResponse },
        },
      },
      async (req) => ({ success: true as const, results: await search(req, entityType, req.body.query, req.body.limit) }),
    );
  }

  // ---- details, delete, owners ----

  r.get(
    '/company/details/:id',
    {
      schema: {
        tags: ['companies'],
        summary: 'A company with its contacts and field values (drawer)',
        params: IdParams,
        response: { 200: CompanyDetailsResponse, 404: ErrorResponse },
      },
    },
    async (req) => ({ success: true as const, company: await companyOr404(req, req.params.id) }),
  );

  r.get(
    '/contact/details/:id',
    {
      schema: {
        tags: ['contacts'],
        summary: 'A contact with its companies and field values (drawer)',
        params: IdParams,
        response: { 200: ContactDetailsResponse, 404: ErrorResponse },
      },
    },
    async (req) => ({ success: true as const, contact: await contactOr404(req, req.params.id) }),
  );

  for (const entityType of ['company', 'contact'] as const) {
    const messages = entityType === 'company' ? COMPANY_MESSAGES : CONTACT_MESSAGES;
    r.delete(
      `/${entityType}/delete/:id`,
      {
        schema: {
          tags: [entityType === 'company' ? 'companies' : 'contacts'],
          summary: `Delete a ${entityType} with its links and field values`,
          params: IdParams,
          response: { 200: SuccessResponse, 404: ErrorResponse },
        },
      },
      async (req) => {
        const actor = actorOf(req);
        const ctx = await loadQueryContext(req.em, actor.organizationId, entityType);
        const n = await deleteRecords(req.em, actor, entityType, whereSql(ctx, { ids: [req.params.id] }));
        if (n === 0) throw notFound(messages.notFound);
        return { success: true as const, message: messages.deleted };
      },
    );

    r.post(
      `/${entityType}/bulk-delete`,
      {
        schema: {
          tags: [entityType === 'company' ? 'companies' : 'contacts'],
          summary: `Delete the selected ${entityType === 'company' ? 'companies' : 'contacts'} (ids, or all selected across pages by filters)`,
          body: BulkDeleteBody,
          response: { 200: BulkResponse, 400: ErrorResponse },
        },
      },
      async (req) => {
        const actor = actorOf(req);
        const ctx = await loadQueryContext(req.em, actor.organizationId, entityType);
        const count = await deleteRecords(req.em, actor, entityType, selectionWhere(ctx, req.body.selection));
        return {
          success: true as const,
          message: `${count} ${entityType === 'company' ? 'compan' + (count === 1 ? 'y' : 'ies') : 'contact' + (count === 1 ? '' : 's')} deleted`,
          count,
        };
      },
    );

    r.post(
      `/${entityType}/export`,
      {
        schema: {
          tags: [entityType === 'company' ? 'companies' : 'contacts'],
          summary: 'CSV of the selected or filtered rows (streamed attachment)',
          body: ExportBody,
          produces: ['text/csv'],
          response: { 200: z.any().describe('text/csv attachment'), 400: ErrorResponse },
        },
      },
      async (req, reply) => {
        const actor = actorOf(req);
        const ctx = await loadQueryContext(req.em, actor.organizationId, entityType);
        const where = selectionWhere(ctx, req.body.selection);
        const stamp = new Date().toISOString().slice(0, 10);
        // Validated and started (cursor declared, first batch read) before the 200 goes out.
        const csv = await exportCsv(req.em, ctx, where, req.body.columns);
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${entityType === 'company' ? 'companies' : 'contacts'}-${stamp}.csv"`)
          .header('cache-control', 'no-store');
        return reply.send(csv);
      },
    );
  }

  r.get(
    '/company/owners-list',
    {
      schema: {
        tags: ['companies'],
        summary: 'Users who can own companies and contacts: active, invitation accepted, not deleted',
        response: { 200: OwnersResponse },
      },
    },
    async (req) => {
      const users = await req.em.find(
        User,
        { status: 'active', invitationAccepted: true, deleted: false },
        { orderBy: { firstName: 'asc', lastName: 'asc' } },
      );
      return {
        success: true as const,
        owners: users.map((u) => ({
          id: u.id,
          firstName: u.firstName,
          lastName: u.lastName,
          email: u.email,
          active: true,
          invitationAccepted: true,
          deleted: false,
        })),
      };
    },
  );

  // ---- tables ----

  r.post(
    '/company/get-companies',
    {
      schema: {
        tags: ['companies'],
        summary: 'A page of the companies table (zero-based pageIndex, sort, search, filters)',
        body: TableQuery,
        response: { 200: CompaniesPage, 400: ErrorResponse },
      },
    },
    async (req) => {
      const { organizationId } = authOf(req);
      const q = req.body;
      const ctx = await loadQueryContext(req.em, organizationId, 'company');
      const { total, ids, estimate } = await pageIds(
        req.em,
        ctx,
        whereSql(ctx, { text: q.text, filters: q.filters }),
        orderSql(ctx, q.sortKey, q.sortOrder),
        q.pageIndex,
        q.pageSize,
        { cursor: { afterId: q.afterId, beforeId: q.beforeId } },
      );
      const rows = await companyRows(req.em, organizationId, ids);
      return {
        success: true as const,
        rows,
        totalRecords: total,
        totalIsEstimate: estimate === true,
        totalPages: totalPagesFor(total, q.pageSize),
        hasRecords: total > 0,
        pageIndex: q.pageIndex,
        pageSize: q.pageSize,
      };
    },
  );

  for (const [entityType, path, tag] of [
    ['company', '/company/count-companies', 'companies'],
    ['contact', '/contact/count-contacts', 'contacts'],
  ] as const) {
    r.post(
      path,
      {
        schema: {
          tags: [tag],
          summary: `The exact number of ${tag} a search and filters match (follows an estimated totalRecords)`,
          body: TableTotalQuery,
          response: { 200: TableTotal, 400: ErrorResponse },
        },
      },
      async (req) => {
        const { organizationId } = authOf(req);
        const ctx = await loadQueryContext(req.em, organizationId, entityType);
        const totalRecords = await exactTotal(req.em, ctx, whereSql(ctx, { text: req.body.text, filters: req.body.filters }));
        return { success: true as const, totalRecords };
      },
    );
  }

  r.post(
    '/contact/get-contacts',
    {
      schema: {
        tags: ['contacts'],
        summary: 'A page of the contacts table (zero-based pageIndex, sort, search, filters)',
        body: TableQuery,
        response: { 200: ContactsPage, 400: ErrorResponse },
      },
    },
    async (req) => {
      const { organizationId } = authOf(req);
      const q = req.body;
      const ctx = await loadQueryContext(req.em, organizationId, 'contact');
      const { total, ids, estimate } = await pageIds(
        req.em,
        ctx,
        whereSql(ctx, { text: q.text, filters: q.filters }),
        orderSql(ctx, q.sortKey, q.sortOrder),
        q.pageIndex,
        q.pageSize,
        { cursor: { afterId: q.afterId, beforeId: q.beforeId } },
      );
      const rows = await contactRows(req.em, organizationId, ids);
      return {
        success: true as const,
        rows,
        totalRecords: total,
        totalIsEstimate: estimate === true,
        totalPages: totalPagesFor(total, q.pageSize),
        hasRecords: total > 0,
        pageIndex: q.pageIndex,
        pageSize: q.pageSize,
      };
    },
  );
}
