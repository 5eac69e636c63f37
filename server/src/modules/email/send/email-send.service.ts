// The use cases of email-send.routes.ts: finishing an Office 365 connection, disconnecting the
// mailbox, the email service's status, the send window, when an email would leave, Send Now /
// scheduling and the test to the caller's own mailbox. Each takes one EmailSendContext: the
// request's EntityManager, the job queue, the config, the request's logger and the caller.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { PgBoss } from 'pg-boss';
import type { z } from 'zod';
import {
  SEND_WINDOW_MESSAGES,
  type EmailServiceStatusResponse,
  type SendTimeResponse,
  type SendToEmailBody,
  type SendToEmailResponse,
  type SendToMyselfBody,
  type SendWindowBody,
} from '@dealscout/shared/contracts';
import { EMAIL_MESSAGES, emailIntegrationBanner, fieldRequiredMessage, nextSendTime, ianaZone } from '@dealscout/shared/domain';
import type { Config } from '../../../config';
import { forgetUser } from '../../../lib/session-cache';
import { HttpError, badRequest, notFound } from '../../../lib/errors';
import { tenantSql } from '../../../db/sql';
import { Integration } from '../../integrations/integration.entity';
import { emailById, sanitizeBody } from '../drafts/emails.service';
import { readState, completeConnect, findConnection, withMailbox } from '../connection/o365';
import { scheduleSend, deliverOutbox, workingHoursOf, sendError, type DeliverDeps } from './send';
import { firstSlot } from './slots';

/** What an email-send use case receives: the request's EntityManager, the job queue, the config, the request's logger and the caller. */
export interface EmailSendContext {
  em: EntityManager;
  boss: PgBoss | null;
  config: Config;
  log: FastifyBaseLogger;
  organizationId: string;
  userId: string;
  /** The caller's own address (the consent page's login hint, the activity's sender). */
  email: string;
  /** The caller's calendar settings (their own send window, their zone). */
  calendar: Record<string, unknown> | null;
}

/** The caller as the send paths and the drafts know them. */
export function senderOf(c: EmailSendContext) {
  return { organizationId: c.organizationId, userId: c.userId, email: c.email, calendar: c.calendar };
}

/** Microsoft's redirect with a code: stores the mailbox; false (logged) when that failed. */
export async function completeO365Connect(
  c: Pick<EmailSendContext, 'em' | 'config' | 'log'>,
  state: NonNullable<Awaited<ReturnType<typeof readState>>>,
  code: string,
): Promise<boolean> {
  try {
    const row = await completeConnect(c.em, c.config, state, code);
    const { unknownZone, hours } = workingHoursOf({ calendar: null }, row);
    if (unknownZone) {
      c.log.warn(
        { integrationId: row.id, mailboxZone: unknownZone, used: hours.timeZone },
        'office 365 mailbox in a time zone we do not know',
      );
    }
  } catch (err) {
    c.log.warn({ err }, 'office 365 connect failed');
    return false;
  }
  return true;
}

/** Disconnects the caller's own email service (another user's or organization's: 404). */
export async function disconnectMailbox(c: EmailSendContext, id: string): Promise<void> {
  await c.em.transactional(async (tem) => {
    const row = await tem.findOne(Integration, { id, user: c.userId, organization: c.organizationId });
    if (!row) throw notFound(EMAIL_MESSAGES.noOffice365);
    tem.remove(row);
    await tem.flush();
  });
}

/** The caller's email service as drafts show it (banner), the send window, and how many emails wait to leave. */
export async function emailServiceStatus(c: EmailSendContext): Promise<EmailServiceStatusResponse> {
  const i = await findConnection(c.em, c.organizationId, c.userId);
  const present = i && i.active ? i : null;
  const { hours, source, unknownZone } = workingHoursOf({ calendar: c.calendar }, present);
  const [q] = await tenantSql(c.em, c.organizationId).all<{ n: string }>(
    `select count(*) as n from email_outbox where organization_id = ? and owner_id = ? and state in ('queued', 'sending')`,
    [c.organizationId, c.userId],
  );
  return {
    success: true as const,
    configured: Boolean(c.config.O365_CLIENT_ID),
    integration: i ? { id: i.id, account: i.name, expiresAt: i.expiresAt?.toISOString() ?? null, active: i.active } : null,
    banner: emailIntegrationBanner(present ? { provider: 'Office 365', expiresAt: present.expiresAt ?? null } : null),
    workingHours: hours,
    workingHoursSource: source,
    queued: Number(q.n),
    zoneNotice: unknownZone ? SEND_WINDOW_MESSAGES.unknownZone(unknownZone, hours.timeZone) : null,
  };
}

/** The caller's own working hours for scheduled emails (null goes back to the mailbox's). */
export async function saveSendWindow(c: EmailSendContext, w: z.output<typeof SendWindowBody>['window']): Promise<void> {
  // An unknown zone would silently mean UTC: refused instead.
  if (w && !ianaZone(w.timeZone)) throw badRequest(SEND_WINDOW_MESSAGES.invalid);
  await tenantSql(c.em, c.organizationId).run(
    `update app_user set calendar = case when ?::jsonb is null then calendar - 'sendWindow' else calendar ||
      jsonb_build_object('sendWindow', ?::jsonb, 'timezone', ?::text) end
                           where id = ? and organization_id = ?`,
    [
      w ? JSON.stringify(w) : null,
      w ? JSON.stringify({ daysOfWeek: w.daysOfWeek, startTime: w.startTime, endTime: w.endTime }) : null,
      w?.timeZone ?? null,
      c.userId,
      c.organizationId,
    ],
  );
  forgetUser(c.userId);
}

/** When an email scheduled for this time (now when none) actually leaves: inside the working hours, at the mailbox's first free slot. */
export async function sendTimeOf(c: EmailSendContext, scheduledAt: string | null | undefined): Promise<SendTimeResponse> {
  const i = await findConnection(c.em, c.organizationId, c.userId);
  const at = scheduledAt ? new Date(scheduledAt) : new Date();
  const hours = workingHoursOf({ calendar: c.calendar }, i).hours;
  const inWindow = scheduledAt ? nextSendTime(at, hours) : at;
  // The slot the email would get now (not held: scheduling takes the then-first free one).
  const sendAt = await firstSlot(c.em, c.organizationId, c.userId, inWindow, scheduledAt ? (t) => nextSendTime(t, hours) : undefined);
  return {
    success: true as const,
    sendAt: sendAt.toISOString(),
    moved: inWindow.getTime() !== at.getTime(),
    queued: sendAt.getTime() !== inWindow.getTime(),
  };
}

/**
 * Send a draft now, or schedule it (scheduledAt). scheduleSend commits the email, its outbox row and
 * its job in one transaction; Send Now then makes the first attempt itself (the job is the safety
 * net, and the outbox claim makes sure the email leaves once), and answers what that attempt did.
 */
export async function sendDraft(c: EmailSendContext, b: z.output<typeof SendToEmailBody>): Promise<SendToEmailResponse> {
  if (!c.boss) throw new HttpError(503, EMAIL_MESSAGES.sendFailed);
  const a = senderOf(c);
  const scheduled = Boolean(b.scheduledAt);
  const { email, outboxId, sendAt } = await scheduleSend(c.em, c.boss, c.config, a, b.id, {
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
      { em: c.em, boss: c.boss, config: c.config, logger: c.log as unknown as DeliverDeps['logger'] },
      a.organizationId,
      outboxId,
    );
  } catch (err) {
    c.log.warn({ err, outboxId }, 'send now: first attempt failed; the job retries');
    outcome = 'deferred';
  }
  const after = await emailById(c.em.fork(), a, b.id);
  if (outcome === 'failed') {
    // The mailbox cannot be used (the grant was revoked, it expired): the spec's message; anything else the generic one.
    if (after.statusMessage === EMAIL_MESSAGES.noOffice365) throw badRequest(EMAIL_MESSAGES.noOffice365);
    throw new HttpError(502, EMAIL_MESSAGES.sendFailed);
  }
  if (outcome === 'sent')
    return { success: true as const, message: EMAIL_MESSAGES.sent, email: after, sendAt: sendAt.toISOString(), sent: true };
  return { success: true as const, message: EMAIL_MESSAGES.scheduled, email: after, sendAt: sendAt.toISOString(), sent: false };
}

/** A test of a draft to the caller's own mailbox (Graph /me/sendMail, not kept in Sent Items). */
export async function sendToMyself(c: EmailSendContext, body: z.output<typeof SendToMyselfBody>): Promise<void> {
  const a = senderOf(c);
  if (body.id) await emailById(c.em, a, body.id);
  if (!body.subject.trim()) throw badRequest(fieldRequiredMessage('Subject'));
  const i = await findConnection(c.em, c.organizationId, c.userId);
  if (!i || !i.active) throw badRequest(EMAIL_MESSAGES.noOffice365);
  try {
    await withMailbox(c.em, c.config, c.organizationId, c.userId, (client, token) =>
      client.sendMail(token, { subject: body.subject, html: sanitizeBody(body.body), to: [i.name] }),
    );
  } catch (err) {
    c.log.warn({ err }, 'send to myself failed');
    throw sendError(err);
  }
}
