// Sending a channel email from the owner's Office 365 mailbox, exactly once
// (docs/ARCHITECTURE.md 'Sending email').
//
// schedule: one transaction makes the email `scheduled`, writes its outbox row and its scheduled
//   email activity, and enqueues the `email.send` job (start after the send time).
// deliver: claims the outbox row (a lease; the mailbox's limits are checked under a per-mailbox
//   lock), then asks the mailbox before acting — the message carrying this outbox id, by its
//   stored immutable id or by the extended property — and only creates and sends what is not
//   there yet. Whatever dies at whatever moment, the next attempt finds the message and either
//   sends the draft or records the send that already happened.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import {
  EMAIL_MESSAGES,
  fieldRequiredMessage,
  realtimePaths,
  nextSendTime,
  workingHoursFromGraph,
  DEFAULT_WORKING_HOURS,
  MAILBOX_LIMITS,
  WEEK_DAYS,
  ianaZone,
  knowsZone,
  dateInHours,
  type WorkingHours,
} from '@dealscout/shared/domain';
import { REALTIME_EVENT_KINDS, type EmailDraftDto } from '@dealscout/shared/contracts';
import { HttpError, badRequest } from '../../../lib/errors';
import { bodyText } from '../../../lib/html-text';
import type { Config } from '../../../config';
import { enqueueInTransaction } from '../../../jobs/boss';
import { GroupCommit } from '../../../jobs/group-commit';
import { tenantSql, unscopedSql, scopedTo, preparedTransaction } from '../../../db/sql';
import { GraphError } from '../providers/graph';
import { emailSends } from '../../../lib/metrics';
import { publish } from '../../realtime/publish';
import { Activity, type IActivity } from '../../activities/activity.entity';
import { toActivityDto } from '../../activities/activity.presenter';
import { emailById, sanitizeBody, updateEmailStatus, type EmailActor } from '../drafts/emails.service';
import { findConnection, withMailbox, MailboxUnavailable, O365_PROVIDER, type StoredConnection } from '../connection/o365';
import { reserveSlot, shiftMailbox, lockMailbox, firstSlot, countsAtSql, RATE_WINDOW_MS } from './slots';
import type { IIntegration } from '../../integrations/integration.entity';

export const EMAIL_SEND_QUEUE = 'email.send';
/**
 * How long a claim holds an outbox row (a crashed attempt's row is free again after it): long
 * enough for the calls before the first fence (token refresh, lookup), each capped by
 * GRAPH_TIMEOUT_MS. Each fence (before create, before send) renews it for one more call.
 */
export function leaseMs(config: Pick<Config, 'GRAPH_TIMEOUT_MS'>): number {
  return 3 * config.GRAPH_TIMEOUT_MS + 15_000;
}
/**
 * The send job's options: every job of one mailbox is in that mailbox's pg-boss group, and the
 * workers fetch at most MAILBOX_LIMITS.concurrentRequests active jobs per group (send.job.ts
 * `groupConcurrency`) — so a worker's batch spreads over mailboxes instead of filling up with one
 * mailbox's jobs that the claim would only send back to wait (the claim stays the authority).
 */
export function sendJobOptions(organizationId: string, ownerId: string, startAfter?: Date): { startAfter?: Date; group: { id: string } } {
  return { ...(startAfter ? { startAfter } : {}), group: { id: `${organizationId}:${ownerId}` } };
}
/** How long a Send Now's safety-net job waits for the request's own first attempt (scheduleSend). */
export const SEND_NOW_GRACE_MS = 30_000;
export const SCHEDULE_MESSAGES = {
  pastDate: 'Please select today or a future date for scheduling.',
  invalidTo: EMAIL_MESSAGES.invalidEmailInfo,
} as const;

const simpleEmail = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The user's working hours: the profile's override, else the mailbox's, else Mon–Fri 8–17 in the
 * profile's zone. A mailbox zone the product cannot read (an unknown name and no offset) is never
 * silently UTC: the profile's zone stands in (UTC when it has none), and `unknownZone` names the
 * mailbox's zone so the card says so.
 */
export function workingHoursOf(
  user: { calendar?: Record<string, unknown> | null },
  integration: IIntegration | null,
): {
  hours: WorkingHours;
  source: 'mailbox' | 'profile' | 'default';
  unknownZone: string | null;
} {
  const cal = (user.calendar ?? {}) as { timezone?: string; sendWindow?: { daysOfWeek?: string[]; startTime?: string; endTime?: string } };
  const profileZone = cal.timezone && ianaZone(cal.timezone) ? cal.timezone : null;
  if (cal.sendWindow?.daysOfWeek && cal.sendWindow.startTime && cal.sendWindow.endTime) {
    return {
      hours: {
        daysOfWeek: cal.sendWindow.daysOfWeek.filter((d): d is WorkingHours['daysOfWeek'][number] =>
          (WEEK_DAYS as readonly string[]).includes(d),
        ),
        startTime: cal.sendWindow.startTime,
        endTime: cal.sendWindow.endTime,
        timeZone: profileZone ?? 'UTC',
      },
      source: 'profile',
      unknownZone: null,
    };
  }
  const data = (integration?.data ?? {}) as { workingHours?: Parameters<typeof workingHoursFromGraph>[0]; timeZone?: string | null };
  const fromMailbox = workingHoursFromGraph(data.workingHours, data.timeZone);
  if (fromMailbox && knowsZone(fromMailbox)) return { hours: fromMailbox, source: 'mailbox', unknownZone: null };
  if (fromMailbox)
    return { hours: { ...fromMailbox, timeZone: profileZone ?? 'UTC' }, source: 'mailbox', unknownZone: fromMailbox.timeZone || 'none' };
  const mailboxZone = data.timeZone && ianaZone(data.timeZone) ? data.timeZone : null;
  return {
    hours: { ...DEFAULT_WORKING_HOURS, timeZone: profileZone ?? mailboxZone ?? 'UTC' },
    source: 'default',
    unknownZone: !profileZone && !mailboxZone && data.timeZone ? data.timeZone : null,
  };
}

function usable(i: IIntegration | null): i is IIntegration {
  return Boolean(i && i.active && i.secret && (!i.expiresAt || i.expiresAt.getTime() >= Date.now()));
}

export interface ScheduleInput {
  to: string;
  cc: string[];
  subject: string;
  body: string;
  scheduledAt?: string | null;
  /** A reply to a received message (its Graph id): sent through createReply, so the thread holds. */
  replyToMessageId?: string | null;
}

/**
 * Send now (no scheduledAt: leaves at once) or schedule (the first moment inside the sender's
 * working hours at or after the chosen time). Answers the email, its outbox id and when it leaves.
 */
export async function scheduleSend(
  em: EntityManager,
  boss: PgBoss,
  config: Config,
  actor: EmailActor & { calendar?: Record<string, unknown> | null },
  id: string,
  input: ScheduleInput,
): Promise<{ email: EmailDraftDto; outboxId: string; sendAt: Date }> {
  const to = input.to.trim();
  if (!to) throw badRequest(fieldRequiredMessage('To'));
  if (!simpleEmail.test(to)) throw badRequest(SCHEDULE_MESSAGES.invalidTo);
  if (!input.subject.trim()) throw badRequest(fieldRequiredMessage('Subject'));
  const body = sanitizeBody(input.body);
  if (!bodyText(body)) throw badRequest(fieldRequiredMessage('Body'));
  const requested = input.scheduledAt ? new Date(input.scheduledAt) : null;
  if (requested && requested.getTime() < Date.now() - 60_000) throw badRequest(SCHEDULE_MESSAGES.pastDate);

  return em.transactional(async (tem) => {
    const current = await emailById(tem, actor, id, true);
    if (!['draft', 'ready', 'error'].includes(current.status)) throw badRequest(EMAIL_MESSAGES.invalidEmailInfo);
    const integration = await findConnection(tem, actor.organizationId, actor.userId);
    if (!usable(integration)) throw badRequest(EMAIL_MESSAGES.noOffice365);
    const { hours } = workingHoursOf({ calendar: actor.calendar }, integration);
    // The mailbox's next free send slot at or after the chosen time (inside the working hours),
    // held under the mailbox's lock until this transaction commits (slots.ts).
    const sendAt = await reserveSlot(
      tem,
      actor.organizationId,
      actor.userId,
      requested ? nextSendTime(requested, hours) : new Date(),
      requested ? (t) => nextSendTime(t, hours) : undefined,
    );
    await tenantSql(tem, actor.organizationId).run(
      `update channel_email set to_address = ?, cc = ?::jsonb, subject = ?, body = ?, status = 'scheduled', status_message = null,
        updated_at = clock_timestamp()
                        where id = ? and organization_id = ? and owner_id = ?`,
      [to, JSON.stringify(input.cc), input.subject, body, id, actor.organizationId, actor.userId],
    );
    const [row] = await tenantSql(tem, actor.organizationId).all<{ id: string }>(
      `insert into email_outbox (id, organization_id, channel_email_id, owner_id, state, send_after, slot_at, requested_at, attempt,
        recipients, reply_to_message_id, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, ?, 'queued', ?, ?, ?, 0, ?, ?, clock_timestamp(), clock_timestamp()) returning id`,
      [
        actor.organizationId,
        id,
        actor.userId,
        sendAt,
        sendAt,
        requested,
        1 + input.cc.length,
        input.replyToMessageId ?? current.reply?.messageId ?? null,
      ],
    );
    const activity = tem.create(Activity, {
      organization: actor.organizationId,
      type: 'email',
      title: input.subject.slice(0, 255),
      date: dateInHours(sendAt, hours),
      dueDate: sendAt,
      status: 'scheduled',
      source: 'email',
      sourceId: id,
      content: bodyText(body),
      subject: input.subject.slice(0, 500),
      to,
      others: input.cc,
      by: actor.email,
      company: current.companyId ?? null,
      contact: current.contact?.id ?? null,
      createdBy: actor.userId,
    });
    await tem.flush();
    await enqueueInTransaction(
      boss,
      tem,
      EMAIL_SEND_QUEUE,
      { organizationId: actor.organizationId, outboxId: row.id },
      // Send Now: the caller makes the first attempt at once (deliverOutbox); the job is the safety
      // net for a caller that dies before its claim, so it waits SEND_NOW_GRACE_MS. A job free to
      // start at the slot could claim the row first on a busy worker, and the user who pressed Send
      // Now would be told 'scheduled' for an email that left a moment later.
      sendJobOptions(actor.organizationId, actor.userId, requested ? sendAt : new Date(sendAt.getTime() + SEND_NOW_GRACE_MS)),
    );
    const today = dateInHours(new Date(), hours);
    const created = {
      path: realtimePaths.activities(actor.organizationId),
      kind: REALTIME_EVENT_KINDS.activityCreated,
      data: toActivityDto(activity, today),
    };
    const email = await emailById(tem, actor, id);
    // Last: the organization's sequence row stays locked from here to the commit (publish.ts).
    await publish(tem, actor.organizationId, created);
    return { email, outboxId: row.id, sendAt };
  });
}

interface OutboxRow {
  id: string;
  organization_id: string;
  channel_email_id: string;
  owner_id: string;
  state: string;
  send_after: Date;
  attempt: number;
  lease_until: Date | null;
  graph_message_id: string | null;
  send_attempted_at: Date | null;
  recipients: number;
  reply_to_message_id: string | null;
  /** As read before this claim: null means no attempt ever claimed the row (so none touched the mailbox). */
  claimed_at: Date | null;
}

export type DeliverOutcome = 'sent' | 'deferred' | 'failed' | 'skipped';

export interface DeliverDeps {
  em: EntityManager;
  boss: PgBoss;
  config: Config;
  logger?: Logger;
  /** Test seams: called after each step that changes the mailbox (a throw here is a crash at that moment). */
  hooks?: { afterCreate?: () => void | Promise<void>; afterSend?: () => void | Promise<void> };
}

/** This attempt no longer holds the row (its lease lapsed and another attempt took it): it stops without touching the mailbox. */
class LeaseLost extends Error {}

/**
 * The fence before each step that changes the mailbox: still ours (same attempt, lease not
 * lapsed)? Then the lease is renewed to cover the next call, so no other attempt can start while
 * it runs; otherwise this attempt stops. Fences are written in groups (one statement per
 * organization for whatever fences wait meanwhile, each committed before its caller goes on).
 */
async function fence(d: DeliverDeps, row: OutboxRow, sendingMessageId?: string): Promise<void> {
  const ok = await fencerFor(d.em).submit({
    id: row.id,
    organizationId: row.organization_id,
    attempt: row.attempt,
    messageId: sendingMessageId ?? null,
    renewMs: d.config.GRAPH_TIMEOUT_MS + 15_000,
  });
  if (!ok) throw new LeaseLost('the send lease lapsed');
}

interface FenceItem {
  id: string;
  organizationId: string;
  attempt: number;
  messageId: string | null;
  renewMs: number;
}

/** One statement per organization: each row's lease renewed (and its message id and send stamp kept) if the attempt still holds it. */
async function fenceGroup(em: EntityManager, group: FenceItem[]): Promise<boolean[]> {
  const held = new Set<string>();
  for (const [org, items] of byOrganization(group, (f) => f.organizationId)) {
    const rows = await tenantSql(em.fork(), org).prepared<{ id: string; attempt: number }>(
      `with v as (
         select (x->>'id')::uuid as id, (x->>'attempt')::int as attempt, x->>'message' as message, (x->>'renew')::int as renew from
           jsonb_array_elements($1::jsonb) as x
       )
       update email_outbox o set lease_until = clock_timestamp() + v.renew * interval '1 millisecond',
              graph_message_id = coalesce(v.message, o.graph_message_id),
              send_attempted_at = case when v.message is not null then clock_timestamp() else o.send_attempted_at end,
              updated_at = clock_timestamp()
         from v
        where o.organization_id = $2::uuid and o.id = v.id and o.state = 'sending' and o.attempt = v.attempt and o.lease_until > clock_timestamp()
       returning o.id, v.attempt`,
      [JSON.stringify(items.map((f) => ({ id: f.id, attempt: f.attempt, message: f.messageId, renew: f.renewMs }))), org],
    );
    for (const r of rows) held.add(`${r.id}:${Number(r.attempt)}`);
  }
  return group.map((f) => held.has(`${f.id}:${f.attempt}`));
}

function byOrganization<T>(items: T[], org: (t: T) => string): [string, T[]][] {
  const m = new Map<string, T[]>();
  for (const t of items) (m.get(org(t)) ?? m.set(org(t), []).get(org(t))!).push(t);
  return [...m].sort(([x], [y]) => x.localeCompare(y));
}

/** Moves the row back to the queue and enqueues its next attempt (one transaction). */
async function requeue(
  d: DeliverDeps,
  row: Pick<OutboxRow, 'id' | 'organization_id' | 'owner_id'>,
  until: Date,
  note: string | null,
): Promise<void> {
  await d.em.fork().transactional(async (tem) => {
    await tenantSql(tem, row.organization_id).run(
      `update email_outbox set state = 'queued', lease_until = null, send_after = ?, error = ?, updated_at = clock_timestamp() where id
        = ? and organization_id = ? and state in ('queued', 'sending')`,
      [until, note, row.id, row.organization_id],
    );
    await enqueueInTransaction(
      d.boss,
      tem,
      EMAIL_SEND_QUEUE,
      { organizationId: row.organization_id, outboxId: row.id },
      sendJobOptions(row.organization_id, row.owner_id, until),
    );
  });
}

/**
 * A 429 (Retry-After): the row goes back to the queue and it and the mailbox's other waiting rows
 * due before `until` take new slots from then on (slots.ts shiftMailbox); one transaction.
 */
async function throttle(
  d: DeliverDeps,
  row: Pick<OutboxRow, 'id' | 'organization_id' | 'owner_id'>,
  until: Date,
  note: string,
): Promise<void> {
  await d.em.fork().transactional(async (tem) => {
    const back = await tenantSql(tem, row.organization_id).all<{ id: string }>(
      `update email_outbox set state = 'queued', lease_until = null, error = ?, updated_at = clock_timestamp() where id = ? and
        organization_id = ? and state in ('queued', 'sending') returning id`,
      [note, row.id, row.organization_id],
    );
    if (back.length === 0) return;
    const slot = await shiftMailbox(tem, row.organization_id, row.owner_id, row.id, until);
    await enqueueInTransaction(
      d.boss,
      tem,
      EMAIL_SEND_QUEUE,
      { organizationId: row.organization_id, outboxId: row.id },
      sendJobOptions(row.organization_id, row.owner_id, slot),
    );
  });
}

/** What the one-statement claim answers besides the row: the email's content and the mailbox's connection, read with it. */
interface FastClaim {
  row: OutboxRow;
  email: { to_address: string; cc: string[]; subject: string; body: string } | null;
  connection: StoredConnection | null;
}

/**
 * The common case, without the locked claim's round trips: a due row that no attempt holds, whose
 * mailbox has room in its rolling minute and its day, is taken (lease, attempt, claimed_at), and
 * the email's content and the mailbox's connection come back with it. Claims are made in groups:
 * whatever claims wait while one group runs go into the next — per organization one short
 * transaction of prepared statements: the mailboxes' advisory locks (the lock the locked claim and
 * the slot ledger take; in sorted order, so two groups cannot deadlock), then one statement that
 * counts each mailbox's limits exactly (rows of one mailbox in the group counted in their slot
 * order) and claims what fits. Concurrent requests are not counted here: withMailbox's per-mailbox
 * permit holds them, and a 429 MailboxConcurrency re-queues the email alone. Anything else (not due,
 * held, at a limit, done) answers null and goes through the locked claim, which says why.
 */
async function claimFast(d: DeliverDeps, organizationId: string, outboxId: string): Promise<FastClaim | null> {
  return claimerFor(d.em, d.logger).submit({ organizationId, outboxId, leaseMs: leaseMs(d.config) });
}

interface ClaimItem {
  organizationId: string;
  outboxId: string;
  leaseMs: number;
}

type ClaimedRow = OutboxRow & {
  lease: number;
  rn: number;
  rcum: number;
  new_attempt: number;
  e_found: boolean;
  e_to: string;
  e_cc: string[];
  e_subject: string;
  e_body: string;
  i_id: string | null;
  i_active: boolean | null;
  i_secret: string | null;
  i_expires_at: Date | null;
};

async function claimGroup(em: EntityManager, group: ClaimItem[], logger?: Logger): Promise<(FastClaim | null)[]> {
  const claimed = new Map<string, FastClaim>();
  for (const [org, items] of byOrganization(group, (c) => c.organizationId)) {
    // A failure of one organization's transaction leaves its rows to the locked claim (which reports
    // a real failure itself); it must not fail the group, whose other organizations' claims may have
    // committed already (a claim is not idempotent: retrying it would find its own row held).
    const rows = await preparedTransaction(em, org, async (query) => {
      await query(
        `select pg_advisory_xact_lock(hashtextextended(m.organization_id::text || ':' || m.owner_id::text, 18))
                     from (select distinct organization_id, owner_id from email_outbox where organization_id = $1::uuid and id =
                       any($2::uuid[]) order by 1, 2) m`,
        [org, items.map((c) => c.outboxId)],
      );
      // Prepared: planning this join costs more than running it (docs/benchmarks.md 'Sending email').
      return query<ClaimedRow>(
        `with v as (
           select distinct on (x->>'id') (x->>'id')::uuid as id, (x->>'lease')::int as lease from jsonb_array_elements($1::jsonb) as x
         ), locked as (
           select o.*, v.lease from email_outbox o join v on v.id = o.id
            where o.organization_id = $2::uuid and o.state = 'queued' and o.send_after <= clock_timestamp() + interval '1 second'
            for update of o skip locked
         ), cur as (
           -- Rows of one mailbox in this group: each counts the ones before it (slot order).
           select locked.*, row_number() over w as rn, sum(locked.recipients) over w as rcum from locked
           window w as (partition by locked.owner_id order by locked.slot_at nulls last, locked.id)
         ), load as (
           select cur.id,
                  count(*) filter (where ${countsAtSql('l.')} > clock_timestamp() - $3::int * interval '1 millisecond' and l.state in
                    ('sending', 'sent')) as minute,
                  coalesce(sum(l.recipients) filter (where l.state in ('sending', 'sent')), 0) as day
             from cur join email_outbox l on l.organization_id = cur.organization_id and l.owner_id = cur.owner_id
            where l.claimed_at > clock_timestamp() - interval '1 day' and l.id <> cur.id
            group by cur.id
         )
         update email_outbox o set state = 'sending', attempt = o.attempt + 1, claimed_at = clock_timestamp(), lease_until =
           clock_timestamp() + cur.lease * interval '1 millisecond', updated_at = clock_timestamp()
           from cur left join load on load.id = cur.id
           left join channel_email e on e.organization_id = cur.organization_id and e.id = cur.channel_email_id
           left join integration i on i.organization_id = cur.organization_id and i.user_id = cur.owner_id and i.provider = $4::text
          where o.id = cur.id and o.organization_id = $2::uuid
            and coalesce(load.minute, 0) + cur.rn <= $5::int and coalesce(load.day, 0) + cur.rcum <= $6::int
         returning cur.*, o.attempt as new_attempt,
           e.id is not null as e_found, e.to_address as e_to, e.cc as e_cc, e.subject as e_subject, e.body as e_body,
           i.id as i_id, i.active as i_active, i.secret as i_secret, i.expires_at as i_expires_at`,
        [
          JSON.stringify(items.map((c) => ({ id: c.outboxId, lease: c.leaseMs }))),
          org,
          RATE_WINDOW_MS,
          O365_PROVIDER,
          MAILBOX_LIMITS.messagesPerMinute,
          MAILBOX_LIMITS.recipientsPerDay,
        ],
      );
    }).catch((err: unknown) => {
      logger?.warn({ err, organizationId: org, claims: items.length }, 'grouped send claim failed; its rows go through the locked claim');
      return [] as ClaimedRow[];
    });
    for (const r of rows) {
      const {
        new_attempt,
        lease: _lease,
        rn: _rn,
        rcum: _rcum,
        e_found,
        e_to,
        e_cc,
        e_subject,
        e_body,
        i_id,
        i_active,
        i_secret,
        i_expires_at,
        ...row
      } = r;
      claimed.set(row.id, {
        row: { ...row, attempt: Number(new_attempt) },
        email: e_found ? { to_address: e_to, cc: e_cc, subject: e_subject, body: e_body } : null,
        connection: i_id
          ? { id: i_id, active: Boolean(i_active), secret: i_secret, expiresAt: i_expires_at ? new Date(i_expires_at) : null }
          : null,
      });
    }
  }
  // A row asked for twice in one group is claimed once: the first asker holds it, the other goes
  // through the locked claim (which finds it held and sends its job back to wait).
  return group.map((c) => {
    const hit = claimed.get(c.outboxId) ?? null;
    if (hit) claimed.delete(c.outboxId);
    return hit;
  });
}

/** Claims the row for one attempt, or says why not now (deferred / already done). */
async function claim(d: DeliverDeps, organizationId: string, outboxId: string): Promise<OutboxRow | DeliverOutcome> {
  return d.em.fork().transactional(async (tem) => {
    const [row] = await tenantSql(tem, organizationId).all<OutboxRow>(
      `select * from email_outbox where id = ? and organization_id = ? for update`,
      [outboxId, organizationId],
    );
    if (!row || ['sent', 'failed', 'cancelled'].includes(row.state)) return 'skipped';
    const now = Date.now();
    const later = async (until: Date) => {
      await tenantSql(tem, organizationId).run(
        `update email_outbox set send_after = ?, updated_at = clock_timestamp() where id = ? and organization_id = ?`,
        [until, row.id, organizationId],
      );
      await enqueueInTransaction(
        d.boss,
        tem,
        EMAIL_SEND_QUEUE,
        { organizationId, outboxId },
        sendJobOptions(organizationId, row.owner_id, until),
      );
      return 'deferred' as const;
    };
    if (row.state === 'sending' && row.lease_until && new Date(row.lease_until).getTime() > now)
      return later(new Date(new Date(row.lease_until).getTime() + 1000));
    if (new Date(row.send_after).getTime() > now + 1000) return later(new Date(row.send_after));
    // The mailbox's limits, counted under a per-mailbox lock so concurrent claims see each other.
    await lockMailbox(tem, organizationId, row.owner_id);
    const [load] = await tenantSql(tem, organizationId).all<{
      minute: string;
      oldest_minute: Date | null;
      day: string | null;
      oldest_day: Date | null;
    }>(
      `select count(*) filter (where ${countsAtSql()} > clock_timestamp() - ? * interval '1 millisecond' and state in ('sending',
        'sent') and id <> ?) as minute,
              min(${countsAtSql()}) filter (where ${countsAtSql()} > clock_timestamp() - ? * interval '1 millisecond' and state in
                ('sending', 'sent') and id <> ?) as oldest_minute,
              sum(recipients) filter (where claimed_at > clock_timestamp() - interval '1 day' and state in ('sending', 'sent') and id <> ?) as day,
              min(claimed_at) filter (where claimed_at > clock_timestamp() - interval '1 day' and state in ('sending', 'sent') and id <> ?) as oldest_day
         from email_outbox where organization_id = ? and owner_id = ? and claimed_at > clock_timestamp() - interval '1 day'`,
      [RATE_WINDOW_MS, row.id, RATE_WINDOW_MS, row.id, row.id, row.id, organizationId, row.owner_id],
    );
    if (Number(load.minute) >= MAILBOX_LIMITS.messagesPerMinute && load.oldest_minute) {
      // The mailbox's earlier sends went later than their slots (a slow minute): this row takes a
      // new slot from the ledger, which counts those sends at their real claims, so its job comes
      // once when the minute has room instead of hopping with its neighbours to the same instant.
      await tenantSql(tem, organizationId).run(`update email_outbox set slot_at = null where id = ? and organization_id = ?`, [
        row.id,
        organizationId,
      ]);
      const slot = await firstSlot(
        tem,
        organizationId,
        row.owner_id,
        new Date(Math.max(now, new Date(load.oldest_minute).getTime() + RATE_WINDOW_MS + 50)),
      );
      await tenantSql(tem, organizationId).run(`update email_outbox set slot_at = ? where id = ? and organization_id = ?`, [
        slot,
        row.id,
        organizationId,
      ]);
      return later(slot);
    }
    if (Number(load.day ?? 0) + row.recipients > MAILBOX_LIMITS.recipientsPerDay && load.oldest_day)
      return later(new Date(new Date(load.oldest_day).getTime() + 86_400_000 + 50));
    await tenantSql(tem, organizationId).run(
      `update email_outbox set state = 'sending', attempt = attempt + 1, claimed_at = clock_timestamp(), lease_until = clock_timestamp()
        + ? * interval '1 millisecond', updated_at = clock_timestamp() where id = ? and organization_id = ?`,
      [leaseMs(d.config), row.id, organizationId],
    );
    return { ...row, attempt: row.attempt + 1 };
  });
}

async function activityOf(em: EntityManager, organizationId: string, channelEmailId: string): Promise<IActivity | null> {
  return em.findOne(
    Activity,
    { organization: organizationId, source: 'email', sourceId: channelEmailId },
    { ...scopedTo(organizationId), orderBy: { createdAt: 'desc' }, populate: ['company', 'contact'] },
  );
}

interface Outcome {
  row: Pick<OutboxRow, 'id' | 'organization_id'>;
  outcome: 'sent' | 'failed';
  message: string | null;
  conversationId: string | null;
}

/**
 * Records the outcome of sends in groups (jobs/group-commit.ts): whatever finished while the
 * previous group was committing goes into the next transaction — per organization one statement for
 * the outbox rows, the emails' statuses and their activities, then one publish. The organization's
 * realtime sequence row is held from the publish until the commit, so recording one send at a time
 * limited an organization to one commit's round trips per email. A caller's promise settles when
 * its send is committed; a group that fails is written again one send at a time.
 */
async function recordGroup(em: EntityManager, group: Outcome[]): Promise<void[]> {
  await em.fork().transactional(async (tem) => {
    // The commit does not wait for the WAL flush (the sequence row is held until it ends). Safe
    // for exactly-once: a record lost in a database crash leaves the row `sending` with its send
    // stamped, and the retry (the job is completed only after this, and its synchronous commit
    // flushes this one too) asks the mailbox, finds the message sent and records it.
    await unscopedSql(tem, 'connection').run(`set local synchronous_commit = off`);
    const byOrg = new Map<string, Outcome[]>();
    for (const o of group) (byOrg.get(o.row.organization_id) ?? byOrg.set(o.row.organization_id, []).get(o.row.organization_id)!).push(o);
    const today = new Date().toISOString().slice(0, 10);
    for (const [org, items] of [...byOrg].sort(([x], [y]) => x.localeCompare(y))) {
      const rows = await tenantSql(tem, org).all<Record<string, unknown>>(
        `with v as (
           select (x->>'id')::uuid as id, x->>'outcome' as outcome, x->>'message' as message, x->>'conv' as conv from jsonb_array_elements(?::jsonb) as x
         ), o as (
           update email_outbox b set state = v.outcome, sent_at = case when v.outcome = 'sent' then clock_timestamp() else b.sent_at end, lease_until = null,
                  error = v.message, conversation_id = coalesce(v.conv, b.conversation_id), updated_at = clock_timestamp()
             from v where b.organization_id = ? and b.id = v.id and b.state in ('queued', 'sending')
           returning b.id, b.organization_id, b.channel_email_id, v.outcome, v.message
         ), e as (
           update channel_email c set status = case when o.outcome = 'sent' then 'sent' else 'error' end, status_message = case when
             o.outcome = 'sent' then null else o.message end,
                  updated_at = clock_timestamp()
             from o where c.organization_id = o.organization_id and c.id = o.channel_email_id returning c.id
         ), t as (
           -- The newest activity of each email.
           select distinct on (o.id) x.id, o.outcome, o.message from o
             join activity x on x.organization_id = o.organization_id and x.source = 'email' and x.source_id = o.channel_email_id::text
            order by o.id, x.created_at desc
         )
         update activity x set status = case when t.outcome = 'sent' then null else 'error' end,
                error_message = case when t.outcome = 'sent' then null else t.message end,
                due_date = case when t.outcome = 'sent' then clock_timestamp() else x.due_date end,
                date = case when t.outcome = 'sent' then (clock_timestamp() at time zone 'UTC')::date else x.date end,
                updated_at = clock_timestamp()
           from t where x.organization_id = ? and x.id = t.id
         returning x.*`,
        [JSON.stringify(items.map((i) => ({ id: i.row.id, outcome: i.outcome, message: i.message, conv: i.conversationId }))), org, org],
      );
      if (rows.length === 0) continue;
      await publish(
        tem,
        org,
        rows.map((raw) => ({
          path: realtimePaths.activities(org),
          kind: REALTIME_EVENT_KINDS.activityUpdated,
          data: toActivityDto(tem.map(Activity, raw), today),
        })),
      );
    }
  });
  return group.map(() => undefined);
}

const recorders = new WeakMap<object, GroupCommit<Outcome, void>>();
const claimers = new WeakMap<object, GroupCommit<ClaimItem, FastClaim | null>>();
const fencers = new WeakMap<object, GroupCommit<FenceItem, boolean>>();
/** The recorder of the caller's database (one per ORM instance). */
function recorderFor(em: EntityManager): GroupCommit<Outcome, void> {
  const key = em.config;
  let r = recorders.get(key);
  if (!r) recorders.set(key, (r = new GroupCommit((group) => recordGroup(em, group), 100)));
  return r;
}
/** The claims of the caller's database (one per ORM instance). */
function claimerFor(em: EntityManager, logger?: Logger): GroupCommit<ClaimItem, FastClaim | null> {
  let c = claimers.get(em.config);
  if (!c) claimers.set(em.config, (c = new GroupCommit((group) => claimGroup(em, group, logger), 100)));
  return c;
}
/** The fences of the caller's database (one per ORM instance). */
function fencerFor(em: EntityManager): GroupCommit<FenceItem, boolean> {
  let f = fencers.get(em.config);
  if (!f) fencers.set(em.config, (f = new GroupCommit((group) => fenceGroup(em, group), 100)));
  return f;
}

async function finish(
  d: DeliverDeps,
  row: OutboxRow,
  outcome: 'sent' | 'failed',
  message: string | null,
  conversationId: string | null = null,
): Promise<void> {
  await recorderFor(d.em).submit({ row, outcome, message, conversationId });
}

/**
 * One attempt at an outbox row. Safe to run any number of times, concurrently too: the lease
 * keeps two attempts apart, and each attempt asks the mailbox what earlier ones did.
 */
export async function deliverOutbox(d: DeliverDeps, organizationId: string, outboxId: string): Promise<DeliverOutcome> {
  const fast = await claimFast(d, organizationId, outboxId);
  let row: OutboxRow;
  let email: FastClaim['email'];
  let connection: StoredConnection | null | undefined;
  if (fast) {
    ({ row, email, connection } = fast);
  } else {
    const claimed = await claim(d, organizationId, outboxId);
    if (typeof claimed === 'string') return claimed;
    row = claimed;
    [email = null] = await tenantSql(d.em.fork(), organizationId).all<{ to_address: string; cc: string[]; subject: string; body: string }>(
      `select to_address, cc, subject, body from channel_email where id = ? and organization_id = ?`,
      [row.channel_email_id, organizationId],
    );
  }
  // Until when, by this process's clock, no other attempt can take the row: the claim's lease, less
  // a margin for the time between the claim's commit and its answer here.
  const heldUntil = performance.now() + leaseMs(d.config) - 5_000;
  try {
    if (!email) throw new GraphError(400, 'missing', EMAIL_MESSAGES.invalidChannelEmail);
    const outcome = await withMailbox(
      d.em,
      d.config,
      organizationId,
      row.owner_id,
      async (client, token) => {
        // The first attempt ever (no claim before this one) has nothing to look for: no earlier attempt
        // reached the mailbox. Every later attempt asks the mailbox first.
        const firstEver = row.claimed_at === null && !row.graph_message_id && !row.send_attempted_at;
        let message = row.graph_message_id ? await client.getMessage(token, row.graph_message_id) : null;
        if (!message && !firstEver) message = await client.findByOutboxId(token, row.id);
        if (message && !message.isDraft) return { outcome: 'already-sent' as const, conversationId: message.conversationId ?? null };
        if (!message && row.send_attempted_at && row.graph_message_id) {
          // The message we sent is gone from every folder (deleted after sending): it left; never send it again.
          return { outcome: 'already-sent' as const, conversationId: null };
        }
        if (!message) {
          // The fence before the create; skipped while the claim's own lease still covers the create
          // call (GRAPH_TIMEOUT_MS caps it) — no other attempt can start before that.
          if (performance.now() + d.config.GRAPH_TIMEOUT_MS >= heldUntil) await fence(d, row);
          const input = { subject: email.subject, html: email.body, to: [email.to_address], cc: email.cc ?? [], outboxId: row.id };
          // A reply goes through createReply (the thread holds); the adapter then sets the outbox id on the draft.
          message = row.reply_to_message_id
            ? await client.createReply(token, row.reply_to_message_id, input)
            : await client.createMessage(token, input);
          await d.hooks?.afterCreate?.();
        }
        // The fence before the send: still ours, the lease renewed for the call, the message's id kept
        // and the attempt to send stamped (a later attempt then never sends without asking the mailbox).
        await fence(d, row, message.id);
        await client.send(token, message.id);
        await d.hooks?.afterSend?.();
        return { outcome: 'sent-now' as const, conversationId: message.conversationId ?? null };
      },
      connection,
    );
    d.logger?.info({ outboxId, outcome: outcome.outcome }, 'email delivered');
    await finish(d, row, 'sent', null, outcome.conversationId);
    emailSends.inc({ outcome: 'sent' });
    return 'sent';
  } catch (err) {
    if (err instanceof LeaseLost) {
      d.logger?.warn({ outboxId }, 'send attempt lost its lease; the attempt that holds it goes on');
      return 'deferred';
    }
    if (err instanceof MailboxUnavailable) {
      emailSends.inc({ outcome: 'mailbox_unavailable' });
      await finish(d, row, 'failed', err.message);
      return 'failed';
    }
    if (err instanceof GraphError && err.concurrencyLimited) {
      // Too many requests at once (another process's, or a race of two claims): this row alone
      // tries again after Retry-After; the mailbox's rate was not the reason, so no slot moves.
      emailSends.inc({ outcome: 'concurrency_limited' });
      await requeue(d, row, new Date(Date.now() + (err.retryAfter ?? 1) * 1000), `throttled: ${err.message}`);
      return 'deferred';
    }
    if (err instanceof GraphError && err.throttled) {
      emailSends.inc({ outcome: 'throttled' });
      await throttle(d, row, new Date(Date.now() + (err.retryAfter ?? 5) * 1000), `throttled: ${err.message}`);
      return 'deferred';
    }
    if (err instanceof GraphError && !err.transient && err.status !== 401) {
      d.logger?.warn({ outboxId, status: err.status, code: err.code }, 'email refused by the mailbox');
      emailSends.inc({ outcome: 'refused' });
      await finish(d, row, 'failed', `${EMAIL_MESSAGES.sendFailed} ${err.message}`);
      return 'failed';
    }
    if (err instanceof GraphError) {
      // 5xx, timeouts, lost answers: the next attempt asks the mailbox first.
      emailSends.inc({ outcome: 'transient' });
      if (row.attempt > d.config.EMAIL_SEND_RETRY_LIMIT) {
        await finish(d, row, 'failed', `${EMAIL_MESSAGES.sendFailed} ${err.message}`);
        return 'failed';
      }
      const delay = d.config.EMAIL_SEND_RETRY_DELAY_SECONDS * 1000 * 2 ** Math.max(0, row.attempt - 1);
      await requeue(d, row, new Date(Date.now() + Math.min(delay, 600_000)), err.message);
      return 'deferred';
    }
    // Anything else (a crash of our own): the lease lapses and pg-boss retries the job.
    throw err;
  }
}

/** Cancel Send & Edit: a scheduled email goes back to draft (its activity removed) unless it is leaving right now. */
export async function cancelScheduled(em: EntityManager, actor: EmailActor, id: string): Promise<EmailDraftDto> {
  return em.transactional(async (tem) => {
    const current = await emailById(tem, actor, id, true);
    if (current.status !== 'scheduled') throw badRequest(EMAIL_MESSAGES.cancelFailed);
    const [o] = await tenantSql(tem, actor.organizationId).all<{ id: string; state: string; lease_until: Date | null }>(
      `select id, state, lease_until from email_outbox where organization_id = ? and channel_email_id = ? and state in ('queued', 'sending') for update`,
      [actor.organizationId, id],
    );
    if (o && o.state === 'sending') throw badRequest(EMAIL_MESSAGES.cancelFailed);
    if (o)
      await tenantSql(tem, actor.organizationId).run(
        `update email_outbox set state = 'cancelled', updated_at = clock_timestamp() where id = ? and organization_id = ?`,
        [o.id, actor.organizationId],
      );
    await tenantSql(tem, actor.organizationId).run(
      `update channel_email set status = 'draft', status_message = null, updated_at = clock_timestamp() where id = ? and organization_id = ?`,
      [id, actor.organizationId],
    );
    const a = await activityOf(tem, actor.organizationId, id);
    if (a) {
      const data = { id: a.id, companyId: a.company?.id ?? null, contactId: a.contact?.id ?? null };
      tem.remove(a);
      await tem.flush();
      await publish(tem, actor.organizationId, {
        path: realtimePaths.activities(actor.organizationId),
        kind: REALTIME_EVENT_KINDS.activityDeleted,
        data,
      });
    }
    return emailById(tem, actor, id);
  });
}

/** Try Again: a failed send goes back to scheduled (same outbox row: the mailbox is asked first, so it never leaves twice). */
export async function retryFailed(em: EntityManager, boss: PgBoss, actor: EmailActor, id: string): Promise<EmailDraftDto> {
  return em.transactional(async (tem) => {
    const current = await emailById(tem, actor, id, true);
    if (current.status !== 'error') throw badRequest(EMAIL_MESSAGES.updateStatusFailed);
    const [o] = await tenantSql(tem, actor.organizationId).all<{ id: string }>(
      `select id from email_outbox where organization_id = ? and channel_email_id = ? and state = 'failed' order by created_at desc limit 1 for update`,
      [actor.organizationId, id],
    );
    if (!o) throw badRequest(EMAIL_MESSAGES.updateStatusFailed);
    const integration = await findConnection(tem, actor.organizationId, actor.userId);
    if (!usable(integration)) throw badRequest(EMAIL_MESSAGES.noOffice365);
    // A new slot from now on (the failed row holds none: only waiting, leaving and sent rows do).
    await tenantSql(tem, actor.organizationId).run(`update email_outbox set slot_at = null where id = ? and organization_id = ?`, [
      o.id,
      actor.organizationId,
    ]);
    const slot = await reserveSlot(tem, actor.organizationId, actor.userId, new Date());
    await tenantSql(tem, actor.organizationId).run(
      `update email_outbox set state = 'queued', attempt = 0, error = null, lease_until = null, send_after = ?, slot_at = ?, updated_at
        = clock_timestamp() where id = ? and organization_id = ?`,
      [slot, slot, o.id, actor.organizationId],
    );
    await tenantSql(tem, actor.organizationId).run(
      `update channel_email set status = 'scheduled', status_message = null, updated_at = clock_timestamp() where id = ? and organization_id = ?`,
      [id, actor.organizationId],
    );
    const a = await activityOf(tem, actor.organizationId, id);
    if (a) {
      a.status = 'scheduled';
      a.errorMessage = null;
      a.dueDate = slot;
      await tem.flush();
      await enqueueInTransaction(
        boss,
        tem,
        EMAIL_SEND_QUEUE,
        { organizationId: actor.organizationId, outboxId: o.id },
        sendJobOptions(actor.organizationId, actor.userId, slot),
      );
      await publish(tem, actor.organizationId, {
        path: realtimePaths.activities(actor.organizationId),
        kind: REALTIME_EVENT_KINDS.activityUpdated,
        data: toActivityDto(a, new Date().toISOString().slice(0, 10)),
      });
    } else {
      await enqueueInTransaction(
        boss,
        tem,
        EMAIL_SEND_QUEUE,
        { organizationId: actor.organizationId, outboxId: o.id },
        sendJobOptions(actor.organizationId, actor.userId, slot),
      );
    }
    return emailById(tem, actor, id);
  });
}

/** The email-service answer for a Graph failure of a request (not a job). */
export function sendError(err: unknown): HttpError {
  if (err instanceof MailboxUnavailable) return badRequest(EMAIL_MESSAGES.noOffice365);
  if (err instanceof HttpError) return err;
  return new HttpError(502, EMAIL_MESSAGES.sendFailed);
}

/**
 * POST /email/update-email-status: Cancel Send & Edit (a scheduled email → draft) and Try Again
 * (a failed send → scheduled) go through the outbox; a scheduled email discarded (cancelled) is
 * taken off the outbox first; every other change is the drafts' own.
 */
export async function changeEmailStatus(
  em: EntityManager,
  boss: PgBoss | null,
  actor: EmailActor,
  id: string,
  status: string,
): Promise<EmailDraftDto> {
  const current = await emailById(em, actor, id);
  if (current.status === 'scheduled') {
    if (status !== 'draft' && status !== 'cancelled') throw badRequest(EMAIL_MESSAGES.updateStatusFailed);
    const back = await cancelScheduled(em, actor, id);
    return status === 'draft' ? back : updateEmailStatus(em, actor, id, 'cancelled');
  }
  if (status === 'scheduled') {
    if (!boss) throw badRequest(EMAIL_MESSAGES.updateStatusFailed);
    return retryFailed(em, boss, actor, id);
  }
  return updateEmailStatus(em, actor, id, status);
}
