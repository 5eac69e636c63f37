// Starts the real server (server/src/main.ts, API and worker) as a child process on a free port,
// on its own database cloned from the migrated template, serving the built web app.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import pg from 'pg';
import { createTestDatabase } from '../../server/test/helpers';
import { mainArgs } from '../../server/test/main-bundle';

export interface RunningServer {
  url: string;
  dbUrl: string;
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  logs(): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const db = await createTestDatabase();
  const port = await freePort();
  const url = `http://localhost:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [...mainArgs()], {
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      REALTIME_SECRET: 'e2e-realtime-secret-0123456789abcdef',
      SECRETS_KEY: 'e2e-secrets-key-0123456789abcdef0123456789',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  // A busy machine (several test runs at once) may take more than a minute to start the server.
  const deadline = Date.now() + Number(process.env.E2E_SERVER_START_MS ?? 180_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  return {
    url,
    dbUrl: db.url,
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    logs: () => output,
    async stop() {
      await pool.end();
      child.kill('SIGTERM');
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const t = setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, 15_000);
        child.on('exit', () => {
          clearTimeout(t);
          resolve();
        });
      });
      await db.drop();
    },
  };
}
