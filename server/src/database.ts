import { MikroORM, type Options } from '@mikro-orm/postgresql';
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
export function serverOrmConfig(url: string, config: Pick<Config, 'DB_POOL_IDLE_SECONDS'>): Options {
  return ormConfig(url, { pool: { ...POOL, idleTimeoutMillis: config.DB_POOL_IDLE_SECONDS * 1000 } });
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
    if (opts.migrate !== false) {
      const done = await orm.migrator.up();
      if (done.length > 0) logger.info({ migrations: done.map((m) => m.name) }, 'migrations applied');
      await vacuumAfterMigrations(
        orm,
        done.map((m) => m.name),
        logger,
      );
    }
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
