import { MikroORM, type Options } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from './config';
import { ormConfig, POOL } from './orm-config';
import { startEmbeddedPostgres, type EmbeddedDb } from './db/embedded';
import { unscopedSql } from './db/sql';

export interface Database {
  url: string;
  orm: MikroORM;
  embedded: EmbeddedDb | null;
  close(): Promise<void>;
}

/**
 * Tables a migration rewrites (a stored generated column, a type change): a rewritten table has no
 * visibility map, so index-only walks visit the heap for every entry until a VACUUM — random pages by
 * name went from 60 to 600 ms on the million-row bench set — and autovacuum does not react to a
 * rewrite. VACUUM cannot run inside the migration's transaction, so it runs here, after them.
 */
export const VACUUM_AFTER: Readonly<Record<string, readonly string[]>> = {
  Migration20261122210000: ['company', 'contact'],
  // Its backfill updates the rows with a key contact / primary company, clearing visibility bits all over.
  Migration20261122220100: ['company', 'contact'],
};

/** VACUUM (ANALYZE) the tables rewritten by the migrations just applied (each table once). */
export async function vacuumAfterMigrations(orm: MikroORM, applied: readonly string[], logger: Pick<Logger, 'info'>): Promise<string[]> {
  const tables = [...new Set(applied.flatMap((name) => VACUUM_AFTER[name.replace(/\.[jt]s$/, '')] ?? []))];
  for (const table of tables) {
    const started = Date.now();
    await unscopedSql(orm.em.fork(), 'connection').run(`vacuum (analyze) ${table}`);
    logger.info({ table, ms: Date.now() - started }, 'vacuumed after a table rewrite');
  }
  return tables;
}

/**
 * The server's MikroORM options. A connection the pool opens again costs the next request 20–25 ms
 * on the bench data set (the new PostgreSQL process loads its catalog caches and maps the buffer
 * cache page by page), so the server keeps idle connections for DB_POOL_IDLE_SECONDS rather than
 * node-postgres's 10 s: users pause longer than that between clicks.
 */
export function serverOrmConfig(
  url: string,
  config: Pick<Config, 'DB_POOL_IDLE_SECONDS'> & Partial<Pick<Config, 'DB_POOL_SIZE'>>,
): Options {
  return ormConfig(url, {
    pool: { ...POOL, max: config.DB_POOL_SIZE ?? POOL.max, idleTimeoutMillis: config.DB_POOL_IDLE_SECONDS * 1000 },
  });
}

/** The advisory lock key that makes one process at a time run the migrations (any int4). */
export const MIGRATION_LOCK_KEY = 0x44536d67; // 'DSmg'

/**
 * Applies the pending migrations, one process at a time: processes of a fleet that start together
 * (a deploy, a rolling restart) queue on a PostgreSQL advisory lock; the first applies them, the
 * others find nothing pending. The lock is a transaction's (pg_advisory_xact_lock on a connection
 * of its own, held open while the migrator works on the pool), so it is released when that
 * transaction ends or its connection dies, and it holds through PgBouncer in transaction mode too.
 * Answers the migrations this process applied.
 */
export async function migrateUnderLock(orm: MikroORM, url: string, logger: Pick<Logger, 'info'>): Promise<string[]> {
  const lock = new pg.Client({ connectionString: url, application_name: 'dealscout-migrate' });
  await lock.connect();
  try {
    await lock.query('begin');
    const waited = Date.now();
    await lock.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    if (Date.now() - waited > 1000) logger.info({ ms: Date.now() - waited }, 'waited for another process to finish the migrations');
    const done = (await orm.migrator.up()).map((m) => m.name);
    if (done.length > 0) logger.info({ migrations: done }, 'migrations applied');
    await vacuumAfterMigrations(orm, done, logger);
    await lock.query('commit');
    return done;
  } finally {
    await lock.end().catch(() => undefined);
  }
}

/** Connects to DATABASE_URL, or starts the embedded PostgreSQL when none is set; runs migrations. */
export async function openDatabase(config: Config, logger: Logger, opts: { migrate?: boolean } = {}): Promise<Database> {
  const embedded = config.DATABASE_URL
    ? null
    : await startEmbeddedPostgres({
        dataDir: config.DATA_DIR,
        port: config.EMBEDDED_PG_PORT,
        sharedBuffersMb: config.EMBEDDED_PG_SHARED_BUFFERS_MB,
        logger,
      });
  const url = config.DATABASE_URL ?? embedded!.url;
  let orm: MikroORM;
  try {
    orm = await MikroORM.init(serverOrmConfig(url, config));
    if (opts.migrate !== false) await migrateUnderLock(orm, url, logger);
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  return {
    url,
    orm,
    embedded,
    async close() {
      await orm.close();
      await embedded?.stop();
    },
  };
}
