// The email service: connect / disconnect the caller's Office 365 mailbox (spec 001 §7
// POST /user/o365-integration, DELETE /user/integration/{id}) and send (spec 000 §7
// POST /email/send-to-email, POST /email/send-email-to-my-self). Update-email-status's Cancel Send
// & Edit and Try Again live in plays.routes.ts (the route is the drafts'), calling send.ts.
// Each route validates, calls one use case of email-send.service.ts with an EmailSendContext and answers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorResponse,
  IdParams,
  SuccessResponse,
  O365ConnectBody,
  O365ConnectResponse,
  O365CallbackQuery,
  EmailServiceStatusResponse,
  SendTimeBody,
  SendTimeResponse,
  SendToEmailBody,
  SendToEmailResponse,
  SendToMyselfBody,
  SendWindowBody,
  SEND_WINDOW_MESSAGES,
} from '@dealscout/shared/contracts';
import { EMAIL_MESSAGES } from '@dealscout/shared/domain';
import { authOf } from '../../../plugins/types';
import { connectUrl, readState } from '../connection/o365';
import {
  completeO365Connect,
  disconnectMailbox,
  emailServiceStatus,
  saveSendWindow,
  sendDraft,
  sendTimeOf,
  sendToMyself,
  senderOf,
  type EmailSendContext,
} from './email-send.service';

const tags = ['emails'];
const errors = { 400: ErrorResponse, 404: ErrorResponse };

function emailSendContext(app: FastifyInstance, req: FastifyRequest): EmailSendContext {
  const a = authOf(req);
  return {
    em: req.em,
    boss: app.boss,
    config: app.config,
    log: req.log,
    organizationId: a.organizationId,
    userId: a.user.id,
    email: a.user.email,
    calendar: a.user.calendar as Record<string, unknown> | null,
  };
}

export async function emailSendRoutes(app: FastifyInstance): Promise<void> {
  // Registered in this order (the OpenAPI document lists them so).
  connectionRoutes(app);
  sendSettingsRoutes(app);
  sendRoutes(app);
}

/** Connect the caller's Office 365 mailbox, Microsoft's redirect, disconnect. */
function connectionRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => emailSendContext(app, req);

  r.post(
    '/user/o365-integration',
    {
      schema: {
        tags: ['integrations'],
        summary:
          "Connect (or re-authenticate) the caller's Office 365 mailbox: answers Microsoft's consent page address (authorization code flow with PKCE)",
        body: O365ConnectBody,
        response: { 200: O365ConnectResponse, 400: ErrorResponse },
      },
    },
    async (req) => ({ success: true as const, authorizeUrl: await connectUrl(req.em, app.config, senderOf(ctx(req)), req.body.returnTo) }),
  );

  r.get(
    '/user/o365-integration/callback',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['integrations'],
        querystring: O365CallbackQuery,
        summary:
          "Microsoft's redirect after consent: stores the mailbox (state carries the user, encrypted) and sends the browser back to the app",
        response: {
          302: z
            .null()
            .describe(
              'Back to the app (Location: the page the connection started from, or the profile) with o365=connected, or ' +
                'o365=error and o365Reason (denied, expired or failed)',
            ),
        },
      },
    },
    async (req, reply) => {
      const state = await readState(req.em, app.config, req.query);
      // A failure says why in o365Reason (a code the app words: denied, expired, failed), so the
      // card can keep the reason and what to do next.
      const back = (outcome: string, path = '/account/profile', reason?: 'denied' | 'expired' | 'failed') => {
        const url = new URL(path, app.config.publicUrl);
        url.searchParams.set('o365', outcome);
        if (reason) url.searchParams.set('o365Reason', reason);
        return reply.redirect(url.toString(), 302);
      };
      if (!state) return back('error', undefined, 'expired');
      if (req.query.error || !req.query.code) return back('error', state.r, req.query.error === 'access_denied' ? 'denied' : 'failed');
      const connected = await completeO365Connect({ em: req.em, config: app.config, log: req.log }, state, req.query.code);
      return connected ? back('connected', state.r) : back('error', state.r, 'failed');
    },
  );

  r.delete(
    '/user/integration/:id',
    {
      schema: {
        tags: ['integrations'],
        summary: "Disconnects the caller's own email service (another user's or organization's: 404)",
        params: IdParams,
        response: { 200: SuccessResponse, ...errors },
      },
    },
    async (req) => {
      await disconnectMailbox(ctx(req), req.params.id);
      return { success: true as const, message: 'Office 365 disconnected.' };
    },
  );
}

/** The email service's status, the caller's send window, when an email would leave. */
function sendSettingsRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => emailSendContext(app, req);

  r.get(
    '/email/service-status',
    {
      schema: {
        tags,
        summary: "The caller's email service as drafts show it (banner), the send window, and how many emails wait to leave",
        response: { 200: EmailServiceStatusResponse },
      },
    },
    async (req) => emailServiceStatus(ctx(req)),
  );

  r.put(
    '/email/send-window',
    {
      schema: {
        tags,
        summary: "The caller's own working hours for scheduled emails (overrides the mailbox's); null goes back to the mailbox's",
        body: SendWindowBody,
        response: { 200: SuccessResponse, 400: ErrorResponse },
      },
    },
    async (req) => {
      await saveSendWindow(ctx(req), req.body.window);
      return { success: true as const, message: SEND_WINDOW_MESSAGES.saved };
    },
  );

  r.post(
    '/email/send-time',
    {
      schema: {
        tags,
        summary: "When an email scheduled for this time actually leaves (inside the sender's working hours)",
        body: SendTimeBody,
        response: { 200: SendTimeResponse, 400: ErrorResponse },
      },
    },
    async (req) => sendTimeOf(ctx(req), req.body.scheduledAt),
  );
}

/** Send Now / schedule, and the test to the caller's own mailbox. */
function sendRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => emailSendContext(app, req);

  r.post(
    '/email/send-to-email',
    {
      schema: {
        tags,
        summary: "Send a draft now, or schedule it (scheduledAt): it leaves inside the sender's working hours, exactly once",
        body: SendToEmailBody,
        response: { 200: SendToEmailResponse, ...errors, 502: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (req) => sendDraft(ctx(req), req.body),
  );

  r.post(
    '/email/send-email-to-my-self',
    {
      schema: {
        tags,
        summary: "A test of a draft to the caller's own mailbox (Graph /me/sendMail, not kept in Sent Items)",
        body: SendToMyselfBody,
        response: { 200: SuccessResponse, ...errors, 502: ErrorResponse },
      },
    },
    async (req) => {
      await sendToMyself(ctx(req), req.body);
      return { success: true as const, message: EMAIL_MESSAGES.sent };
    },
  );
}
