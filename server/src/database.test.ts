// The server's database pool keeps an idle connection for DB_POOL_IDLE_SECONDS (openDatabase), not
// for the pool's own 10 s: a request on a connection the pool had to open again pays for the new
// PostgreSQL process (docs/ARCHITECTURE.md 'Database').
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pino from 'pino';
import { loadConfig } from './config';
import pg from 'pg';
import { MIGRATION_LOCK_KEY, openDatabase } from './database';
import { createTestDatabase } from '../test/helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('database pool', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  /** The backend process behind two queries run `pauseMs` apart, one at a time. */
  async function backendsAcrossPause(idleSeconds: string, pauseMs: number): Promise<[number, number]> {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: db.url, DB_POOL_IDLE_SECONDS: idleSeconds });
    const opened = await openDatabase(config, pino({ level: 'silent' }), { migrate: false });
    try {
      const pid = async () => (await opened.orm.em.getConnection().execute<{ pid: number }[]>('select pg_backend_pid() as pid'))[0].pid;
      const first = await pid();
      await sleep(pauseMs);
      return [first, await pid()];
    } finally {
      await opened.close();
    }
  }

  it('defaults to five minutes', () => {
    expect(loadConfig({}).DB_POOL_IDLE_SECONDS).toBe(300);
    expect(() => loadConfig({ DB_POOL_IDLE_SECONDS: '0' })).toThrow(/DB_POOL_IDLE_SECONDS/);
  });

  it('keeps a connection idle for less than DB_POOL_IDLE_SECONDS, and closes one idle for longer', async () => {
    const [kept1, kept2] = await backendsAcrossPause('60', 1_500);
    expect(kept2).toBe(kept1);
    const [closed1, closed2] = await backendsAcrossPause('1', 1_500);
    expect(closed2).not.toBe(closed1);
  }, 30_000);

  it('runs the migrations under an advisory lock: a process starting while another migrates waits for it', async () => {
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: db.url, DB_POOL_SIZE: '3' });
    let opened: Awaited<ReturnType<typeof openDatabase>> | null = null;
    const opening = openDatabase(config, pino({ level: 'silent' })).then((d) => (opened = d));
    try {
      await sleep(1_500);
      expect(opened).toBeNull();
      await holder.query('commit');
      await opening;
      expect(opened).not.toBeNull();
      expect(opened!.orm.config.get('pool')?.max).toBe(3);
      expect(await opened!.orm.migrator.getPending()).toEqual([]);
    } finally {
      await holder.end();
      await opening.then((d) => d.close());
    }
  }, 30_000);
});
