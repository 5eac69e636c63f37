// Every job payload carries its organization: a handler forks its EntityManager with the job's
// organization (the tenant filter), so it cannot read another organization's rows. The jobs that
// sweep every organization (maintenance) are listed with their reason.
import { describe, it, expect } from 'vitest';
import { z } from 'zod';
import { jobDefinitions } from '../src/job-registry';

const MAINTENANCE: Record<string, string> = {
  'system.cleanup': 'deletes expired sessions, resets and throttles of every organization (by age, reads no tenant data into any answer)',
  'realtime.prune': 'deletes realtime events of every organization by age',
  'notifications.integration-expiry':
    'finds the integrations of every organization that expire soon and notifies each organization’s own admins',
  'email.replies':
    'lists the connected mailboxes of every organization and enqueues one email.replies.mailbox job each, carrying its organization',
  'lists.import-sweep':
    'fails the CSV imports of every organization left in progress without a live lease; each change is published to its organization',
};

describe('job payloads carry the organization', () => {
  it('every queue either takes an organizationId (uuid) or is listed as maintenance with the reason', () => {
    const problems: string[] = [];
    for (const def of jobDefinitions) {
      if (def.queue in MAINTENANCE) continue;
      const json = z.toJSONSchema(def.schema, { unrepresentable: 'any' }) as {
        properties?: Record<string, { format?: string }>;
        required?: string[];
      };
      if (!json.properties?.organizationId || !json.required?.includes('organizationId')) {
        problems.push(
          `job ${def.queue}: its payload schema has no required organizationId: add organizationId: z.uuid() and fork ` +
            `the handler's EntityManager with it (em.setFilterParams('tenant', { organizationId })), or list it in ` +
            `MAINTENANCE in server/test/tenancy-jobs.test.ts with the reason`,
        );
      }
    }
    expect(problems).toEqual([]);
    for (const q of Object.keys(MAINTENANCE))
      expect(
        jobDefinitions.some((d) => d.queue === q),
        `MAINTENANCE names ${q}, which is no longer a job`,
      ).toBe(true);
  });
});
