// The email draft routes (spec 000 §7 'Activities and email'): the caller's open drafts, a new draft,
// saving on change, status changes (through the outbox), generating with a play, and the checks
// the draft panel makes before a play writes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  PendingEmailsResponse,
  EmailResponse,
  CreateDraftBody,
  SaveDraftBody,
  UpdateEmailStatusBody,
  UpdateEmailStatusResponse,
  GenerateEmailBody,
  CheckValidEntityBody,
  CheckValidEntityResponse,
  CheckAiGeneratedBody,
  ErrorResponse,
  IdParams,
} from '@dealscout/shared/contracts';
import { PLAY_MESSAGES, EMAIL_MESSAGES } from '@dealscout/shared/domain';
import { authOf } from '../../../plugins/types';
import {
  pendingEmails,
  createDraft,
  saveDraft,
  generateEmail,
  checkAiGenerated,
  checkValidEntity,
  type EmailActor,
} from './emails.service';
import { changeEmailStatus } from '../send/send';

const emailTags = ['emails'];
const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

function emailActor(req: FastifyRequest): EmailActor {
  const a = authOf(req);
  return { organizationId: a.organizationId, userId: a.user.id, email: a.user.email };
}

export async function emailDraftRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/email/pending',
    {
      schema: {
        tags: emailTags,
        summary: "The caller's open drafts (not cancelled, sent or scheduled)",
        response: { 200: PendingEmailsResponse },
      },
    },
    async (req) => ({ success: true as const, emails: await pendingEmails(req.em, emailActor(req)) }),
  );

  r.post(
    '/email/draft',
    {
      schema: {
        tags: emailTags,
        summary: "A new draft to a contact (its primary company) or a company (its key contact): 'Draft Email to {name}'",
        body: CreateDraftBody,
        response: { 201: EmailResponse, ...errors },
      },
    },
    async (req, reply) => {
      const email = await createDraft(req.em, emailActor(req), req.body.contactId, req.body.companyId, req.body.replyTo);
      return reply.status(201).send({ success: true as const, message: EMAIL_MESSAGES.saved, email });
    },
  );

  r.put(
    '/email/draft/:id',
    {
      schema: {
        tags: emailTags,
        summary: 'Save a draft on change (to, cc, subject, body; the body is sanitized)',
        params: IdParams,
        body: SaveDraftBody,
        response: { 200: EmailResponse, ...errors },
      },
    },
    async (req) => ({
      success: true as const,
      message: EMAIL_MESSAGES.saved,
      email: await saveDraft(req.em, emailActor(req), req.params.id, req.body),
    }),
  );

  r.post(
    '/email/update-email-status',
    {
      schema: {
        tags: emailTags,
        summary: "Set a draft's status (cancelled = discard)",
        body: UpdateEmailStatusBody,
        response: { 200: UpdateEmailStatusResponse, ...errors },
      },
    },
    async (req) => {
      // Cancel Send & Edit (scheduled → draft) and Try Again (error → scheduled) go through the outbox (send/send.ts).
      const e = await changeEmailStatus(req.em, app.boss, emailActor(req), req.body.id, req.body.status);
      return {
        success: true as const,
        message: EMAIL_MESSAGES.statusUpdated,
        id: e.channelEmailId,
        companyId: e.companyId,
        cc: e.cc,
        subject: e.subject,
        body: e.emailBody,
        executionId: e.executionId,
        status: e.status,
      };
    },
  );

  r.post(
    '/email/generate',
    {
      schema: {
        tags: emailTags,
        summary: 'Generate or regenerate a draft with a play (the draft is processing until written and verified)',
        body: GenerateEmailBody,
        response: { 200: EmailResponse, ...errors, 503: ErrorResponse },
      },
    },
    async (req, reply) => {
      if (!app.boss) return reply.status(503).send({ success: false as const, message: PLAY_MESSAGES.failed });
      return {
        success: true as const,
        message: EMAIL_MESSAGES.generating,
        email: await generateEmail(req.em, app.boss, emailActor(req), req.body.channelEmailId, req.body.playId),
      };
    },
  );

  r.post(
    '/entity/check-valid-entity',
    {
      schema: {
        tags: emailTags,
        summary: 'Can an email go to this contact / company: a contact needs a primary company, a company a key contact',
        body: CheckValidEntityBody,
        response: { 200: CheckValidEntityResponse, ...errors },
      },
    },
    async (req) => {
      const r2 = await checkValidEntity(req.em, emailActor(req), req.body);
      return {
        success: true as const,
        message: 'OK',
        contact: r2.contact,
        company: { id: r2.company.id, name: r2.company.name, website: r2.company.website },
      };
    },
  );

  r.post(
    '/entity/check-ai-generated',
    {
      schema: {
        tags: emailTags,
        summary: 'Verify an AI email: once its execution wrote it, the draft becomes a draft (or error)',
        body: CheckAiGeneratedBody,
        response: { 200: EmailResponse, ...errors },
      },
    },
    async (req) => ({
      success: true as const,
      message: EMAIL_MESSAGES.verified,
      email: await checkAiGenerated(req.em, emailActor(req), req.body),
    }),
  );
}
