// The email service: connect / disconnect the caller's Office 365 mailbox (spec 001 §7
// POST /user/o365-integration, DELETE /user/integration/{id}) and send (spec 000 §7
// POST /email/send-to-email, POST /email/send-email-to-my-self). Update-email-status's Cancel Send
// & Edit and Try Again live in plays.routes.ts (the route is the drafts'), calling send.ts.
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
import { EMAIL_MESSAGES, emailIntegrationBanner, fieldRequiredMessage, nextSendTime, ianaZone } from '@dealscout/shared/domain';
import { authOf } from '../../../plugins/types';
import { forgetUser } from '../../../lib/session-cache';
import { HttpError, badRequest, notFound } from '../../../lib/errors';
import { tenantSql } from '../../../db/sql';
import { Integration } from '../../integrations/integration.entity';
import { emailById, sanitizeBody } from '../drafts/emails.service';
import { connectUrl, readState, completeConnect, findConnection, withMailbox } from '../connection/o365';
import { scheduleSend, deliverOutbox, workingHoursOf, sendError, type DeliverDeps } from './send';
import { firstSlot } from './slots';

const tags = ['emails'];
const errors = { 400: ErrorResponse, 404: ErrorResponse };

function actorOf(req: FastifyRequest) {
  const a = authOf(req);
  return {
    organizationId: a.organizationId,
    userId: a.user.id,
    email: a.user.email,
    calendar: a.user.calendar as Record<string, unknown> | null,
  };
}

export async function emailSendRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

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
    async (req) => ({ success: true as const, authorizeUrl: connectUrl(app.config, actorOf(req), req.body.returnTo) }),
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
              'Back to the app (Location: the page the connection started from, or the profile) with o365=connected, or o365=error and o365Reason (denied, expired or failed)',
            ),
        },
      },
    },
    async (req, reply) => {
      const state = req.query.state ? readState(app.config, req.query.state) : null;
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
      try {
        const row = await completeConnect(req.em, app.config, state, req.query.code);
        const { unknownZone, hours } = workingHoursOf({ calendar: null }, row);
        if (unknownZone) {
          req.log.warn(
            { integrationId: row.id, mailboxZone: unknownZone, used: hours.timeZone },
            'office 365 mailbox in a time zone we do not know',
          );
        }
      } catch (err) {
        req.log.warn({ err }, 'office 365 connect failed');
        return back('error', state.r, 'failed');
      }
      return back('connected', state.r);
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
      const a = actorOf(req);
      await req.em.transactional(async (tem) => {
        const row = await tem.findOne(Integration, { id: req.params.id, user: a.userId, organization: a.organizationId });
        if (!row) throw notFound(EMAIL_MESSAGES.noOffice365);
        tem.remove(row);
        await tem.flush();
      });
      return { success: true as const, message: 'Office 365 disconnected.' };
    },
  );

  r.get(
    '/email/service-status',
    {
      schema: {
        tags,
        summary: "The caller's email service as drafts show it (banner), the send window, and how many emails wait to leave",
        response: { 200: EmailServiceStatusResponse },
      },
    },
    async (req) => {
      const a = actorOf(req);
      const i = await findConnection(req.em, a.organizationId, a.userId);
      const present = i && i.active ? i : null;
      const { hours, source, unknownZone } = workingHoursOf({ calendar: a.calendar }, present);
      const [q] = await tenantSql(req.em, a.organizationId).all<{ n: string }>(
        `select count(*) as n from email_outbox where organization_id = ? and owner_id = ? and state in ('queued', 'sending')`,
        [a.organizationId, a.userId],
      );
      return {
        success: true as const,
        configured: Boolean(app.config.O365_CLIENT_ID),
        integration: i ? { id: i.id, account: i.name, expiresAt: i.expiresAt?.toISOString() ?? null, active: i.active } : null,
        banner: emailIntegrationBanner(present ? { provider: 'Office 365', expiresAt: present.expiresAt ?? null } : null),
        workingHours: hours,
        workingHoursSource: source,
        queued: Number(q.n),
        zoneNotice: unknownZone ? SEND_WINDOW_MESSAGES.unknownZone(unknownZone, hours.timeZone) : null,
      };
    },
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
      const a = authOf(req);
      const w = req.body.window;
      // An unknown zone would silently mean UTC: refused instead.
      if (w && !ianaZone(w.timeZone)) throw badRequest(SEND_WINDOW_MESSAGES.invalid);
      await tenantSql(req.em, a.organizationId).run(
        `update app_user set calendar = case when ?::jsonb is null then calendar - 'sendWindow' else calendar || jsonb_build_object('sendWindow', ?::jsonb, 'timezone', ?::text) end
                           where id = ? and organization_id = ?`,
        [
          w ? JSON.stringify(w) : null,
          w ? JSON.stringify({ daysOfWeek: w.daysOfWeek, startTime: w.startTime, endTime: w.endTime }) : null,
          w?.timeZone ?? null,
          a.user.id,
          a.organizationId,
        ],
      );
      forgetUser(a.user.id);
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
    async (req) => {
      const a = actorOf(req);
      const i = await findConnection(req.em, a.organizationId, a.userId);
      const at = req.body.scheduledAt ? new Date(req.body.scheduledAt) : new Date();
      const hours = workingHoursOf({ calendar: a.calendar }, i).hours;
      const inWindow = req.body.scheduledAt ? nextSendTime(at, hours) : at;
      // The slot the email would get now (not held: scheduling takes the then-first free one).
      const sendAt = await firstSlot(
        req.em,
        a.organizationId,
        a.userId,
        inWindow,
        req.body.scheduledAt ? (t) => nextSendTime(t, hours) : undefined,
      );
      return {
        success: true as const,
        sendAt: sendAt.toISOString(),
        moved: inWindow.getTime() !== at.getTime(),
        queued: sendAt.getTime() !== inWindow.getTime(),
      };
    },
  );

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
    async (req, reply) => {
      if (!app.boss) return reply.status(503).send({ success: false as const, message: EMAIL_MESSAGES.sendFailed });
      const a = actorOf(req);
      const b = req.body;
      const scheduled = Boolean(b.scheduledAt);
      const { email, outboxId, sendAt } = await scheduleSend(req.em, app.boss, app.config, a, b.id, {
        to: b.to,
        cc: b.cc ?? [],
        subject: b.subject,
        body: b.body,
        scheduledAt: b.scheduledAt,
        replyToMessageId: b.replyToMessageId ?? null,
      });
      if (scheduled) return { success: true as const, message: EMAIL_MESSAGES.scheduled, email, sendAt: sendAt.toISOString(), sent: false };
      // Send now: this request makes the first attempt itself (its job is the safety net).
      let outcome: string;
      try {
        outcome = await deliverOutbox(
          { em: req.em, boss: app.boss, config: app.config, logger: req.log as unknown as DeliverDeps['logger'] },
          a.organizationId,
          outboxId,
        );
      } catch (err) {
        req.log.warn({ err, outboxId }, 'send now: first attempt failed; the job retries');
        outcome = 'deferred';
      }
      const after = await emailById(req.em.fork(), a, b.id);
      if (outcome === 'failed') {
        // The mailbox cannot be used (the grant was revoked, it expired): the spec's message; anything else the generic one.
        if (after.statusMessage === EMAIL_MESSAGES.noOffice365) throw badRequest(EMAIL_MESSAGES.noOffice365);
        throw new HttpError(502, EMAIL_MESSAGES.sendFailed);
      }
      if (outcome === 'sent')
        return { success: true as const, message: EMAIL_MESSAGES.sent, email: after, sendAt: sendAt.toISOString(), sent: true };
      return { success: true as const, message: EMAIL_MESSAGES.scheduled, email: after, sendAt: sendAt.toISOString(), sent: false };
    },
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
      const a = actorOf(req);
      if (req.body.id) await emailById(req.em, a, req.body.id);
      if (!req.body.subject.trim()) throw badRequest(fieldRequiredMessage('Subject'));
      const i = await findConnection(req.em, a.organizationId, a.userId);
      if (!i || !i.active) throw badRequest(EMAIL_MESSAGES.noOffice365);
      try {
        await withMailbox(req.em, app.config, a.organizationId, a.userId, (client, token) =>
          client.sendMail(token, { subject: req.body.subject, html: sanitizeBody(req.body.body), to: [i.name] }),
        );
      } catch (err) {
        req.log.warn({ err }, 'send to myself failed');
        throw sendError(err);
      }
      return { success: true as const, message: EMAIL_MESSAGES.sent };
    },
  );
}
