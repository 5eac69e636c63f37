import { z } from 'zod';
import { defineJob } from '../../jobs/definitions';
import { unscopedSql } from '../../db/sql';

/**
 * Hourly: forgets realtime events older than REALTIME_RETENTION_HOURS. A client resuming from
 * before that gets 'reset' (reload the data) instead of a replay. The sequence counters stay.
 */
export const realtimePruneJob = defineJob({
  queue: 'realtime.prune',
  schema: z.object({}).passthrough(),
  schedule: '23 * * * *',
  async handle(_data, { orm, logger, config }) {
    const hours = config?.REALTIME_RETENTION_HOURS ?? 72;
    const deleted = await unscopedSql(orm.em.fork(), 'maintenance').run(
      `delete from realtime_event where created_at < now() - (? * interval '1 hour')`,
      [hours],
    );
    logger.info({ deleted }, 'realtime events pruned');
  },
});
