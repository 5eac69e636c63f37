// The server's database pool keeps an idle connection for DB_POOL_IDLE_SECONDS (openDatabase), not
// for the pool's own 10 s: a request on a connection the pool had to open again pays for the new
// PostgreSQL process (docs/ARCHITECTURE.md 'Database').
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pino from 'pino';
import { loadConfig } from './config';
import { openDatabase } from './database';
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
});
