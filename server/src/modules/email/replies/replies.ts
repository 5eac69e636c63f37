// The reply follower (docs/ARCHITECTURE.md 'Sending email' → Replies): each connected
// mailbox's Inbox is followed with Microsoft Graph's delta query. A message that arrives in the
// conversation of an email we sent (matched by conversationId, received after the send) marks that
// email's activity replied and cancels the contact's still-scheduled emails of the same play — what
// Outreach and Apollo do for sequences.
//
// Crash safety: the delta state (nextLink mid-round, else deltaLink) lives in mailbox_sync and is
// updated in the transaction that applies the page's replies, so a crash repeats at most one page,
// and applying a page twice changes nothing more (replied_at is set once, cancelled is cancelled).
// One job per mailbox at a time (the queue's `exclusive` policy keyed by the integration).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { realtimePaths } from '@dealscout/shared/domain';
import { REALTIME_EVENT_KINDS } from '@dealscout/shared/contracts';
import type { Config } from '../../../config';
import { tenantSql, scopedTo } from '../../../db/sql';
import { GraphError, graphSettingsFrom, type InboxChange, type InboxDeltaPage } from '../providers/graph';
import { publish } from '../../realtime/publish';
import { Activity } from '../../activities/activity.entity';
import { toActivityDto } from '../../activities/activity.presenter';
import { Integration } from '../../integrations/integration.entity';
import { withMailbox, MailboxUnavailable, O365_PROVIDER } from '../connection/o365';

export const REPLY_SWEEP_QUEUE = 'email.replies';
export const REPLY_MAILBOX_QUEUE = 'email.replies.mailbox';
/** A first round reads the Inbox of the last two weeks (older mail cannot answer what the outbox still tracks). */
export const REPLY_LOOKBACK_DAYS = 14;
/** Pages per run (the rest waits for the next run: the nextLink is stored). */
const MAX_PAGES_PER_RUN = 40;
/** The status message of an email the follower cancelled (not shown as a banner: the email is 'cancelled'). */
export const REPLY_CANCELLED_NOTE = 'Not sent: the contact replied.';

export interface FollowResult {
  pages: number;
  replies: number;
  cancelled: number;
  restarted: boolean;
}

interface SyncRow {
  id: string;
  next_link: string | null;
  delta_link: string | null;
}

async function syncRowOf(em: EntityManager, organizationId: string, integrationId: string, ownerId: string): Promise<SyncRow> {
  const sql = tenantSql(em, organizationId);
  await sql.run(
    `insert into mailbox_sync (id, organization_id, integration_id, owner_id, replies, created_at, updated_at)
                 values (gen_random_uuid(), ?, ?, ?, 0, clock_timestamp(), clock_timestamp()) on conflict (organization_id, integration_id) do nothing`,
    [organizationId, integrationId, ownerId],
  );
  const [row] = await sql.all<SyncRow>(
    `select id, next_link, delta_link from mailbox_sync where organization_id = ? and integration_id = ?`,
    [organizationId, integrationId],
  );
  return row;
}

/**
 * Applies one page of Inbox changes and moves the cursor, in one transaction. Answers how many
 * sent emails it found answered and how many scheduled emails it cancelled.
 */
export async function applyInboxPage(
  em: EntityManager,
  organizationId: string,
  ownerId: string,
  ownAddress: string,
  syncId: string,
  page: InboxDeltaPage,
): Promise<{ replies: number; cancelled: number }> {
  return em.fork().transactional(async (tem) => {
    const sql = tenantSql(tem, organizationId);
    let replies = 0;
    let cancelled = 0;
    const today = new Date().toISOString().slice(0, 10);
    const arrivals = page.changes.filter(
      (c): c is InboxChange & { conversationId: string; receivedDateTime: string } =>
        !c.removed && Boolean(c.conversationId) && Boolean(c.receivedDateTime) && (c.from ?? '').toLowerCase() !== ownAddress.toLowerCase(),
    );
    for (const c of arrivals) {
      const answered = await sql.all<{ id: string; channel_email_id: string }>(
        `update email_outbox set replied_at = ?, updated_at = clock_timestamp()
          where organization_id = ? and owner_id = ? and conversation_id = ? and state = 'sent' and replied_at is null and sent_at < ?
          returning id, channel_email_id`,
        [new Date(c.receivedDateTime), organizationId, ownerId, c.conversationId, new Date(c.receivedDateTime)],
      );
      for (const o of answered) {
        replies += 1;
        const activity = await tem.findOne(
          Activity,
          { organization: organizationId, source: 'email', sourceId: o.channel_email_id },
          { ...scopedTo(organizationId), orderBy: { createdAt: 'desc' }, populate: ['company', 'contact'] },
        );
        if (activity && !activity.repliedAt) {
          activity.repliedAt = new Date(c.receivedDateTime);
          await tem.flush();
          await publish(tem, organizationId, {
            path: realtimePaths.activities(organizationId),
            kind: REALTIME_EVENT_KINDS.activityUpdated,
            data: toActivityDto(activity, today),
          });
        }
        cancelled += await cancelPlayFollowUps(tem, organizationId, o.channel_email_id);
      }
    }
    await sql.run(
      `update mailbox_sync set next_link = ?, delta_link = coalesce(?, delta_link), round_started_at = case when ? then null else round_started_at end,
                          synced_at = clock_timestamp(), replies = replies + ?, error = null, updated_at = clock_timestamp()
                    where id = ? and organization_id = ?`,
      [page.nextLink, page.deltaLink, page.deltaLink !== null, replies, syncId, organizationId],
    );
    return { replies, cancelled };
  });
}

/**
 * The contact answered an email of a play: that contact's other emails of the same play still
 * waiting to leave (scheduled, outbox row queued) are cancelled; one leaving this very second
 * (outbox `sending`) is left to go.
 */
async function cancelPlayFollowUps(tem: EntityManager, organizationId: string, answeredEmailId: string): Promise<number> {
  const sql = tenantSql(tem, organizationId);
  const [e] = await sql.all<{ contact_id: string | null; play_id: string | null }>(
    `select contact_id, play_id from channel_email where id = ? and organization_id = ?`,
    [answeredEmailId, organizationId],
  );
  if (!e?.contact_id || !e.play_id) return 0;
  const waiting = await sql.all<{ id: string; outbox_id: string | null; outbox_state: string | null }>(
    `select e.id, o.id as outbox_id, o.state as outbox_state
       from channel_email e
       left join email_outbox o on o.organization_id = e.organization_id and o.channel_email_id = e.id and o.state in ('queued', 'sending')
      where e.organization_id = ? and e.contact_id = ? and e.play_id = ? and e.status = 'scheduled' and e.id <> ?
      for update of e`,
    [organizationId, e.contact_id, e.play_id, answeredEmailId],
  );
  let n = 0;
  for (const w of waiting) {
    if (w.outbox_state === 'sending') continue;
    if (w.outbox_id) {
      const changed = await sql.run(
        `update email_outbox set state = 'cancelled', error = ?, lease_until = null, updated_at = clock_timestamp() where id = ? and
          organization_id = ? and state = 'queued'`,
        [REPLY_CANCELLED_NOTE, w.outbox_id, organizationId],
      );
      if (changed === 0) continue;
    }
    await sql.run(
      `update channel_email set status = 'cancelled', status_message = ?, updated_at = clock_timestamp() where id = ? and organization_id = ?`,
      [REPLY_CANCELLED_NOTE, w.id, organizationId],
    );
    const activities = await tem.find(
      Activity,
      { organization: organizationId, source: 'email', sourceId: w.id, status: 'scheduled' },
      { ...scopedTo(organizationId), populate: ['company', 'contact'] },
    );
    for (const a of activities) {
      const data = { id: a.id, companyId: a.company?.id ?? null, contactId: a.contact?.id ?? null };
      tem.remove(a);
      await tem.flush();
      await publish(tem, organizationId, {
        path: realtimePaths.activities(organizationId),
        kind: REALTIME_EVENT_KINDS.activityDeleted,
        data,
      });
    }
    n += 1;
  }
  return n;
}

/**
 * One run of the follower for one mailbox: pages of the delta query from the stored link (or a new
 * round), each applied with its cursor, until the round's deltaLink (or MAX_PAGES_PER_RUN).
 */
export async function followInbox(
  d: { em: EntityManager; config: Config; logger?: Logger },
  organizationId: string,
  integrationId: string,
  opts: { pageSize?: number; now?: Date } = {},
): Promise<FollowResult> {
  const result: FollowResult = { pages: 0, replies: 0, cancelled: 0, restarted: false };
  // Without Office 365 configured (O365_CLIENT_ID…) no mailbox can be read: nothing to follow.
  if (!graphSettingsFrom(d.config)) return result;
  const integration = await d.em
    .fork()
    .findOne(Integration, { id: integrationId, organization: organizationId, provider: O365_PROVIDER }, scopedTo(organizationId));
  if (!integration?.user || !integration.active || !integration.secret) return result;
  const ownerId = integration.user.id;
  const ownAddress = integration.name ?? '';
  const sync = await syncRowOf(d.em.fork(), organizationId, integrationId, ownerId);
  let link = sync.next_link ?? sync.delta_link;
  const since = new Date((opts.now ?? new Date()).getTime() - REPLY_LOOKBACK_DAYS * 86_400_000);
  while (result.pages < MAX_PAGES_PER_RUN) {
    let page: InboxDeltaPage;
    try {
      page = await withMailbox(d.em, d.config, organizationId, ownerId, (client, token) =>
        client.inboxDelta(token, link, { since, pageSize: opts.pageSize }),
      );
    } catch (err) {
      if (err instanceof GraphError && (err.status === 410 || err.code === 'foreign_link') && !result.restarted) {
        // The sync state expired or belongs to another account, or its link is not the configured
        // Graph's (GRAPH_BASE_URL changed since): a new full round.
        d.logger?.info({ integrationId }, 'inbox delta state gone; starting a new round');
        await tenantSql(d.em.fork(), organizationId).run(
          `update mailbox_sync set next_link = null, delta_link = null, round_started_at = clock_timestamp(), updated_at =
            clock_timestamp() where id = ? and organization_id = ?`,
          [sync.id, organizationId],
        );
        link = null;
        result.restarted = true;
        continue;
      }
      if (err instanceof MailboxUnavailable) return result;
      await tenantSql(d.em.fork(), organizationId).run(
        `update mailbox_sync set error = ?, updated_at = clock_timestamp() where id = ? and organization_id = ?`,
        [(err as Error).message.slice(0, 2000), sync.id, organizationId],
      );
      throw err;
    }
    const applied = await applyInboxPage(d.em, organizationId, ownerId, ownAddress, sync.id, page);
    result.pages += 1;
    result.replies += applied.replies;
    result.cancelled += applied.cancelled;
    if (page.deltaLink || !page.nextLink) break;
    link = page.nextLink;
  }
  return result;
}
