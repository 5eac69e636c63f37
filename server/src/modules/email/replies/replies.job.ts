// The reply follower's jobs: a sweep every minute queues one run per connected Office 365 mailbox,
// and each run follows that mailbox's inbox (replies.ts).
import { z } from 'zod';
import { loadConfig } from '../../../config';
import { defineJob } from '../../../jobs/definitions';
import { unscopedSql } from '../../../db/sql';
import { O365_PROVIDER } from '../connection/o365';
import { REPLY_MAILBOX_QUEUE, REPLY_SWEEP_QUEUE, followInbox } from './replies';

/** Per mailbox: one run of the follower (one job per mailbox at a time: `exclusive`, keyed by the integration). */
export const replyMailboxJob = defineJob({
  queue: REPLY_MAILBOX_QUEUE,
  schema: z.object({ organizationId: z.uuid(), integrationId: z.uuid() }),
  queueOptions: { policy: 'exclusive', retryLimit: 2, retryDelay: 30, expireInSeconds: 600 },
  async handle(data, ctx) {
    const r = await followInbox(
      { em: ctx.orm.em.fork(), config: ctx.config ?? loadConfig(), logger: ctx.logger },
      data.organizationId,
      data.integrationId,
    );
    if (r.replies || r.cancelled) ctx.logger.info({ integrationId: data.integrationId, ...r }, 'replies found');
  },
});

/** Every minute: a follower run for each connected Office 365 mailbox of every organization. */
export const replySweepJob = defineJob({
  queue: REPLY_SWEEP_QUEUE,
  schema: z.object({}).passthrough(),
  schedule: '* * * * *',
  async handle(_data, ctx) {
    const rows = await unscopedSql(ctx.orm.em.fork(), 'reply-sweep').all<{ id: string; organization_id: string }>(
      `select id, organization_id from integration where provider = ? and user_id is not null and active and secret is not null`,
      [O365_PROVIDER],
    );
    let queued = 0;
    for (const r of rows) {
      // A mailbox whose run is still queued or under way gets no second one (null answer).
      if (await ctx.boss.send(REPLY_MAILBOX_QUEUE, { organizationId: r.organization_id, integrationId: r.id }, { singletonKey: r.id }))
        queued += 1;
    }
    ctx.logger.debug({ mailboxes: rows.length, queued }, 'reply sweep');
  },
});
