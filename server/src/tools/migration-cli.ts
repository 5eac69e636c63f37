// Migration helper for developers: `npm run migration:create` diffs the entities against the
// database and writes a new migration file into server/src/db/migrations.
import { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from '../config';
import { ormConfig } from '../orm-config';
import { startEmbeddedPostgres } from '../db/embedded';

const cmd = process.argv[2] ?? 'create';
const config = loadConfig();
const embedded = config.DATABASE_URL
  ? null
  : await startEmbeddedPostgres({
      dataDir: config.DATA_DIR,
      port: config.EMBEDDED_PG_PORT,
      sharedBuffersMb: config.EMBEDDED_PG_SHARED_BUFFERS_MB,
    });
const orm = await MikroORM.init(ormConfig(config.DATABASE_URL ?? embedded!.url));
try {
  if (cmd === 'create') {
    await orm.migrator.up();
    const res = await orm.migrator.create(undefined, false, !process.argv.includes('--blank') ? false : true);
    console.log(res.fileName ? `created ${res.fileName}` : 'no changes');
  } else if (cmd === 'up') {
    await orm.migrator.up();
  }
} finally {
  await orm.close();
  await embedded?.stop();
}
