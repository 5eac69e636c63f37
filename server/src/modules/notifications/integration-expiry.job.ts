import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { integrationExpiryNotice } from '@dealscout/shared/domain';
import { defineJob } from '../../jobs/definitions';
import { notifyUser } from './notify';

/** An integration with an expiry date and the users its notices go to. */
export interface ExpiringIntegration {
  organizationId: string;
  integrationId: string;
  /** Display name: 'Office 365', 'Salesforce', 'Affinity'… */
  provider: string;
  expiresAt: Date | null;
  /** An email integration: its owner; an organization's CRM: its admins. */
  userIds: readonly string[];
}

/** Reads integrations that expire within the warning window (or have expired). */
export type IntegrationExpirySource = (em: EntityManager, now: Date) => Promise<ExpiringIntegration[]>;

/**
 * Where the expiry job finds integrations. The integrations module (a later issue) adds its source
 * here; until then the job runs and finds nothing.
 */
export const integrationExpirySources: IntegrationExpirySource[] = [];

/**
 * Raises the expiry notice each integration calls for (shared/domain integrationExpiryNotice), one
 * per integration and user: a notice whose text changes (in 3 days → in 2 days → expired) is
 * updated and shown unread again; an unchanged one is left alone. Answers how many were raised or
 * changed.
 */
export async function applyIntegrationExpiryNotices(
  em: EntityManager,
  integrations: readonly ExpiringIntegration[],
  now: Date = new Date(),
): Promise<number> {
  let changed = 0;
  for (const i of integrations) {
    const notice = integrationExpiryNotice({ integrationId: i.integrationId, provider: i.provider, expiresAt: i.expiresAt }, now);
    if (!notice) continue;
    await em.transactional(async (tem) => {
      for (const userId of i.userIds) {
        if (await notifyUser(tem, { organizationId: i.organizationId, userId, ...notice })) changed += 1;
      }
    });
  }
  return changed;
}

/** Hourly: expiry notices for every integration the sources report. */
export const integrationExpiryJob = defineJob({
  queue: 'notifications.integration-expiry',
  schema: z.object({}).passthrough(),
  schedule: '11 * * * *',
  async handle(_data, { orm, logger }) {
    const now = new Date();
    let changed = 0;
    for (const source of integrationExpirySources) {
      const em = orm.em.fork();
      changed += await applyIntegrationExpiryNotices(em, await source(em, now), now);
    }
    logger.info({ changed, sources: integrationExpirySources.length }, 'integration expiry notices applied');
  },
});
