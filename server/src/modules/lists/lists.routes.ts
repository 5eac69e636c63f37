// Lists, list sources and ideas (spec 002 §7 'Ideas', 'Lists and sources'). The routes are registered
// in named groups; a CSV upload's import is in uploadCsvSource.ts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import {
  IdeaListBody,
  IdeaListResponse,
  IdeaMembershipsBody,
  IdeaMembershipsResponse,
  ShortlistBody,
  IdeaDeleteBody,
  IdeaExportBody,
  CountResponse,
  ManualIdeaBody,
  IdeaResponse,
  CreateListBody,
  ListResponse,
  RenameListBody,
  ListsQuery,
  ListsPage,
  ListUsersResponse,
  CompleteConfirmationResponse,
  CompleteResponse,
  IntentionsResponse,
  SuccessResponse,
  ErrorResponse,
  IdParams,
  SourceUploadResponse,
} from '@dealscout/shared/contracts';
import {
  ideaCountMessage,
  totalPagesFor,
  LIST_INTENTIONS,
  LIST_MESSAGES,
  LIST_SOURCE_MESSAGES,
  PROVIDER_INTENTIONS,
} from '@dealscout/shared/domain';
import { createProviderSource } from './list-sources.service';
import { authOf } from '../../plugins/types';
import { HttpError, badRequest, notFound } from '../../lib/errors';
import {
  addManualIdea,
  completeConfirmation,
  completeList,
  createList,
  deleteIdeas,
  deleteList,
  deleteSource,
  ideaDtos,
  ideaPage,
  listOr404,
  renameList,
  selectionWhere,
  setShortlist,
  ideasByDomain,
  type Actor,
} from './lists.service';
import { ideaOrder, ideaWhere } from '../records/idea-query';
import { enrichmentsOfLists } from '../enrichments/execute';
import { ideaExportCsv, listCreators, listsPage, rejectedRowsCsv, scoringModelsOfLists } from './list-queries';
import { findInvalidText, INVALID_TEXT_MESSAGE } from '../../plugins/input-guard';
import { UPLOAD_MAX_BYTES, UPLOAD_MESSAGES, uploadError, uploadCsvSource } from './uploadCsvSource';

const jsonOrNull = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

const invalidText = (field: string) =>
  new HttpError(400, INVALID_TEXT_MESSAGE, { issues: [{ path: `body.${field}`, message: INVALID_TEXT_MESSAGE }] });

function actorOf(req: FastifyRequest): Actor {
  const a = authOf(req);
  return { organizationId: a.organizationId, userId: a.user.id };
}

export async function listRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024 } });
  // Registered in this order (the OpenAPI document lists them so).
  sourceUploadRoutes(app);
  listTableRoutes(app);
  listChangeRoutes(app);
  listCompleteRoutes(app);
  ideaPageRoutes(app);
  ideaAddRoutes(app);
  ideaExportRoutes(app);
}

/** Adds a source: a CSV file (multipart), or a provider source's parameters (no file). */
async function addSource(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const actor = actorOf(req);
  if (!req.isMultipart()) throw badRequest('Please upload the file as multipart/form-data.');
  if (!/;\s*boundary=/i.test(req.headers['content-type'] ?? '')) throw badRequest(UPLOAD_MESSAGES.noBoundary);
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        const value = String(part.value);
        // The input guard reads JSON bodies only: the form's fields (and the JSON inside `source`) get the same rule here.
        if (findInvalidText(value) !== null || (part.fieldname === 'source' && findInvalidText(jsonOrNull(value)) !== null))
          throw invalidText(part.fieldname);
        fields[part.fieldname] = value;
        continue;
      }
      if (findInvalidText(part.filename) !== null) throw invalidText('filename');
      const uploaded = await uploadCsvSource(
        { em: req.em, log: req.log, connectionString: app.orm.config.get('clientUrl')!, ...actor },
        fields,
        part,
      );
      return reply.status(201).send(uploaded);
    }
  } catch (e) {
    // Refused before the whole body was read: the connection closes after the answer, so the
    // client is not left sending the rest of its file into a socket nobody reads.
    if (!req.raw.complete) reply.header('connection', 'close');
    throw uploadError(e);
  }
  // A provider source (Ocean.io, Source Scrub, Google Maps, the list-building agent): no file, its
  // parameters in the source field; POST /list-company/execute then fetches its companies.
  const intention = fields.intentionSourceId || 'csv';
  if (intention !== 'csv' && intention !== 'manual') {
    const listId = fields.listCompanyId ?? '';
    if (!/^[0-9a-f-]{36}$/i.test(listId)) throw notFound(LIST_MESSAGES.listNotFound);
    if (!(PROVIDER_INTENTIONS as readonly string[]).includes(intention)) throw badRequest('Unknown source kind');
    const sourceId = await createProviderSource({ em: req.em, ...actor }, listId, intention, fields.source);
    return reply.status(201).send({
      success: true as const,
      message: LIST_SOURCE_MESSAGES.sourceAdded,
      sourceId,
      rows: 0,
      inserted: 0,
      merged: 0,
      rejected: 0,
      ms: 0,
      list: await listOr404(req.em, actor.organizationId, listId),
    });
  }
  throw badRequest('Please choose a file to upload.');
}

/** Add a source (CSV upload or provider source) and the rejected rows of an upload. */
function sourceUploadRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/list-company/source',
    {
      schema: {
        tags: ['lists'],
        summary:
          'Add a source to a list. CSV: multipart form with the fields source (JSON: { mapping: { name, website, ' +
          'columns? } }), intentionSourceId (csv) and listCompanyId first, then file',
        consumes: ['multipart/form-data'],
        response: { 201: SourceUploadResponse, 400: ErrorResponse, 404: ErrorResponse, 413: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (req, reply) => addSource(app, req, reply),
  );

  r.get(
    '/list-company/source/:id/rejected',
    {
      schema: {
        tags: ['lists'],
        summary: 'The rows of an upload that did not become ideas, with their reasons (CSV)',
        params: IdParams,
        produces: ['text/csv'],
        response: { 200: z.any().describe('text/csv attachment'), 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const csv = await rejectedRowsCsv(req.em, authOf(req).organizationId, req.params.id);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="rejected-rows.csv"`)
        .header('cache-control', 'no-store');
      return reply.send(Readable.from(csv));
    },
  );
}

/** Create a list, the lists table, its Created by filter, the source kinds, one list. */
function listTableRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/list-company',
    {
      schema: {
        tags: ['lists'],
        summary: 'Create an empty list (201)',
        body: CreateListBody,
        response: { 201: ListResponse, 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const id = await createList(req.em, actor, req.body.name);
      return reply
        .status(201)
        .send({ success: true as const, message: LIST_MESSAGES.listCreated, list: await listOr404(req.em, actor.organizationId, id) });
    },
  );

  r.post(
    '/list-company/list',
    {
      schema: {
        tags: ['lists'],
        summary: 'A page of the lists table (search, status, created by; newest first by default)',
        body: ListsQuery,
        response: { 200: ListsPage, 400: ErrorResponse },
      },
    },
    async (req) => ({ success: true as const, ...(await listsPage(req.em, authOf(req).organizationId, req.body)) }),
  );

  r.get(
    '/list-company/users',
    {
      schema: { tags: ['lists'], summary: 'The users who created lists (the Created by filter)', response: { 200: ListUsersResponse } },
    },
    async (req) => ({ success: true as const, users: await listCreators(req.em, authOf(req).organizationId) }),
  );

  r.get(
    '/list-company/intentions',
    {
      schema: { tags: ['lists'], summary: 'The kinds of source a list can have', response: { 200: IntentionsResponse } },
    },
    async () => ({ success: true as const, intentions: LIST_INTENTIONS.map((i) => ({ ...i })) }),
  );

  r.get(
    '/list-company/:id',
    {
      schema: {
        tags: ['lists'],
        summary: 'A list with its sources and totals',
        params: IdParams,
        response: { 200: ListResponse, 404: ErrorResponse },
      },
    },
    async (req) => ({ success: true as const, message: '', list: await listOr404(req.em, authOf(req).organizationId, req.params.id) }),
  );
}

/** Delete or rename a list, remove a source. */
function listChangeRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.delete(
    '/list-company/:id',
    {
      schema: {
        tags: ['lists'],
        summary: 'Delete a list with its sources and ideas',
        params: IdParams,
        response: { 200: SuccessResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      await deleteList(req.em, actorOf(req), req.params.id);
      return { success: true as const, message: LIST_MESSAGES.listDeleted };
    },
  );

  r.patch(
    '/list-company/name',
    {
      schema: {
        tags: ['lists'],
        summary: 'Rename a list',
        body: RenameListBody,
        response: { 200: ListResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      await renameList(req.em, actor, req.body.listId, req.body.name);
      return {
        success: true as const,
        message: LIST_MESSAGES.listRenamed,
        list: await listOr404(req.em, actor.organizationId, req.body.listId),
      };
    },
  );

  r.delete(
    '/list-company/source/:id',
    {
      schema: {
        tags: ['lists'],
        summary: 'Remove a source: its ideas that no other source proposed go with it',
        params: IdParams,
        response: { 200: SuccessResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      await deleteSource(req.em, actorOf(req), req.params.id);
      return { success: true as const, message: LIST_MESSAGES.sourceRemoved };
    },
  );
}

/** Complete a list: what it does, and doing it. */
function listCompleteRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/list-company/:id/complete-confirmation',
    {
      schema: {
        tags: ['lists'],
        summary: 'What completing the list does: shortlisted ideas (total), those already companies (existing), new companies (candidate)',
        params: IdParams,
        response: { 200: CompleteConfirmationResponse, 404: ErrorResponse },
      },
    },
    async (req) => ({ success: true as const, ...(await completeConfirmation(req.em, authOf(req).organizationId, req.params.id)) }),
  );

  r.post(
    '/list-company/:id/complete',
    {
      schema: {
        tags: ['lists'],
        summary: 'Take the shortlisted ideas in as companies (status inDealscout); an existing company with the same domain is linked',
        params: IdParams,
        response: { 200: CompleteResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const res = await completeList(req.em, actor, req.params.id);
      return {
        success: true as const,
        message: LIST_MESSAGES.listCompleted,
        ...res,
        list: await listOr404(req.em, actor.organizationId, req.params.id),
      };
    },
  );
}

/** A page of a list's ideas, shortlisting and deleting ideas. */
function ideaPageRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/list-company/idea/list',
    {
      schema: {
        tags: ['ideas'],
        summary: "A page of a list's ideas (zero-based pageIndex; newest first by default)",
        body: IdeaListBody,
        response: { 200: IdeaListResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const { organizationId } = authOf(req);
      const q = req.body;
      const list = await listOr404(req.em, organizationId, q.listCompanyId);
      const where = ideaWhere(organizationId, list.id, q);
      const { total, ids, estimate } = await ideaPage(req.em, list, where, ideaOrder(q.sortKey, q.sortOrder), q.pageIndex, q.pageSize);
      return {
        success: true as const,
        listCompanyIdeas: await ideaDtos(req.em, organizationId, ids),
        hasRecords: total > 0,
        totalRecords: total,
        totalIsEstimate: estimate,
        totalPages: totalPagesFor(total, q.pageSize),
        pageIndex: q.pageIndex,
        pageSize: q.pageSize,
      };
    },
  );

  r.put(
    '/list-company/idea/shortlist',
    {
      schema: {
        tags: ['ideas'],
        summary: "Shortlist (status true) or un-shortlist ideas: ideaIds, or ideaFilters for 'all selected'; answers the count changed",
        body: ShortlistBody,
        response: { 200: CountResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const b = req.body;
      const count = await setShortlist(
        req.em,
        actor,
        b.listId,
        selectionWhere(actor.organizationId, b.listId, b.ideaIds, b.ideaFilters),
        b.status,
      );
      return { success: true as const, message: ideaCountMessage(count, b.status ? 'shortlisted' : 'unshortlisted'), count };
    },
  );

  r.post(
    '/list-company/idea/delete',
    {
      schema: {
        tags: ['ideas'],
        summary: "Delete ideas: listCompanyIdeaIds, or ideaFilters for 'all selected'; answers the count deleted",
        body: IdeaDeleteBody,
        response: { 200: CountResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const b = req.body;
      const count = await deleteIdeas(
        req.em,
        actor,
        b.listCompanyId,
        selectionWhere(actor.organizationId, b.listCompanyId, b.listCompanyIdeaIds, b.ideaFilters),
      );
      return { success: true as const, message: ideaCountMessage(count, 'deleted'), count };
    },
  );
}

/** Add an idea by hand; the lists that hold a company. */
function ideaAddRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/list-company/idea',
    {
      schema: {
        tags: ['ideas'],
        summary: 'Add an idea by hand (id: the list); 409 when its domain is already in the list',
        body: ManualIdeaBody,
        response: { 201: IdeaResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const id = await addManualIdea(req.em, actor, req.body.id, req.body.companyName, req.body.website);
      const [idea] = await ideaDtos(req.em, actor.organizationId, [id]);
      return reply.status(201).send({ success: true as const, message: LIST_MESSAGES.ideaAdded, idea });
    },
  );

  r.post(
    '/list-company/idea/memberships',
    {
      schema: {
        tags: ['ideas'],
        summary:
          "The lists that hold a company (by its website's domain), each with the idea, its scores and enrichment " +
          "results, the list's scoring models and enrichments",
        body: IdeaMembershipsBody,
        response: { 200: IdeaMembershipsResponse, 400: ErrorResponse },
      },
    },
    async (req) => {
      const org = authOf(req).organizationId;
      const found = await ideasByDomain(req.em, org, req.body.website);
      const listIds = found.rows.map((x) => x.listId);
      const [ideas, models, enrichments] = await Promise.all([
        ideaDtos(
          req.em,
          org,
          found.rows.map((x) => x.ideaId),
        ),
        scoringModelsOfLists(req.em, org, listIds),
        enrichmentsOfLists(req.em, org, listIds),
      ]);
      const ideaById = new Map(ideas.map((i) => [i.id, i]));
      return {
        success: true as const,
        domain: found.domain,
        memberships: found.rows
          .filter((x) => ideaById.has(x.ideaId))
          .map((x) => ({
            list: { id: x.listId, name: x.name, status: x.status as 'active' | 'completed' },
            idea: ideaById.get(x.ideaId)!,
            scoringModels: models.filter((m) => m.list_id === x.listId).map((m) => ({ id: m.id, name: m.name })),
            enrichments: enrichments.get(x.listId) ?? [],
          })),
      };
    },
  );
}

/** CSV of a list's ideas. */
function ideaExportRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/list-company/idea/export',
    {
      schema: {
        tags: ['ideas'],
        summary: "CSV of a list's ideas (ideaIds, ideaFilters, or the whole list); streamed, formula-safe",
        body: IdeaExportBody,
        produces: ['text/csv'],
        response: { 200: z.any().describe('text/csv attachment'), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const { organizationId } = authOf(req);
      const b = req.body;
      const list = await listOr404(req.em, organizationId, b.listCompanyId);
      const csv = await ideaExportCsv(req.em, organizationId, list, b);
      const safeName = list.name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60) || 'list';
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${safeName}-ideas-${new Date().toISOString().slice(0, 10)}.csv"`)
        .header('cache-control', 'no-store');
      return reply.send(Readable.from(csv));
    },
  );
}
