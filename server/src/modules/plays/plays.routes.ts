// Play routes (spec 001 §7). The email draft routes are in modules/email/drafts.
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
import { PLAY_MESSAGES, PLAY_PAGE_SIZE, EMAIL_MESSAGES, textToHtml, withSignature, type RichPromptNode } from '@dealscout/shared/domain';
import { authOf } from '../../plugins/types';
import { badRequest, notFound } from '../../lib/errors';
import { Play, PlayDraft } from './play.entity';
import { playbook, getPlayDto, publishedPlays, savePlay, duplicatePlay, removePlay, type PlayActor } from './plays.service';
import { executePlay } from './execute';
import { loadTarget, renderForTarget, targetContext, emailMessages, EMAIL_SCHEMA, TargetProblem } from './render';
import { RenderError } from '@dealscout/shared/domain';
import { LlmError } from '../../providers/llm';
import { tenantSql } from '../../db/sql';
import { assertOwned, assertPromptRefsOwned } from '../enrichments/owned-refs';

const tags = ['plays'];
const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

function playActor(req: FastifyRequest): PlayActor {
  const a = authOf(req);
  return { organizationId: a.organizationId, userId: a.user.id, isAdmin: a.isAdmin };
}

export async function playRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

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
      const { rows, total } = await playbook(req.em, playActor(req).organizationId, req.body);
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
    async (req) => ({ success: true as const, plays: await publishedPlays(req.em, playActor(req).organizationId) }),
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
    async (req) => {
      const org = playActor(req).organizationId;
      const rows = await tenantSql(req.em, org).all<{ id: string; first_name: string; last_name: string }>(
        `select distinct u.id, u.first_name, u.last_name from play p join app_user u on u.organization_id = p.organization_id and u.id = p.created_by_id where p.organization_id = ? order by u.first_name, u.last_name, u.id`,
        [org],
      );
      const [{ n }] = await tenantSql(req.em, org).all<{ n: number }>(
        `select count(*)::int as n from play where organization_id = ? and is_provided_by_product`,
        [org],
      );
      return {
        success: true as const,
        users: [
          ...(n > 0 ? [{ id: 'dealscout', originalId: 'dealscout', firstName: 'Dealscout', lastName: '', isProvidedByProduct: true }] : []),
          ...rows.map((u) => ({ id: u.id, originalId: u.id, firstName: u.first_name, lastName: u.last_name, isProvidedByProduct: false })),
        ],
      };
    },
  );

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
    async (req) => {
      const copy = await duplicatePlay(req.em, playActor(req), req.params.id);
      return { success: true as const, message: PLAY_MESSAGES.duplicated, play: await getPlayDto(req.em, copy.organization.id, copy.id) };
    },
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
      await removePlay(req.em, playActor(req), req.params.id);
      return { success: true as const, message: PLAY_MESSAGES.removed };
    },
  );

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
    async (req) => {
      const a = playActor(req);
      const d = await req.em.findOne(PlayDraft, { organization: a.organizationId, user: a.userId, provider: req.params.provider });
      return {
        success: true as const,
        draft: d ? { provider: req.params.provider, ...d.data, updatedAt: d.updatedAt.toISOString() } : null,
      };
    },
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
    async (req) => {
      const a = playActor(req);
      await assertOwned(req.em, a.organizationId, 'contact', [req.body.targetContactId]);
      await assertPromptRefsOwned(req.em, a.organizationId, req.body.instructions as RichPromptNode[]);
      const data = {
        name: req.body.name,
        description: req.body.description,
        instructions: req.body.instructions as RichPromptNode[],
        title: req.body.title,
        subjectPrompt: req.body.subjectPrompt,
        targetContactId: req.body.targetContactId ?? null,
      };
      await tenantSql(req.em, a.organizationId).all(
        `insert into play_draft (id, organization_id, user_id, provider, data, updated_at) values (gen_random_uuid(), ?, ?, ?, ?::jsonb, clock_timestamp())
       on conflict (organization_id, user_id, provider) do update set data = excluded.data, updated_at = clock_timestamp()`,
        [a.organizationId, a.userId, req.params.provider, JSON.stringify(data)],
      );
      return {
        success: true as const,
        message: PLAY_MESSAGES.draftSaved,
        draft: { provider: req.params.provider, ...data, updatedAt: new Date().toISOString() },
      };
    },
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
      const a = playActor(req);
      await req.em.nativeDelete(PlayDraft, {
        organization: a.organizationId,
        user: a.userId,
        ...(req.query.provider ? { provider: req.query.provider } : {}),
      });
      return { success: true as const, message: PLAY_MESSAGES.draftRemoved };
    },
  );

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
      const a = playActor(req);
      const { play, message } = await savePlay(req.em, a, req.body);
      const dto = await getPlayDto(req.em, a.organizationId, play.id);
      return reply.status(req.body.id ? 200 : 201).send({ success: true as const, message, play: dto });
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
      const a = playActor(req);
      if (!req.body.name.trim() && !req.body.playId) throw badRequest(PLAY_MESSAGES.enterName);
      if (!req.body.contactId) throw badRequest(PLAY_MESSAGES.selectContact);
      let play = {
        instructions: req.body.instructions as RichPromptNode[],
        playType: req.body.llmProvider,
        subject: req.body.title,
        subjectPrompt: req.body.subjectPrompt,
        llmModelId: req.body.llmModelId,
      };
      if (req.body.playId) {
        const p = await req.em.findOne(Play, { id: req.body.playId, organization: a.organizationId });
        if (!p) throw notFound(PLAY_MESSAGES.invalid);
        play = {
          instructions: p.instructions,
          playType: p.playType as typeof play.playType,
          subject: p.subject,
          subjectPrompt: p.subjectPrompt,
          llmModelId: p.llmModelId,
        };
      }
      try {
        const target = await loadTarget(req.em, a.organizationId, 'contact', req.body.contactId);
        if (!target) throw notFound(EMAIL_MESSAGES.entityNotFound);
        const rendered = await renderForTarget(req.em, a.organizationId, play.instructions, target);
        // The caller's signature (their email settings) under the body, as their run would write it.
        const me = authOf(req).user;
        const signature = me.emailSignature?.trim() || null;
        if (play.playType === 'non_ai')
          return {
            success: true as const,
            subject: play.subject,
            body: textToHtml(withSignature(rendered.text, signature)),
            model: null,
            renderedPrompt: rendered.text,
            values: rendered.values,
          };
        const res = await app.llm.complete({
          organizationId: a.organizationId,
          model: play.llmModelId || 'default',
          messages: emailMessages({
            instructions: rendered.text,
            subject: play.subject,
            subjectPrompt: play.subjectPrompt,
            context: targetContext(target),
            sender: `${me.firstName} ${me.lastName}`,
            signature,
          }),
          responseSchema: { name: 'email', schema: EMAIL_SCHEMA },
        });
        const parsed = JSON.parse(res.content ?? '{}') as { subject?: string; body?: string };
        return {
          success: true as const,
          subject: play.subject.trim() || parsed.subject || '',
          body: textToHtml(withSignature(parsed.body ?? '', signature)),
          model: res.model,
          renderedPrompt: rendered.text,
          values: rendered.values,
        };
      } catch (err) {
        if (err instanceof TargetProblem || err instanceof RenderError) throw badRequest(err.message);
        if (err instanceof LlmError) return reply.status(422).send({ success: false as const, message: err.message });
        throw err;
      }
    },
  );

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
      const a = playActor(req);
      return executePlay(req.em, app.boss, a, {
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
    async (req) => {
      const a = playActor(req);
      const p = await req.em.findOne(Play, { id: req.body.playId, organization: a.organizationId });
      if (!p) throw notFound(PLAY_MESSAGES.invalid);
      const [org] = await tenantSql(req.em, a.organizationId).all<{ ai_credits_total: number | null; ai_credits_used: number }>(
        `select ai_credits_total, ai_credits_used from organization where id = ?`,
        [a.organizationId],
      );
      const calls = p.playType === 'non_ai' ? 0 : req.body.count;
      // credits.ai: a null total is unlimited (providers/llm/credits.ts).
      const total = org?.ai_credits_total ?? null;
      const remaining = total === null ? null : Math.max(0, total - (org?.ai_credits_used ?? 0));
      const concurrency = Math.max(1, app.config.EXECUTION_ORG_CONCURRENCY);
      // About two seconds a model call at the organization's concurrency; template plays are near instant.
      const seconds = calls === 0 ? Math.ceil(req.body.count / 200) : Math.ceil((calls / concurrency) * 2);
      const exceeds = remaining !== null && calls > remaining;
      return {
        success: true as const,
        modelCalls: calls,
        creditsRemaining: remaining,
        creditsTotal: total,
        exceedsCredits: exceeds,
        concurrency,
        expectedSeconds: seconds,
        message: exceeds ? `This run needs ${calls} AI credits; ${remaining} remain.` : `${calls} model call(s), about ${seconds} s.`,
      };
    },
  );

  r.get(
    '/play/:id',
    {
      schema: { tags, summary: 'One play', params: IdParams, response: { 200: PlayResponse, ...errors } },
    },
    async (req) => ({ success: true as const, play: await getPlayDto(req.em, playActor(req).organizationId, req.params.id) }),
  );
}
