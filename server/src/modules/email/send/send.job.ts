// The send job: one pg-boss job per outbox attempt, started after the send time. The
// work is deliverOutbox (send.ts), which is idempotent; a crashed worker's job is retried by
// pg-boss (heartbeats) and the retry asks the mailbox before acting.
import { z } from 'zod';
import { MAILBOX_LIMITS } from '@dealscout/shared/domain';
import type { EntityManager } from '@mikro-orm/postgresql';
import { defineJob } from '../../../jobs/definitions';
import { loadConfig } from '../../../config';
import { unscopedSql } from '../../../db/sql';
import { integrationExpirySources, type ExpiringIntegration } from '../../notifications/integration-expiry.job';
import { deliverOutbox, EMAIL_SEND_QUEUE } from './send';
import { O365_PROVIDER } from '../connection/o365';

export const emailSendJob = defineJob({
  queue: EMAIL_SEND_QUEUE,
  schema: z.object({ organizationId: z.uuid(), outboxId: z.uuid() }),
  queueOptions: { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 300 },
  // Up to 128 sends in flight per worker process (32 workers × 4), at most 4 per mailbox across every worker (pg-boss
  // group concurrency: jobs carry their mailbox as group, send.ts sendJobOptions); the outbox's
  // claim still counts the mailbox's rate itself. Batches of 4 (a fetch takes at most 4 of one
  // mailbox, so a batch is mostly full) and fetching again at once while they come back full: a
  // worker that waited its polling interval after every batch drained ~35 emails a second in all
  // (docs/benchmarks.md, 'Sending email').
  workOptions: { batchSize: 4, localConcurrency: 32, groupConcurrency: MAILBOX_LIMITS.concurrentRequests, burstWhenBatchFull: true },
  async handle(data, ctx) {
    const config = ctx.config ?? loadConfig();
    const outcome = await deliverOutbox(
      { em: ctx.orm.em.fork(), boss: ctx.boss, config, logger: ctx.logger },
      data.organizationId,
      data.outboxId,
    );
    ctx.logger.debug({ outboxId: data.outboxId, outcome }, 'email send job');
  },
});

/** Office 365 connections for the hourly expiry notices (notifications/integration-expiry.job.ts). */
export async function office365ExpirySource(em: EntityManager, now: Date): Promise<ExpiringIntegration[]> {
  const rows = await unscopedSql(em, 'expiry-sweep').all<{ id: string; organization_id: string; user_id: string; expires_at: Date }>(
    `select id, organization_id, user_id, expires_at from integration
      where provider = ? and user_id is not null and expires_at is not null and expires_at < ?`,
    [O365_PROVIDER, new Date(now.getTime() + 6 * 86_400_000)],
  );
  return rows.map((r) => ({
    organizationId: r.organization_id,
    integrationId: r.id,
    provider: 'Office 365',
    expiresAt: new Date(r.expires_at),
    userIds: [r.user_id],
  }));
}
integrationExpirySources.push(office365ExpirySource);
