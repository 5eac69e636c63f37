import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';

/**
 * Failed sign-ins are counted per account and per client address in a fixed window, in the
 * database, so every API process sees the same counts. A success clears the account's count.
 */
export class LoginThrottler {
  constructor(private readonly config: Config) {}

  private keys(email: string, ip: string) {
    return { account: `acct:${email}`, address: `addr:${ip}` };
  }

  /** Seconds until the caller may try again, or 0 when allowed. */
  async retryAfter(em: EntityManager, email: string, ip: string): Promise<number> {
    const { account, address } = this.keys(email, ip);
    const windowSec = this.config.LOGIN_WINDOW_MINUTES * 60;
    const rows = await em.getConnection().execute<{ key: string; failures: number; remaining: number }[]>(
      `select key, failures, extract(epoch from (window_start + make_interval(secs => ?)) - now())::float as remaining
         from login_throttle where key in (?, ?) and window_start > now() - make_interval(secs => ?)`,
      [windowSec, account, address, windowSec],
    );
    let wait = 0;
    for (const r of rows) {
      const limit = r.key === account ? this.config.LOGIN_MAX_FAILURES_PER_ACCOUNT : this.config.LOGIN_MAX_FAILURES_PER_ADDRESS;
      if (r.failures >= limit) wait = Math.max(wait, Math.max(1, Math.ceil(r.remaining)));
    }
    return wait;
  }

  async recordFailure(em: EntityManager, email: string, ip: string): Promise<void> {
    const { account, address } = this.keys(email, ip);
    const windowSec = this.config.LOGIN_WINDOW_MINUTES * 60;
    await em.getConnection().execute(
      `insert into login_throttle (key, failures, window_start) values (?, 1, now()), (?, 1, now())
       on conflict (key) do update set
         failures = case when login_throttle.window_start <= now() - make_interval(secs => ?) then 1 else login_throttle.failures + 1 end,
         window_start = case when login_throttle.window_start <= now() - make_interval(secs => ?) then now() else login_throttle.window_start end`,
      [account, address, windowSec, windowSec],
    );
  }

  async recordSuccess(em: EntityManager, email: string): Promise<void> {
    await em.getConnection().execute('delete from login_throttle where key = ?', [`acct:${email}`]);
  }
}
