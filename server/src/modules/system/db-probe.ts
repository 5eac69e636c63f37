import pg from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import { unscopedSql } from '../../db/sql';

/** One `select 1` on the request's own pool (GET /health): throws when the database does not answer. */
export async function pingDatabase(em: EntityManager): Promise<void> {
  await unscopedSql(em, 'connection').all('select 1');
}

/**
 * The database check behind GET /ready: one connection of its own (never one of the request pool,
 * where a probe would queue behind the requests of a busy process and a balancer would take a
 * saturated process for a dead one), and an answer that never waits for the database once it has
 * one: the last check's result is given at once, and a check older than `maxAgeMs` starts a new
 * one in the background (several balancers checking every second cost one `select 1` a second).
 * The database is 'down' when a check fails: no connection, an error, or no answer in `timeoutMs`.
 */
export class DatabaseProbe {
  private client: pg.Client | null = null;
  private last: { ok: boolean; at: number } | null = null;
  private running: Promise<boolean> | null = null;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly opts: { maxAgeMs?: number; timeoutMs?: number } = {},
  ) {}

  /** Whether the database answered the last check (the first call waits for one). */
  async reachable(): Promise<boolean> {
    const maxAge = this.opts.maxAgeMs ?? 1000;
    if (this.last && Date.now() - this.last.at < maxAge) return this.last.ok;
    this.running ??= this.check().finally(() => (this.running = null));
    if (this.last) return this.last.ok;
    return this.running;
  }

  private async check(): Promise<boolean> {
    const timeoutMs = this.opts.timeoutMs ?? 5000;
    let ok = false;
    try {
      if (!this.client) {
        const client = new pg.Client({
          connectionString: this.connectionString,
          connectionTimeoutMillis: timeoutMs,
          query_timeout: timeoutMs,
          application_name: 'dealscout-ready',
        });
        // A connection that breaks is replaced at the next check.
        client.on('error', () => {
          if (this.client === client) this.client = null;
          client.end().catch(() => {});
        });
        await client.connect();
        if (this.closed) {
          await client.end().catch(() => {});
          return false;
        }
        this.client = client;
      }
      await this.client.query('select 1');
      ok = true;
    } catch {
      const broken = this.client;
      this.client = null;
      await broken?.end().catch(() => {});
    }
    this.last = { ok, at: Date.now() };
    return ok;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await this.running?.catch(() => {});
    await client?.end().catch(() => {});
  }
}
