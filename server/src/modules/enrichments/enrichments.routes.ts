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
import { ENRICHMENT_MESSAGES, runCost } from '@dealscout/shared/domain';
import { authOf } from '../../plugins/types';
import { badRequest, notFound } from '../../lib/errors';
import { EXECUTION_COLUMNS, toExecutionDto, type ExecutionRow } from '../executions/execution.presenter';
import { ENRICHMENT_CONFIGS, IDEA_ENRICHMENT_CONFIGS, findConfig } from './configs';
import { toEnrichmentDto, loadResults } from './enrichment.presenter';
import { Enrichment } from './enrichment.entity';
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
  getEnrichment,
  nextName,
  type Actor,
} from './enrichments.service';
import { executeEnrichment, enrichmentsOfLists } from './execute';
import { tenantSql } from '../../db/sql';

function actorOf(req: FastifyRequest): Actor {
  const a = authOf(req);
  return { organizationId: a.organizationId, userId: a.user.id };
}

const tags = ['enrichments'];
const errors = { 400: ErrorResponse, 404: ErrorResponse };

export async function enrichmentRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

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
      return { success: true as const, name: await nextName(req.em, config) };
    },
  );

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
      const { rows, total, pageIndex, pageSize } = await listEnrichments(req.em, req.body);
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
    async (req) => {
      const rows = await tenantSql(req.em, actorOf(req).organizationId).all<{ id: string; first_name: string; last_name: string }>(
        `select distinct u.id, u.first_name, u.last_name from enrichment e join app_user u on u.organization_id = e.organization_id and u.id = e.created_by_id where e.organization_id = ? order by u.first_name, u.last_name, u.id`,
        [actorOf(req).organizationId],
      );
      return { success: true as const, users: rows.map((u) => ({ id: u.id, firstName: u.first_name, lastName: u.last_name })) };
    },
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
    async (req) => {
      const rows = await tenantSql(req.em, actorOf(req).organizationId).all<ExecutionRow>(
        `select ${EXECUTION_COLUMNS} from execution where organization_id = ? and type = 'enrichment' and status in ('scheduled', 'processing') order by created_at desc, id limit 1000`,
        [actorOf(req).organizationId],
      );
      return { success: true as const, executions: rows.map(toExecutionDto) };
    },
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
    async (req) => {
      const { entityType, entityIds, enrichmentIds } = req.body;
      const list = (n: number) => Array.from({ length: n }, () => '?').join(', ');
      const where = `r.entity_type = ? and r.entity_id in (${list(entityIds.length)})${enrichmentIds?.length ? ` and r.enrichment_id in (${list(enrichmentIds.length)})` : ''}`;
      const results = await loadResults(req.em, actorOf(req).organizationId, where, [entityType, ...entityIds, ...(enrichmentIds ?? [])]);
      return { success: true as const, results };
    },
  );

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
    async (req) => {
      const org = actorOf(req).organizationId;
      const e = await req.em.findOne(Enrichment, { id: req.body.enrichmentId, organization: org });
      if (!e) throw notFound(ENRICHMENT_MESSAGES.notFound);
      const [o] = await tenantSql(req.em, org).all<{ ai_credits_total: number | null; ai_credits_used: number }>(
        `select ai_credits_total, ai_credits_used from organization where id = ?`,
        [org],
      );
      // Model calls a row takes: an LLM prompt one; an agent at most AGENT_MAX_STEPS (and its answer);
      // a deep research agent a plan, its sub-questions' steps and the synthesis; a data provider none.
      const steps = app.config.AGENT_MAX_STEPS;
      const type = e.enrichmentType;
      const callsPerRow = type === 'llm' ? 1 : type === 'agent' ? steps + 1 : type === 'deepresearchagent' ? 2 + 4 * 5 : 0;
      const cost = runCost({
        rows: req.body.count,
        callsPerRow,
        upTo: type === 'agent' || type === 'deepresearchagent',
        creditsTotal: o?.ai_credits_total ?? null,
        creditsUsed: o?.ai_credits_used ?? 0,
        concurrency: Math.min(app.config.LLM_ORG_CONCURRENCY, app.config.EXECUTION_ORG_CONCURRENCY),
        secondsPerCall: 2,
        secondsPerRowWithoutModel: 0.5 / Math.max(1, app.config.EXECUTION_ORG_CONCURRENCY),
      });
      return { success: true as const, ...cost };
    },
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
      return executeEnrichment(req.em, app.boss, actorOf(req), req.body);
    },
  );

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
      const e = await assign(req.em, actorOf(req), req.body.enrichmentId, req.body.fieldId);
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
      const e = await unassign(req.em, actorOf(req), req.body.enrichmentId, req.body.fieldId);
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
      const e = await setPrimary(req.em, actorOf(req), req.body.enrichmentId, req.body.fieldId);
      return { success: true as const, message: ENRICHMENT_MESSAGES.primarySet, id: e.id, enrichment: toEnrichmentDto(e) };
    },
  );

  r.put(
    '/enrichment/set-color',
    {
      schema: { tags, summary: "Set an enrichment's colour", body: SetColorBody, response: { 200: EnrichmentResponse, ...errors } },
    },
    async (req) => {
      const e = await setColor(req.em, req.body.enrichmentId, req.body.color);
      return { success: true as const, message: ENRICHMENT_MESSAGES.colorSet, id: e.id, enrichment: toEnrichmentDto(e) };
    },
  );

  r.put(
    '/enrichment/column',
    {
      schema: { tags, summary: "Set an enrichment's list columns", body: SetColumnsBody, response: { 200: EnrichmentResponse, ...errors } },
    },
    async (req) => {
      const e = await setColumns(req.em, req.body.enrichmentId, req.body.listColumns);
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
      const e = await createEnrichment(req.em, actorOf(req), req.body);
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
      const e = await updateEnrichment(req.em, actorOf(req), req.body);
      return { success: true as const, message: ENRICHMENT_MESSAGES.updated, id: e.id, enrichment: toEnrichmentDto(e) };
    },
  );

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
      const byList = await enrichmentsOfLists(req.em, authOf(req).organizationId, [req.params.listId]);
      return { success: true as const, enrichments: byList.get(req.params.listId) ?? [] };
    },
  );

  r.get(
    '/enrichment/:id',
    {
      schema: { tags, summary: 'One enrichment', params: IdParams, response: { 200: GetEnrichmentResponse, ...errors } },
    },
    async (req) => ({ success: true as const, enrichment: toEnrichmentDto(await getEnrichment(req.em, req.params.id)) }),
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
      await deleteEnrichment(req.em, actorOf(req), req.params.id);
      return { success: true as const, message: ENRICHMENT_MESSAGES.deleted };
    },
  );
}
