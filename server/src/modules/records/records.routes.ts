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
} from '@dealscout/shared/contracts';
import { COMPANY_MESSAGES, CONTACT_MESSAGES, ENTITY_MESSAGES, totalPagesFor, type RecordEntityType } from '@dealscout/shared/domain';
import { authOf } from '../../plugins/types';
import { badRequest } from '../../lib/errors';
import { deleteRecord, deleteSelectedRecords, toMappingDto, type RecordContext } from './records.service';
import {
  createCompanyAndContact,
  createCompanyWithContact,
  createContactWithCompany,
  createRecord,
  editCompanyLink,
  editContactLink,
  linkRecords,
  makeKeyContact,
  makePrimaryCompany,
  updateCompanyWithContact,
  updateContactWithCompany,
  updateRecord,
} from './record-edits';
import {
  companiesPage,
  companyDetailsOf,
  contactDetailsOf,
  contactsPage,
  exactRecordCount,
  exportRecords,
  listOwners,
  searchRecords,
  type TablePage,
} from './record-reads';

function ctx(req: FastifyRequest): RecordContext {
  const a = authOf(req);
  return { em: req.em, organizationId: a.organizationId, userId: a.user.id };
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
  // Bad characters are a 400 that changes nothing, before any handler runs (a NUL reached PostgreSQL as a 500).
  app.addHook('preValidation', async (req) => {
    if (hasUnstorableText(req.body)) throw badRequest(UNSTORABLE_TEXT);
  });
  createRoutes(app);
  updateRoutes(app);
  genericRecordRoutes(app);
  linkRoutes(app);
  keyAndPrimaryRoutes(app);
  searchRoutes(app);
  detailRoutes(app);
  deleteAndExportRoutes(app);
  ownerRoutes(app);
  tableRoutes(app);
}

/** The answer of a table page route. */
function tableAnswer<Row>(page: TablePage<Row>, q: { pageIndex: number; pageSize: number }) {
  return {
    success: true as const,
    rows: page.rows,
    totalRecords: page.total,
    totalIsEstimate: page.estimate,
    totalPages: totalPagesFor(page.total, q.pageSize),
    hasRecords: page.total > 0,
    pageIndex: q.pageIndex,
    pageSize: q.pageSize,
  };
}

// ---- create / update ----

/** The New Company and New Contact dialogs' routes, and a company with a contact together. */
function createRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
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
        const company = await createCompanyWithContact(ctx(req), req.body);
        return reply.status(201).send({ success: true as const, message: COMPANY_MESSAGES.created, company });
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
      const contact = await createContactWithCompany(ctx(req), req.body);
      return reply.status(201).send({ success: true as const, message: CONTACT_MESSAGES.created, contact });
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
      const ids = await createCompanyAndContact(ctx(req), req.body);
      return reply.status(201).send({ success: true as const, message: COMPANY_MESSAGES.created, ...ids });
    },
  );
}

/** The drawers' saves of a company or a contact. */
function updateRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
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
    async (req) => ({
      success: true as const,
      message: COMPANY_MESSAGES.updated,
      company: await updateCompanyWithContact(ctx(req), req.body),
    }),
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
    async (req) => ({
      success: true as const,
      message: CONTACT_MESSAGES.updated,
      contact: await updateContactWithCompany(ctx(req), req.body),
    }),
  );
}

/** Creating and updating a company or a contact by its entity type. */
function genericRecordRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
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
      const { entityType, id } = await createRecord(ctx(req), req.body);
      if (entityType === 'company')
        return reply.status(201).send({ success: true as const, message: COMPANY_MESSAGES.created, companyId: id });
      return reply.status(201).send({ success: true as const, message: CONTACT_MESSAGES.created, contactId: id });
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
      await updateRecord(ctx(req), req.body);
      return { success: true as const, message: req.body.entityType === 'company' ? COMPANY_MESSAGES.updated : CONTACT_MESSAGES.updated };
    },
  );
}

// ---- links ----

/** Linking a contact to a company, and a link's label, value, flags or removal. */
function linkRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
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
      const mapping = await linkRecords(ctx(req), req.body);
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
      const m = await editCompanyLink(ctx(req), req.body);
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
      const m = await editContactLink(ctx(req), req.body);
      return { success: true as const, message: ENTITY_MESSAGES.linked, mapping: m ? toMappingDto(m) : null };
    },
  );
}

/** A company's key contact and a contact's primary company. */
function keyAndPrimaryRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
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
      mapping: toMappingDto(await makeKeyContact(ctx(req), req.body)),
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
      mapping: toMappingDto(await makePrimaryCompany(ctx(req), req.body)),
    }),
  );
}

// ---- search ----

/** The search over both types, and each type's typeahead. */
function searchRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
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
      const results = await searchRecords(ctx(req), { types, query: req.body.query, limit: req.body.limit });
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
      async (req) => ({
        success: true as const,
        results: await searchRecords(ctx(req), { types: [entityType], query: req.body.query, limit: req.body.limit }),
      }),
    );
  }
}

// ---- details, delete, owners ----

/** The drawers' company and contact. */
function detailRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
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
    async (req) => ({ success: true as const, company: await companyDetailsOf(ctx(req), req.params.id) }),
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
    async (req) => ({ success: true as const, contact: await contactDetailsOf(ctx(req), req.params.id) }),
  );
}

/** Deleting one record or a selection, and the CSV export of a selection, for each type. */
function deleteAndExportRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
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
        await deleteRecord(ctx(req), entityType, req.params.id);
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
        const count = await deleteSelectedRecords(ctx(req), entityType, req.body.selection);
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
        const stamp = new Date().toISOString().slice(0, 10);
        // Validated and started (cursor declared, first batch read) before the 200 goes out.
        const csv = await exportRecords(ctx(req), entityType, req.body);
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${entityType === 'company' ? 'companies' : 'contacts'}-${stamp}.csv"`)
          .header('cache-control', 'no-store');
        return reply.send(csv);
      },
    );
  }
}

/** The users who may own records. */
function ownerRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
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
      const users = await listOwners(ctx(req));
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
}

// ---- tables ----

/** The companies and contacts tables: a page, and the exact total after an estimate. */
function tableRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
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
    async (req) => tableAnswer(await companiesPage(ctx(req), req.body), req.body),
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
      async (req) => ({ success: true as const, totalRecords: await exactRecordCount(ctx(req), entityType, req.body) }),
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
    async (req) => tableAnswer(await contactsPage(ctx(req), req.body), req.body),
  );
}
