// Enrichment routes (spec 001 §2, §7): configs, the table, results, estimates and runs, field
// assignment, create / update / delete. Each route validates, calls one use case of
// enrichments.service.ts (execute.ts for runs) with an EnrichmentContext and presents the answer.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EnrichmentConfigsResponse,
  EnrichmentFormBody,
  UpdateEnrichmentBody,
  EnrichmentResponse,
  GetEnrichmentResponse,
  NextNameQuery,
  NextNameResponse,
  SetColorBody,
  SetColumnsBody,
  AssignBody,
  EnrichmentListBody,
  EnrichmentListResponse,
  EnrichmentCreatorsResponse,
  ListEnrichmentsResponse,
  ExecuteEnrichmentBody,
  ExecuteEnrichmentResponse,
  EnrichmentExecutionsResponse,
  EnrichmentResultsBody,
  EnrichmentResultsResponse,
  SuccessResponse,
  ErrorResponse,
  IdParams,
  EnrichmentEstimateBody,
  EnrichmentEstimateResponse,
} from '@dealscout/shared/contracts';
import { ENRICHMENT_MESSAGES } from '@dealscout/shared/domain';
import { authOf } from '../../plugins/types';
import { badRequest } from '../../lib/errors';
import { ENRICHMENT_CONFIGS, IDEA_ENRICHMENT_CONFIGS, findConfig } from './configs';
import { toEnrichmentDto } from './enrichment.presenter';
import {
  createEnrichment,
  updateEnrichment,
  deleteEnrichment,
  setColor,
  setColumns,
  assign,
  unassign,
  setPrimary,
  listEnrichments,
  enrichmentById,
  enrichmentCreators,
  unfinishedEnrichmentExecutions,
  enrichmentResults,
  estimateEnrichment,
  nextName,
  type EnrichmentContext,
} from './enrichments.service';
import { executeEnrichment, enrichmentsOfLists } from './execute';

function enrichmentContext(app: FastifyInstance, req: FastifyRequest): EnrichmentContext {
  const a = authOf(req);
  return { em: req.em, config: app.config, organizationId: a.organizationId, userId: a.user.id };
}

const tags = ['enrichments'];
const errors = { 400: ErrorResponse, 404: ErrorResponse };

export async function enrichmentRoutes(app: FastifyInstance): Promise<void> {
  // Registered in this order (the OpenAPI document lists them so).
  configRoutes(app);
  tableRoutes(app);
  runRoutes(app);
  assignmentRoutes(app);
  editRoutes(app);
  oneEnrichmentRoutes(app);
}

/** The configs (companies, contacts, ideas) and the next generated name of a config's type. */
function configRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => enrichmentContext(app, req);

  r.get(
    '/enrichment/configs',
    {
      schema: {
        tags,
        summary: 'Enrichment configs for companies and contacts (llm, agent, deepresearchagent, mixrankCompanyDetails = LinkedIn)',
        response: { 200: EnrichmentConfigsResponse },
      },
    },
    async () => ({ success: true as const, configs: [...ENRICHMENT_CONFIGS] }),
  );

  r.get(
    '/enrichment/idea/configs',
    {
      schema: { tags, summary: 'Enrichment configs for ideas, with their response schema', response: { 200: EnrichmentConfigsResponse } },
    },
    async () => ({ success: true as const, configs: [...IDEA_ENRICHMENT_CONFIGS] }),
  );

  r.get(
    '/enrichment/next-name',
    {
      schema: {
        tags,
        summary: "The next generated name of a config's type ('LLM Prompt 3')",
        querystring: NextNameQuery,
        response: { 200: NextNameResponse, ...errors },
      },
    },
    async (req) => {
      const config = findConfig(req.query.configId);
      if (!config) throw badRequest(ENRICHMENT_MESSAGES.invalid);
      return { success: true as const, name: await nextName(ctx(req), config) };
    },
  );
}

/** The enrichment table, its Created By filter, the unfinished executions and the results of records. */
function tableRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => enrichmentContext(app, req);

  r.post(
    '/enrichment/list',
    {
      schema: {
        tags,
        summary: 'The enrichment table: search, filters (provider, createdBy, createdAt), sort, zero-based pages (take 100 = all)',
        body: EnrichmentListBody,
        response: { 200: EnrichmentListResponse, 400: ErrorResponse },
      },
    },
    async (req) => {
      const { rows, total, pageIndex, pageSize } = await listEnrichments(ctx(req), req.body);
      const totalPages = Math.ceil(total / pageSize);
      return {
        success: true as const,
        enrichments: rows.map(toEnrichmentDto),
        totalRecords: total,
        totalPages,
        hasRecords: total > 0,
        pageIndex,
        pageSize,
      };
    },
  );

  r.get(
    '/enrichment/list/creators',
    {
      schema: { tags, summary: 'Users who created enrichments (the Created By filter)', response: { 200: EnrichmentCreatorsResponse } },
    },
    async (req) => ({ success: true as const, users: await enrichmentCreators(ctx(req)) }),
  );

  r.get(
    '/enrichment/executions',
    {
      schema: {
        tags,
        summary: "The organization's enrichment executions still queued or running (newest first, at most 1000)",
        response: { 200: EnrichmentExecutionsResponse },
      },
    },
    async (req) => ({ success: true as const, executions: await unfinishedEnrichmentExecutions(ctx(req)) }),
  );

  r.post(
    '/enrichment/results',
    {
      schema: {
        tags,
        summary: 'The latest result of each enrichment for records (a table page or a drawer)',
        body: EnrichmentResultsBody,
        response: { 200: EnrichmentResultsResponse, 400: ErrorResponse },
      },
    },
    async (req) => ({ success: true as const, results: await enrichmentResults(ctx(req), req.body) }),
  );
}

/** A run's estimate and the run itself. */
function runRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => enrichmentContext(app, req);

  r.post(
    '/enrichment/estimate',
    {
      schema: {
        tags,
        summary: 'What a run over N rows will take before it starts: model calls (a ceiling for agents), AI credits, expected time',
        body: EnrichmentEstimateBody,
        response: { 200: EnrichmentEstimateResponse, ...errors },
      },
    },
    async (req) => ({ success: true as const, ...(await estimateEnrichment(ctx(req), req.body)) }),
  );

  r.post(
    '/enrichment/execute',
    {
      schema: {
        tags,
        summary:
          'Run an enrichment on records: ids (answer per item: started / duplicate / failed) or all selected by filters (answer counts)',
        body: ExecuteEnrichmentBody,
        response: { 200: ExecuteEnrichmentResponse, ...errors, 503: ErrorResponse },
      },
    },
    async (req, reply) => {
      if (!app.boss) return reply.status(503).send({ success: false as const, message: ENRICHMENT_MESSAGES.unable });
      const c = ctx(req);
      return executeEnrichment(c.em, app.boss, c, req.body);
    },
  );
}

/** Field assignment: assign, unassign, primary. */
function assignmentRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => enrichmentContext(app, req);

  r.post(
    '/enrichment/assign',
    {
      schema: {
        tags,
        summary: 'Assign an enrichment to a field (the first one of a field becomes primary)',
        body: AssignBody,
        response: { 200: EnrichmentResponse, ...errors },
      },
    },
    async (req) => {
      const e = await assign(ctx(req), req.body.enrichmentId, req.body.fieldId);
      return { success: true as const, message: ENRICHMENT_MESSAGES.assigned, id: e.id, enrichment: toEnrichmentDto(e) };
    },
  );

  r.post(
    '/enrichment/unassign',
    {
      schema: {
        tags,
        summary: 'Unassign an enrichment from its field (another one becomes primary)',
        body: AssignBody,
        response: { 200: EnrichmentResponse, ...errors },
      },
    },
    async (req) => {
      const e = await unassign(ctx(req), req.body.enrichmentId, req.body.fieldId);
      return { success: true as const, message: ENRICHMENT_MESSAGES.unassigned, id: e.id, enrichment: toEnrichmentDto(e) };
    },
  );

  r.put(
    '/enrichment/set-primary',
    {
      schema: {
        tags,
        summary: "Make an enrichment its field's primary one",
        body: AssignBody,
        response: { 200: EnrichmentResponse, ...errors },
      },
    },
    async (req) => {
      const e = await setPrimary(ctx(req), req.body.enrichmentId, req.body.fieldId);
      return { success: true as const, message: ENRICHMENT_MESSAGES.primarySet, id: e.id, enrichment: toEnrichmentDto(e) };
    },
  );
}

/** Colour, list columns, create and update. */
function editRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => enrichmentContext(app, req);

  r.put(
    '/enrichment/set-color',
    {
      schema: { tags, summary: "Set an enrichment's colour", body: SetColorBody, response: { 200: EnrichmentResponse, ...errors } },
    },
    async (req) => {
      const e = await setColor(ctx(req), req.body.enrichmentId, req.body.color);
      return { success: true as const, message: ENRICHMENT_MESSAGES.colorSet, id: e.id, enrichment: toEnrichmentDto(e) };
    },
  );

  r.put(
    '/enrichment/column',
    {
      schema: { tags, summary: "Set an enrichment's list columns", body: SetColumnsBody, response: { 200: EnrichmentResponse, ...errors } },
    },
    async (req) => {
      const e = await setColumns(ctx(req), req.body.enrichmentId, req.body.listColumns);
      return { success: true as const, message: ENRICHMENT_MESSAGES.columnsSet, id: e.id, enrichment: toEnrichmentDto(e) };
    },
  );

  r.post(
    '/enrichment',
    {
      schema: {
        tags,
        summary: 'Create an enrichment (201 with its id)',
        body: EnrichmentFormBody,
        response: { 201: EnrichmentResponse, ...errors },
      },
    },
    async (req, reply) => {
      const e = await createEnrichment(ctx(req), req.body);
      return reply
        .status(201)
        .send({ success: true as const, message: ENRICHMENT_MESSAGES.created, id: e.id, enrichment: toEnrichmentDto(e) });
    },
  );

  r.put(
    '/enrichment',
    {
      schema: { tags, summary: 'Update an enrichment', body: UpdateEnrichmentBody, response: { 200: EnrichmentResponse, ...errors } },
    },
    async (req) => {
      const e = await updateEnrichment(ctx(req), req.body);
      return { success: true as const, message: ENRICHMENT_MESSAGES.updated, id: e.id, enrichment: toEnrichmentDto(e) };
    },
  );
}

/** The enrichments of a list, one enrichment, and deleting one. */
function oneEnrichmentRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => enrichmentContext(app, req);

  r.get(
    '/enrichment/:listId/list',
    {
      schema: {
        tags,
        summary: 'The enrichments of a list: its idea enrichments and the company enrichments run on its ideas',
        params: z.object({ listId: z.uuid({ message: 'Invalid id' }) }),
        response: { 200: ListEnrichmentsResponse, 400: ErrorResponse },
      },
    },
    async (req) => {
      // Its own idea enrichments and the company enrichments run on its ideas.
      const c = ctx(req);
      const byList = await enrichmentsOfLists(c.em, c.organizationId, [req.params.listId]);
      return { success: true as const, enrichments: byList.get(req.params.listId) ?? [] };
    },
  );

  r.get(
    '/enrichment/:id',
    {
      schema: { tags, summary: 'One enrichment', params: IdParams, response: { 200: GetEnrichmentResponse, ...errors } },
    },
    async (req) => ({ success: true as const, enrichment: toEnrichmentDto(await enrichmentById(ctx(req), req.params.id)) }),
  );

  r.delete(
    '/enrichment/:id',
    {
      schema: {
        tags,
        summary: 'Delete an enrichment (its results go with it; its field gets another primary one)',
        params: IdParams,
        response: { 200: SuccessResponse, ...errors },
      },
    },
    async (req) => {
      await deleteEnrichment(ctx(req), req.params.id);
      return { success: true as const, message: ENRICHMENT_MESSAGES.deleted };
    },
  );
}
