import { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { ormConfig } from './orm-config';
import { startEmbeddedPostgres, type EmbeddedDb } from './embedded';

export interface Database {
  url: string;
  orm: MikroORM;
  embedded: EmbeddedDb | null;
  close(): Promise<void>;
}

/** Connects to DATABASE_URL, or starts the embedded PostgreSQL when none is set; runs migrations. */
export async function openDatabase(config: Config, logger: Logger, opts: { migrate?: boolean } = {}): Promise<Database> {
  const embedded = config.DATABASE_URL ? null : await startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT, logger });
  const url = config.DATABASE_URL ?? embedded!.url;
  let orm: MikroORM;
  try {
    orm = await MikroORM.init(ormConfig(url));
    if (opts.migrate !== false) {
      const done = await orm.migrator.up();
      if (done.length > 0) logger.info({ migrations: done.map((m) => m.name) }, 'migrations applied');
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
