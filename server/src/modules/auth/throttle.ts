import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { unscopedSql } from '../../db/sql';

/** What `reserve()` decided for one sign-in attempt. */
export type Reservation =
  /** The account is at its limit: refused before the password is looked at. */
  | { kind: 'refused'; wait: number }
  /** Counted against the account and the address; verify the password. */
  | { kind: 'counted' }
  /**
   * The address is at its limit but the account is not: counted against the account only. A
   * correct password still signs in; a wrong one is answered like the throttled address (429).
   */
  | { kind: 'addressThrottled'; wait: number };

/**
 * Failed sign-ins are counted per account and per client address in a fixed window, in the
 * database, so every API process sees the same counts. A success clears the account's count.
 *
 * The check and the count are one atomic step: `reserve()` locks both rows (in key order, so two
 * attempts never deadlock), refuses when the account is at its limit and otherwise counts the
 * attempt as a failure before the password is verified. Concurrent attempts therefore queue on the
 * row locks and at most the limit of them get through; a success then clears the account's count
 * and gives the address its attempt back (`recordSuccess`).
 *
 * The account's limit is the lock (OWASP: the counter belongs to the account, not the source
 * address). The address's limit only stops wrong passwords: once an address is at its limit, its
 * attempts are still checked and counted against their accounts, so a correct password signs in
 * while the account's own limit is not reached — users sharing an address (an office, a proxy
 * without TRUST_PROXY) are not locked out by someone else's guesses.
 */
export class LoginThrottler {
  constructor(private readonly config: Config) {}

  private keys(email: string, ip: string) {
    return { account: `acct:${email}`, address: `addr:${ip}` };
  }

  /** Reserves one attempt (see `Reservation`). */
  async reserve(em: EntityManager, email: string, ip: string): Promise<Reservation> {
    const { account, address } = this.keys(email, ip);
    const windowSec = this.config.LOGIN_WINDOW_MINUTES * 60;
    const limitOf = (key: string) =>
      key === account ? this.config.LOGIN_MAX_FAILURES_PER_ACCOUNT : this.config.LOGIN_MAX_FAILURES_PER_ADDRESS;
    return em.fork().transactional(async (tem): Promise<Reservation> => {
      await unscopedSql(tem, 'global-table').run(
        `insert into login_throttle (key, failures, window_start) values (?, 0, now()), (?, 0, now()) on conflict (key) do nothing`,
        [account, address],
      );
      const rows = await unscopedSql(tem, 'global-table').all<{ key: string; failures: number; expired: boolean; remaining: number }>(
        `select key, failures, window_start <= now() - make_interval(secs => ?) as expired,
                extract(epoch from (window_start + make_interval(secs => ?)) - now())::float as remaining
           from login_throttle where key in (?, ?) order by key for update`,
        [windowSec, windowSec, account, address],
      );
      const waitOf = (key: string) => {
        const r = rows.find((x) => x.key === key);
        return r && !r.expired && r.failures >= limitOf(r.key) ? Math.max(1, Math.ceil(r.remaining)) : 0;
      };
      const accountWait = waitOf(account);
      if (accountWait > 0) return { kind: 'refused', wait: accountWait };
      const addressWait = waitOf(address);
      await unscopedSql(tem, 'global-table').run(
        `update login_throttle set
           failures = case when window_start <= now() - make_interval(secs => ?) then 1 else failures + 1 end,
           window_start = case when window_start <= now() - make_interval(secs => ?) then now() else window_start end
         where key in (?, ?)`,
        // At its limit the address is not counted further (its count stays the limit).
        [windowSec, windowSec, account, addressWait > 0 ? account : address],
      );
      return addressWait > 0 ? { kind: 'addressThrottled', wait: addressWait } : { kind: 'counted' };
    });
  }

  /** The reserved attempt succeeded: the account's count is cleared and the address gets its attempt back. */
  async recordSuccess(em: EntityManager, email: string, ip: string, reservation: Reservation): Promise<void> {
    const { account, address } = this.keys(email, ip);
    if (reservation.kind !== 'counted') {
      await unscopedSql(em, 'global-table').run(`delete from login_throttle where key = ?`, [account]);
      return;
    }
    await unscopedSql(em, 'global-table').run(
      `with cleared as (delete from login_throttle where key = ?)
       update login_throttle set failures = greatest(failures - 1, 0) where key = ?`,
      [account, address],
    );
  }
}
