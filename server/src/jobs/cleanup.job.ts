import { z } from 'zod';
import { defineJob } from './definitions';

/** Nightly: forgets expired sessions, used or expired reset tokens, stale throttle counters and expired invitations. */
export const cleanupJob = defineJob({
  queue: 'system.cleanup',
  schema: z.object({}).passthrough(),
  schedule: '17 3 * * *',
  async handle(_data, { orm, logger }) {
    const conn = orm.em.fork().getConnection();
    const sessions = await conn.execute(`delete from session where expires_at < now() - interval '7 days' or revoked_at < now() - interval '7 days'`, [], 'run') as unknown as { affectedRows: number };
    const resets = await conn.execute(`delete from password_reset where expires_at < now() - interval '1 day'`, [], 'run') as unknown as { affectedRows: number };
    const throttles = await conn.execute(`delete from login_throttle where window_start < now() - interval '1 day'`, [], 'run') as unknown as { affectedRows: number };
    const invites = await conn.execute(`update invitation set status = 'expired' where status = 'pending' and expires_at < now()`, [], 'run') as unknown as { affectedRows: number };
    logger.info({ sessions: sessions.affectedRows, resets: resets.affectedRows, throttles: throttles.affectedRows, invites: invites.affectedRows }, 'cleanup done');
  },
});
