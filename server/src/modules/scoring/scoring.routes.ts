// Scoring models (spec 002 §7 'Scoring') and POST /scoring-model/execute (§7 'Executions').
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CreateScoreModelBody,
  UpdateScoreModelBody,
  ListScoreModelsQuery,
  ScoreModelResponse,
  ScoreModelsResponse,
  ExecuteScoreModelBody,
  ExecuteScoreModelResponse,
  ErrorResponse,
  IdParams,
} from '@dealscout/shared/contracts';
import { SCORING_MESSAGES } from '@dealscout/shared/domain';
import { z } from 'zod';
import { authOf } from '../../plugins/types';
import type { Actor } from '../lists/lists.service';
import { createModel, deleteModel, executeModel, getModel, listModels, updateModel } from './scoring.service';

function actorOf(req: FastifyRequest): Actor {
  const a = authOf(req);
  return { organizationId: a.organizationId, userId: a.user.id };
}

export async function scoringRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // GET /scoring-model/ is the specification's spelling: it answers the same, out of the document (which lists the path without the trailing slash).
  for (const [url, hide] of [
    ['/scoring-model', false],
    ['/scoring-model/', true],
  ] as const) {
    r.get(
      url,
      {
        schema: {
          tags: ['scoring'],
          summary: "A list's scoring models",
          hide,
          querystring: ListScoreModelsQuery,
          response: { 200: ScoreModelsResponse, 400: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (req) => ({
        success: true as const,
        scoringModels: await listModels(req.em, authOf(req).organizationId, req.query.listCompanyId),
      }),
    );
  }

  r.post(
    '/scoring-model',
    {
      schema: {
        tags: ['scoring'],
        summary: 'Create a scoring model (201)',
        body: CreateScoreModelBody,
        response: { 201: ScoreModelResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const { listCompanyId, ...model } = req.body;
      return reply.status(201).send({
        success: true as const,
        message: SCORING_MESSAGES.created,
        scoringModel: await createModel(req.em, actorOf(req), listCompanyId, model),
      });
    },
  );

  r.get(
    '/scoring-model/:id',
    {
      schema: {
        tags: ['scoring'],
        summary: 'One scoring model',
        params: IdParams,
        response: { 200: ScoreModelResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => ({ success: true as const, scoringModel: await getModel(req.em, authOf(req).organizationId, req.params.id) }),
  );

  r.put(
    '/scoring-model/:id',
    {
      schema: {
        tags: ['scoring'],
        summary: 'Update a scoring model',
        params: IdParams,
        body: UpdateScoreModelBody,
        response: { 200: ScoreModelResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => ({
      success: true as const,
      message: SCORING_MESSAGES.updated,
      scoringModel: await updateModel(req.em, actorOf(req), req.params.id, req.body),
    }),
  );

  r.delete(
    '/scoring-model/:id',
    {
      schema: {
        tags: ['scoring'],
        summary: 'Delete a scoring model and its results (204)',
        params: IdParams,
        response: { 204: z.null(), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      await deleteModel(req.em, actorOf(req), req.params.id);
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/scoring-model/execute',
    {
      schema: {
        tags: ['scoring'],
        summary: 'Run a scoring model over ideas (one score execution)',
        body: ExecuteScoreModelBody,
        response: { 200: ExecuteScoreModelResponse, 400: ErrorResponse, 404: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (req, reply) => {
      if (!app.boss) return reply.status(503).send({ success: false as const, message: SCORING_MESSAGES.startFailed });
      const b = req.body;
      const started = await executeModel(req.em, app.boss, actorOf(req), {
        scoringModelId: b.scoringModelId,
        entityIds: b.entityIds,
        runAll: b.options.runAll,
        ideasFilter: (b.ideasFilter ?? null) as Record<string, unknown> | null,
      });
      return { success: true as const, message: SCORING_MESSAGES.started, ...started };
    },
  );
}
