import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { unscopedSql } from '../../db/sql';

/**
 * Failed sign-ins are counted per account and per client address in a fixed window, in the
 * database, so every API process sees the same counts. A success clears the account's count.
 *
 * The check and the count are one atomic step: `reserve()` locks both rows (in key order, so two
 * attempts never deadlock), refuses when either is at its limit and otherwise counts the attempt as
 * a failure before the password is verified. Concurrent attempts therefore queue on the row locks
 * and at most the limit of them get through; a success then clears the account's count and gives
 * the address its attempt back (`recordSuccess`).
 */
export class LoginThrottler {
  constructor(private readonly config: Config) {}

  private keys(email: string, ip: string) {
    return { account: `acct:${email}`, address: `addr:${ip}` };
  }

  /** Reserves one attempt; answers 0 when it may go ahead, else the seconds until the caller may try again. */
  async reserve(em: EntityManager, email: string, ip: string): Promise<number> {
    const { account, address } = this.keys(email, ip);
    const windowSec = this.config.LOGIN_WINDOW_MINUTES * 60;
    const limitOf = (key: string) => (key === account ? this.config.LOGIN_MAX_FAILURES_PER_ACCOUNT : this.config.LOGIN_MAX_FAILURES_PER_ADDRESS);
    return em.fork().transactional(async (tem) => {
      await unscopedSql(tem, 'global-table').run(`insert into login_throttle (key, failures, window_start) values (?, 0, now()), (?, 0, now()) on conflict (key) do nothing`, [account, address]);
      const rows = await unscopedSql(tem, 'global-table').all<{ key: string; failures: number; expired: boolean; remaining: number }>(
        `select key, failures, window_start <= now() - make_interval(secs => ?) as expired,
                extract(epoch from (window_start + make_interval(secs => ?)) - now())::float as remaining
           from login_throttle where key in (?, ?) order by key for update`,
        [windowSec, windowSec, account, address],
      );
      let wait = 0;
      for (const r of rows) {
        if (!r.expired && r.failures >= limitOf(r.key)) wait = Math.max(wait, Math.max(1, Math.ceil(r.remaining)));
      }
      if (wait > 0) return wait;
      await unscopedSql(tem, 'global-table').run(
        `update login_throttle set
           failures = case when window_start <= now() - make_interval(secs => ?) then 1 else failures + 1 end,
           window_start = case when window_start <= now() - make_interval(secs => ?) then now() else window_start end
         where key in (?, ?)`,
        [windowSec, windowSec, account, address],
      );
      return 0;
    });
  }

  /** The reserved attempt succeeded: the account's count is cleared and the address gets its attempt back. */
  async recordSuccess(em: EntityManager, email: string, ip: string): Promise<void> {
    const { account, address } = this.keys(email, ip);
    await unscopedSql(em, 'global-table').run(
      `with cleared as (delete from login_throttle where key = ?)
       update login_throttle set failures = greatest(failures - 1, 0) where key = ?`,
      [account, address],
    );
  }
}
