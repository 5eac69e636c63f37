// Scoping in one place. Every raw SQL statement of the server goes through this file, and
// so does every way around the tenant filter; `npm run lint` refuses `.execute(`, `getConnection()`,
// `getKysely()`, query builders and `filters: false` anywhere else in server/src (eslint.config.js,
// `tenancyRules`). See docs/ARCHITECTURE.md, "Scoping in one place".
//
//   tenantSql(em, organizationId).all(sql, params)   rows of one organization
//   tenantSql(em, organizationId).run(sql, params)   affected row count
//   tenantSql(em, organizationId).bound(sql, params) $1-style bound parameters (bulk JSON statements)
//   unscopedSql(em, reason)                          the same three, for a reason listed in UNSCOPED
//   scopedTo(organizationId)                         find options: the tenant filter with this organization
//   crossTenant(reason)                              find options: the tenant filter off, for a listed reason
//   tenantCopyClient(url, organizationId)            a connection of its own for bulk loads: COPY into
//                                                    temporary tables, tenant statements checked as above,
//                                                    a lease (advisory lock) held while the connection lives
//
// A tenant statement must name `organization_id` and bind the organization it was given among its
// parameters, or it throws before reaching the database: a statement that forgets its
// `where organization_id = ?` cannot run by accident.
import type { Writable } from 'node:stream';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The explicit allowlist: every reason a statement or a find may reach past one organization. A new
 * reason is a design decision: add it here with its justification (and to docs/ARCHITECTURE.md).
 */
export const UNSCOPED = {
  // Sign-in, bearer/cookie token lookup, password reset and invitation links: the organization is
  // what the lookup finds (by a secret token hash or the globally unique live email).
  'sign-in': 'the organization is what a token or a globally unique email lookup finds',
  // `login_throttle` and `organization` belong to no organization (globalTables).
  'global-table': 'a table of no organization (organization, login_throttle)',
  // Scheduled sweeps that delete or expire rows of every organization by age; they return nothing.
  maintenance: 'a sweep of every organization by age that returns no tenant data',
  // First run: does any user exist at all (setup screen, ADMIN_EMAIL bootstrap)?
  'first-run': 'whether the product has any user yet (setup, bootstrap admin)',
  // Invitations check whether an email is live in another organization (sign-in is by email alone,
  // so a live email is unique across the product); the answer never says which organization.
  'email-uniqueness': 'a live email is unique across organizations (answers yes/no only)',
  // Connection-level statements that read no table: health check, advisory locks, planner settings,
  // cursors, VACUUM after migrations.
  connection: 'a statement that reads no tenant row (select 1, locks, set local, cursors, vacuum)',
  // Operator commands run from a shell (seed:demo, outbox), never reachable from a request.
  operator: 'an operator command run from the shell (seed:demo, outbox)',
  // Job claims: one statement claims or completes a batch of jobs of several organizations; each row
  // is matched on the (id, organization) pair its job carries (tenancy-jobs.test.ts enqueues a
  // foreign id). Also pg-boss's own job table (releasing a job), and the cancel poll by claimed ids.
  'worker-claim': "a batch statement over jobs of several organizations, each row matched on its job's (id, organization)",
  // The hourly expiry notices (notifications/integration-expiry.job.ts): mailbox connections of every
  // organization that expire within days. Each row carries its organization_id, and every notice is
  // then written with that organization (notifyUser through the tenant filter).
  'expiry-sweep':
    'the hourly expiry notices list connections of every organization about to expire; each notice is written to its own organization',
  // The reply follower's sweep (email/replies/replies.ts): lists the connected mailboxes of every
  // organization (id and organization only) and enqueues one job per mailbox carrying its organization.
  'reply-sweep': 'the minute sweep lists connected mailboxes of every organization (id, organization_id) to enqueue one tenant job each',
  // The import sweep (lists/import-sweep.job.ts): CSV imports of every organization left 'inProgress'
  // whose lease (the import connection's advisory lock) nobody holds are marked failed; each row
  // carries its organization, and each list's change is published to that organization.
  'import-sweep':
    'CSV imports of every organization left in progress without a live lease are marked failed; each change is published to its own organization',
  // GET /metrics (system/metrics.ts): one grouped count of executions by type and status across
  // organizations, for the operator's Prometheus behind METRICS_TOKEN; no row and no organization.
  metrics: "the operator's metrics count executions by type and status across organizations (counts only, behind METRICS_TOKEN)",
} as const;

export type UnscopedReason = keyof typeof UNSCOPED;

export interface Sql {
  /** Rows of a statement (`?` placeholders, like `em.execute`), on the EntityManager's transaction if it has one. */
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** The number of rows a statement changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /**
   * Rows of a statement with bound parameters ($1, $2 …). `em.execute()` inlines its parameters into
   * the SQL text on the client (quoting character by character, ~100 ms per megabyte): bulk
   * statements that send their rows as one JSON parameter use this. Same driver, same type parsers.
   */
  bound<T = Record<string, unknown>>(sql: string, params: readonly unknown[]): Promise<T[]>;
  /**
   * `bound`, as a named prepared statement when the EntityManager has no transaction: PostgreSQL
   * parses and plans it once per connection and then reuses the plan (plan_cache_mode auto). For the
   * hot single statements whose planning costs more than their execution (the send's claim: ~1.6 ms
   * of planning for ~1 ms of execution, docs/benchmarks.md 'Sending email'). In a transaction it is
   * `bound` on the transaction's connection.
   */
  prepared<T = Record<string, unknown>>(sql: string, params: readonly unknown[]): Promise<T[]>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Thrown when a tenant statement does not use its organization (a programming error, never user input). */
export class UnscopedStatementError extends Error {}

function checkScoped(organizationId: string, sql: string, params: readonly unknown[]): void {
  if (typeof organizationId !== 'string' || !UUID.test(organizationId)) {
    throw new UnscopedStatementError(`tenantSql: an organization id is required (got ${JSON.stringify(organizationId)})`);
  }
  // Scoped: it names organization_id, or it addresses the organization's own row by id.
  if (!/\borganization_id\b/i.test(sql) && !/\borganization\b[^;]*?\bwhere\s+(\w+\.)?id\s*=\s*(\?|\$\d)/i.test(sql)) {
    throw new UnscopedStatementError(
      `tenantSql: the statement never names organization_id; scope it (where organization_id = ?) or use unscopedSql with a reason: ${sql.slice(0, 120)}`,
    );
  }
  if (!params.some((p) => p === organizationId)) {
    throw new UnscopedStatementError(
      `tenantSql: the organization is not among the statement's parameters; bind it (organization_id = ?): ${sql.slice(0, 120)}`,
    );
  }
}

interface RawExecutor {
  executeQuery(q: {
    sql: string;
    parameters: readonly unknown[];
    query: { kind: 'RawNode' };
    queryId: { queryId: string };
  }): Promise<{ rows: unknown[] }>;
}

async function executeBound<T>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<T[]> {
  const trx = em.getTransactionContext<RawExecutor>();
  const executor: RawExecutor = trx ?? (em.getConnection().getClient() as unknown as RawExecutor);
  const res = await executor.executeQuery({ sql, parameters: params, query: { kind: 'RawNode' }, queryId: { queryId: 'dealscout-bound' } });
  return res.rows as T[];
}

// One statement name per SQL text (a connection refuses one name for two texts).
const statementNames = new Map<string, string>();
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) statementNames.set(sql, (name = `ds_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`));
  return name;
}

async function executePrepared<T>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<T[]> {
  if (em.getTransactionContext()) return executeBound<T>(em, sql, params);
  // The pool behind MikroORM's connection (same connections, same type parsers as `bound`).
  const pool = await (em.getConnection() as unknown as { getNativeClient(): Promise<pg.Pool> }).getNativeClient();
  const res = await pool.query({ name: statementName(sql), text: sql, values: [...params] });
  return res.rows as T[];
}

/**
 * A transaction of one organization's prepared statements on one pooled connection: `begin`, the
 * caller's statements (each checked like tenantSql's, `$n` parameters, named so the connection
 * plans each once), `commit` — or `rollback` when the caller throws. For a hot transaction of a few
 * statements whose planning would cost more than their execution (the send's grouped claim under
 * its mailboxes' locks); anything else uses `em.transactional` and tenantSql.
 */
export async function preparedTransaction<T>(
  em: EntityManager,
  organizationId: string,
  fn: (query: <R = Record<string, unknown>>(sql: string, params: readonly unknown[]) => Promise<R[]>) => Promise<T>,
): Promise<T> {
  const pool = await (em.getConnection() as unknown as { getNativeClient(): Promise<pg.Pool> }).getNativeClient();
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    try {
      await client.query('begin');
      const result = await fn(async <R>(sql: string, params: readonly unknown[]) => {
        checkScoped(organizationId, sql, params);
        return (await client.query({ name: statementName(sql), text: sql, values: [...params] })).rows as R[];
      });
      await client.query('commit');
      return result;
    } catch (err) {
      await client.query('rollback').catch((e: Error) => {
        broken = e;
      });
      throw err;
    }
  } finally {
    // A connection whose rollback failed is not handed out again.
    client.release(broken);
  }
}

function sqlOn(em: EntityManager, check: (sql: string, params: readonly unknown[]) => void): Sql {
  return {
    async all<T>(sql: string, params: readonly unknown[] = []) {
      check(sql, params);
      return em.execute<T[] & Record<string, unknown>[]>(sql, [...params], 'all') as Promise<T[]>;
    },
    async run(sql: string, params: readonly unknown[] = []) {
      check(sql, params);
      const res = (await em.execute(sql, [...params], 'run')) as unknown as { affectedRows: number };
      return res.affectedRows;
    },
    async bound<T>(sql: string, params: readonly unknown[]) {
      check(sql, params);
      return executeBound<T>(em, sql, params);
    },
    async prepared<T>(sql: string, params: readonly unknown[]) {
      check(sql, params);
      return executePrepared<T>(em, sql, params);
    },
  };
}

/** Raw SQL of one organization: the statement must name organization_id and bind this organization. */
export function tenantSql(em: EntityManager, organizationId: string): Sql {
  return sqlOn(em, (sql, params) => checkScoped(organizationId, sql, params));
}

/** Raw SQL that is not scoped to one organization, for one of the reasons in UNSCOPED. */
export function unscopedSql(em: EntityManager, reason: UnscopedReason): Sql {
  if (!(reason in UNSCOPED)) throw new UnscopedStatementError(`unscopedSql: unknown reason ${String(reason)}`);
  return sqlOn(em, () => {});
}

/**
 * Find options that scope an ORM call to an organization given explicitly (an EntityManager with no
 * organization yet: jobs, sign-up, an invitation being accepted): `em.find(User, where, { ...scopedTo(orgId) })`.
 */
export function scopedTo(organizationId: string): { filters: { tenant: { organizationId: string } } } {
  if (typeof organizationId !== 'string' || !UUID.test(organizationId))
    throw new UnscopedStatementError(`scopedTo: an organization id is required (got ${JSON.stringify(organizationId)})`);
  return { filters: { tenant: { organizationId } } };
}

/** Find options with the tenant filter off, for one of the reasons in UNSCOPED. */
export function crossTenant(reason: UnscopedReason): { filters: { tenant: false } } {
  if (!(reason in UNSCOPED)) throw new UnscopedStatementError(`crossTenant: unknown reason ${String(reason)}`);
  return { filters: { tenant: false } };
}

/**
 * A connection of its own for a bulk load of one organization (a million-row CSV import).
 * COPY needs the driver's client itself, which EntityManager does not lend out. On this connection:
 * - `query` runs a tenant statement ($1-style parameters), checked like tenantSql's;
 * - `temp` creates a temporary table of the connection and `local` runs a statement that touches
 *   only such tables (and session statements: begin, commit, rollback, set, and the analyze and
 *   vacuum (index_cleanup off, truncate off) of a table it loaded), no tenant table;
 * - `copyInto` is COPY … FROM STDIN into one of those temporary tables, as a writable stream.
 * So rows of an upload reach tenant tables only through checked statements.
 */
export interface TenantCopyClient {
  query<T = Record<string, unknown>>(sql: string, params: readonly unknown[]): Promise<{ rows: T[]; rowCount: number }>;
  temp(name: string, columns: string): Promise<void>;
  local(sql: string, params?: readonly unknown[]): Promise<number>;
  copyInto(table: string, columns: readonly string[], csv?: { delimiter: CopyCsvDelimiter }): Writable;
  /**
   * Takes the session advisory lock of `key` (false when another connection holds it). It is held
   * until this connection ends — also when its process dies or the connection is cut — so another
   * process can tell a running bulk load from one that was stopped (lists/import-sweep.job.ts).
   */
  lease(key: string): Promise<boolean>;
  end(): Promise<void>;
}

/** The advisory lock key of a lease (`tenantCopyClient.lease`), for `pg_try_advisory_xact_lock(leaseKey(?))`-style checks. */
export const LEASE_KEY_SQL = (param: string) => `hashtextextended('dealscout-lease:' || ${param}, 18)`;

/** The separators a CSV COPY may be told (PostgreSQL parses the CSV itself: `format csv`). */
export type CopyCsvDelimiter = ',' | ';' | '\t';
const COPY_CSV_DELIMITER: Record<CopyCsvDelimiter, string> = { ',': `','`, ';': `';'`, '\t': `E'\\t'` };

// Session statements that read no tenant row: transaction control, a few memory settings, ANALYZE.
const SESSION_STATEMENT = new RegExp(
  '^\\s*(begin|commit|rollback|analyze\\s+[a-z_]+|vacuum\\s+\\(index_cleanup off, truncate off\\)\\s+[a-z_]+|' +
    "set(\\s+local)?\\s+(work_mem|temp_buffers|maintenance_work_mem)\\s*=\\s*'[0-9a-z]+')\\s*;?\\s*$",
  'i',
);
const TABLE_REF = /\b(?:from|join|update|into|table|analyze)\s+("?[a-z_][a-z0-9_]*"?)/gi;

export async function tenantCopyClient(
  connectionString: string,
  organizationId: string,
  applicationName: string,
): Promise<TenantCopyClient> {
  if (typeof organizationId !== 'string' || !UUID.test(organizationId))
    throw new UnscopedStatementError(`tenantCopyClient: an organization id is required (got ${JSON.stringify(organizationId)})`);
  const client = new pg.Client({ connectionString, application_name: applicationName });
  // A connection cut under the load (pg_terminate_backend, failover, network) is reported as an
  // 'error' event besides the failed statement: without a listener it would end the process. The
  // statement in flight (or the COPY stream) fails on its own, and so does every later one.
  client.on('error', () => {});
  await client.connect();
  const temps = new Set<string>();
  const onlyTemps = (sql: string) => {
    if (SESSION_STATEMENT.test(sql)) return;
    const refs = [...sql.matchAll(TABLE_REF)].map((m) => m[1].replace(/"/g, '').toLowerCase());
    if (refs.length === 0 || refs.some((t) => !temps.has(t))) {
      throw new UnscopedStatementError(
        `tenantCopyClient.local: only this connection's temporary tables (${[...temps].join(', ') || 'none yet'}) and session statements: ${sql.slice(0, 120)}`,
      );
    }
  };
  return {
    async query<T>(sql: string, params: readonly unknown[]) {
      checkScoped(organizationId, sql, params);
      const res = await client.query(sql, [...params]);
      return { rows: res.rows as T[], rowCount: res.rowCount ?? 0 };
    },
    async temp(name: string, columns: string) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name))
        throw new UnscopedStatementError(`tenantCopyClient.temp: a plain table name is required (got ${name})`);
      await client.query(`create temp table ${name} (${columns}) on commit drop`);
      temps.add(name);
    },
    async local(sql: string, params: readonly unknown[] = []) {
      onlyTemps(sql);
      const res = await client.query(sql, [...params]);
      return res.rowCount ?? 0;
    },
    copyInto(table: string, columns: readonly string[], csv?: { delimiter: CopyCsvDelimiter }) {
      if (!temps.has(table))
        throw new UnscopedStatementError(`tenantCopyClient.copyInto: ${table} is not a temporary table of this connection`);
      if (columns.some((c) => !/^[a-z_][a-z0-9_]*$/.test(c)))
        throw new UnscopedStatementError('tenantCopyClient.copyInto: plain column names only');
      if (csv && !(csv.delimiter in COPY_CSV_DELIMITER))
        throw new UnscopedStatementError('tenantCopyClient.copyInto: a comma, semicolon or tab separator only');
      const opts = csv ? ` with (format csv, delimiter ${COPY_CSV_DELIMITER[csv.delimiter]}, encoding 'UTF8')` : '';
      return client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin${opts}`));
    },
    async lease(key: string) {
      const res = await client.query<{ ok: boolean }>(`select pg_try_advisory_lock(${LEASE_KEY_SQL('$1')}) as ok`, [key]);
      return res.rows[0].ok;
    },
    async end() {
      await client.end();
    },
  };
}

/**
 * The pg pool behind an EntityManager, for its counts only (GET /metrics: connections in use, idle,
 * waiting). Nothing is queried through it.
 */
export async function poolStatsOf(em: EntityManager): Promise<Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>> {
  return (await em.getConnection().getNativeClient()) as pg.Pool;
}
