// Play routes (spec 001 §7). The email draft routes are in modules/email/drafts. Each route validates,
// calls one use case of plays.service.ts (previewPlay.ts, execute.ts) with a PlayContext and answers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  PlaybookBody,
  PlaybookResponse,
  PlayListResponse,
  PlaybookUsersResponse,
  PlayResponse,
  SavePlayBody,
  PlayDraftParams,
  PlayDraftBody,
  PlayDraftResponse,
  DeletePlayDraftQuery,
  PlayPreviewBody,
  PlayPreviewResponse,
  PlayExecuteBody,
  PlayExecuteResponse,
  PlayEstimateBody,
  PlayEstimateResponse,
  SuccessResponse,
  ErrorResponse,
  IdParams,
} from '@dealscout/shared/contracts';
import { PLAY_MESSAGES, PLAY_PAGE_SIZE } from '@dealscout/shared/domain';
import { authOf } from '../../plugins/types';
import {
  playbook,
  playbookUsers,
  getPlay,
  publishedPlays,
  savePlay,
  duplicatePlay,
  removePlay,
  getPlayDraft,
  keepPlayDraft,
  removePlayDrafts,
  estimatePlay,
  type PlayContext,
} from './plays.service';
import { previewPlay } from './previewPlay';
import { executePlay } from './execute';
import { LlmError } from '../../providers/llm';

const tags = ['plays'];
const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

function playContext(app: FastifyInstance, req: FastifyRequest): PlayContext {
  const a = authOf(req);
  return {
    em: req.em,
    config: app.config,
    llm: app.llm,
    organizationId: a.organizationId,
    userId: a.user.id,
    isAdmin: a.isAdmin,
    user: a.user,
  };
}

export async function playRoutes(app: FastifyInstance): Promise<void> {
  // Registered in this order (the OpenAPI document lists them so).
  playbookRoutes(app);
  duplicateRemoveRoutes(app);
  draftRoutes(app);
  saveAndPreviewRoutes(app);
  runRoutes(app);
}

/** The playbook table, the published plays and the Created By filter. */
function playbookRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => playContext(app, req);

  r.post(
    '/play/playbook',
    {
      schema: {
        tags,
        summary:
          'The playbook table: search, Type, Created By (with the provided-by-product flag), Created Date (DD/MM/YYYY), sort, pages of 10',
        body: PlaybookBody,
        response: { 200: PlaybookResponse, 400: ErrorResponse },
      },
    },
    async (req) => {
      const { rows, total } = await playbook(ctx(req), req.body);
      return {
        success: true as const,
        playbooks: rows,
        totalRecords: total,
        totalPages: Math.ceil(total / PLAY_PAGE_SIZE),
        hasRecords: total > 0,
        pageIndex: req.body.pageIndex,
        pageSize: PLAY_PAGE_SIZE,
      };
    },
  );

  r.get(
    '/play',
    {
      schema: { tags, summary: 'The published plays (Run Play)', response: { 200: PlayListResponse } },
    },
    async (req) => ({ success: true as const, plays: await publishedPlays(ctx(req)) }),
  );

  r.get(
    '/play/playbook-users',
    {
      schema: {
        tags,
        summary: 'Creators of plays (the Created By filter), the product first when it provided any',
        response: { 200: PlaybookUsersResponse },
      },
    },
    async (req) => ({ success: true as const, users: await playbookUsers(ctx(req)) }),
  );
}

/** Duplicate and remove a play. */
function duplicateRemoveRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => playContext(app, req);

  r.post(
    '/play/duplicate/:id',
    {
      schema: {
        tags,
        summary: "Duplicate a play (provided ones too): the copy is the caller's",
        params: IdParams,
        response: { 200: PlayResponse, ...errors },
      },
    },
    async (req) => ({ success: true as const, message: PLAY_MESSAGES.duplicated, play: await duplicatePlay(ctx(req), req.params.id) }),
  );

  r.delete(
    '/play/remove/:id',
    {
      schema: {
        tags,
        summary: 'Remove a play (not provided ones; its creator or an admin)',
        params: IdParams,
        response: { 200: SuccessResponse, ...errors },
      },
    },
    async (req) => {
      await removePlay(ctx(req), req.params.id);
      return { success: true as const, message: PLAY_MESSAGES.removed };
    },
  );
}

/** The caller's unsaved new play of each provider. */
function draftRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => playContext(app, req);

  r.get(
    '/play/draft/:provider',
    {
      schema: {
        tags,
        summary: "The caller's unsaved new play of a provider (openai or non_ai), or null",
        params: PlayDraftParams,
        response: { 200: PlayDraftResponse, 400: ErrorResponse },
      },
    },
    async (req) => ({ success: true as const, draft: await getPlayDraft(ctx(req), req.params.provider) }),
  );

  r.put(
    '/play/draft/:provider',
    {
      schema: {
        tags,
        summary:
          "Keep the caller's unsaved new play of a provider (its test contact and the fields and enrichments of its boxes must be the organization's: 404)",
        params: PlayDraftParams,
        body: PlayDraftBody,
        response: { 200: PlayDraftResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => ({
      success: true as const,
      message: PLAY_MESSAGES.draftSaved,
      draft: await keepPlayDraft(ctx(req), req.params.provider, req.body),
    }),
  );

  r.delete(
    '/play/draft',
    {
      schema: {
        tags,
        summary: "Remove the caller's unsaved new play (of one provider, or all)",
        querystring: DeletePlayDraftQuery,
        response: { 200: SuccessResponse, 400: ErrorResponse },
      },
    },
    async (req) => {
      await removePlayDrafts(ctx(req), req.query.provider);
      return { success: true as const, message: PLAY_MESSAGES.draftRemoved };
    },
  );
}

/** Save a play and preview the email it writes. */
function saveAndPreviewRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => playContext(app, req);

  r.post(
    '/play',
    {
      schema: {
        tags,
        summary: 'Save a play: create (no id) or update; status draft or published (publish checks instructions, name, body)',
        body: SavePlayBody,
        response: { 200: PlayResponse, 201: PlayResponse, ...errors },
      },
    },
    async (req, reply) => {
      const { play, message } = await savePlay(ctx(req), req.body);
      return reply.status(req.body.id ? 200 : 201).send({ success: true as const, message, play });
    },
  );

  r.post(
    '/play/preview',
    {
      schema: {
        tags,
        summary: 'The email a play would write for one contact (the real model for Ai plays); nothing is stored',
        body: PlayPreviewBody,
        response: { 200: PlayPreviewResponse, ...errors, 422: ErrorResponse },
      },
    },
    async (req, reply) => {
      try {
        return await previewPlay(ctx(req), req.body);
      } catch (err) {
        if (err instanceof LlmError) return reply.status(422).send({ success: false as const, message: err.message });
        throw err;
      }
    },
  );
}

/** Run a play, estimate a run, and one play. */
function runRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => playContext(app, req);

  r.post(
    '/play/execute',
    {
      schema: {
        tags,
        summary: 'Run a play over contacts or companies: one execution per target (answer per target: success, playExecutionId, entityId)',
        body: PlayExecuteBody,
        response: { 200: PlayExecuteResponse, ...errors, 503: ErrorResponse },
      },
    },
    async (req, reply) => {
      if (!app.boss) return reply.status(503).send({ success: false as const, message: PLAY_MESSAGES.failed });
      const c = ctx(req);
      return executePlay(c.em, app.boss, c, {
        playId: req.body.playId,
        targetIds: req.body.targetIds,
        entityType: req.body.entityType,
        executionId: req.body.executionId,
      });
    },
  );

  r.post(
    '/play/estimate',
    {
      schema: {
        tags,
        summary: 'What a run over N rows will take before it starts: model calls, credits, expected time',
        body: PlayEstimateBody,
        response: { 200: PlayEstimateResponse, ...errors },
      },
    },
    async (req) => estimatePlay(ctx(req), req.body),
  );

  r.get(
    '/play/:id',
    {
      schema: { tags, summary: 'One play', params: IdParams, response: { 200: PlayResponse, ...errors } },
    },
    async (req) => ({ success: true as const, play: await getPlay(ctx(req), req.params.id) }),
  );
}
