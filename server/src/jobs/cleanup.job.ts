import { z } from 'zod';
import { defineJob } from './definitions';
import { unscopedSql } from '../db/sql';

/** Nightly: forgets expired sessions, used or expired reset tokens, stale throttle counters and expired invitations. */
export const cleanupJob = defineJob({
  queue: 'system.cleanup',
  schema: z.object({}).passthrough(),
  schedule: '17 3 * * *',
  async handle(_data, { orm, logger }) {
    const sql = unscopedSql(orm.em.fork(), 'maintenance');
    const sessions = await sql.run(
      `delete from session where expires_at < now() - interval '7 days' or revoked_at < now() - interval '7 days'`,
    );
    const resets = await sql.run(`delete from password_reset where expires_at < now() - interval '1 day'`);
    const throttles = await sql.run(`delete from login_throttle where window_start < now() - interval '1 day'`);
    const invites = await sql.run(`update invitation set status = 'expired' where status = 'pending' and expires_at < now()`);
    logger.info({ sessions, resets, throttles, invites }, 'cleanup done');
  },
});
