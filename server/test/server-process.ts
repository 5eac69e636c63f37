// A real server process (`main.ts --role both|api|worker`) for the tests a crash would hide from
// vitest (an unhandled 'error' event ends a process; in the test runner it would only fail a test):
// spawned with the test's environment and database on a free port, its output kept, killable with
// -9, and a bearer-token HTTP client for its API.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type pg from 'pg';
import { eventually } from './execution-harness';
import { mainArgs } from './main-bundle';
import { TEST_PASSWORD } from './helpers';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** Still running (no exit code, no signal). */
  alive(): boolean;
  /** kill -9, then waits for the exit. */
  kill(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts `main.ts` on `databaseUrl` and waits until it answers /health (api, both) or says 'worker started' (worker). */
export async function startServerProcess(
  databaseUrl: string,
  env: Record<string, string>,
  role: 'both' | 'api' | 'worker' = 'both',
): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...mainArgs(), '--role', role], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      WEB_DIST: '/nonexistent',
      ...env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const p: ServerProcess = {
    url,
    child,
    exited,
    alive,
    output: () => out,
    async kill() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
  };
  try {
    await eventually(
      async () => {
        if (!alive()) throw new Error(`the server process exited (${child.exitCode ?? child.signalCode}):\n${out}`);
        if (role === 'worker') return out.includes('worker started') ? true : undefined;
        try {
          return (await fetch(`${url}/health`)).ok ? true : undefined;
        } catch {
          return undefined;
        }
      },
      `the ${role} process to start`,
      90_000,
    );
  } catch (err) {
    await p.kill();
    throw new Error(`${(err as Error).message}\n${out}`, { cause: err });
  }
  return p;
}

/** An HTTP client of a server process with a bearer token (no cookies, no CSRF header needed). */
export class BearerClient {
  private constructor(
    public readonly url: string,
    public readonly token: string,
  ) {}

  static async signIn(url: string, email: string, password = TEST_PASSWORD): Promise<BearerClient> {
    const res = await fetch(`${url}/api/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, label: 'test' }),
    });
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
    return new BearerClient(url, ((await res.json()) as { token: string }).token);
  }

  /** The same token against another process on the same database. */
  on(url: string): BearerClient {
    return new BearerClient(url, this.token);
  }

  async request(method: string, p: string, body?: unknown): Promise<{ status: number; json: () => Record<string, unknown>; text: string }> {
    const res = await fetch(`${this.url}${p}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
  }

  get = (p: string) => this.request('GET', p);
  post = (p: string, body: unknown = {}) => this.request('POST', p, body);
  put = (p: string, body: unknown = {}) => this.request('PUT', p, body);
  del = (p: string) => this.request('DELETE', p);
}

/** Rows of the uploaded file: name and website, one company each. */
export const csvRows = (from: number, to: number) => {
  let s = '';
  for (let i = from; i < to; i++) s += `Company ${i},https://company-${i}.example.com\n`;
  return s;
};

/**
 * Uploads a CSV to POST /list-company/source as a browser does, the body streamed: `pauseAt` rows,
 * then `whilePaused()` (the server is in the middle of the COPY then), then the rest. Answers the
 * response (a server that answers early stops the upload).
 */
export function streamUpload(
  url: string,
  token: string,
  listId: string,
  rows: number,
  pauseAt: number,
  whilePaused: () => Promise<void>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const boundary = `----ds${randomUUID().replace(/-/g, '')}`;
  const field = (k: string, v: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      `${url}/api/v1/list-company/source`,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'transfer-encoding': 'chunked',
        },
      },
      (res) => {
        answered = true;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => {
          req.destroy();
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> });
          } catch {
            reject(new Error(`not JSON (${res.statusCode}): ${text.slice(0, 300)}`));
          }
        });
      },
    );
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    const write = (s: string) =>
      new Promise<void>((ok) => {
        if (answered || req.destroyed) return ok();
        req.write(s, () => ok());
      });
    void (async () => {
      const mapping = JSON.stringify({ mapping: { name: 'Company', website: 'Website' } });
      await write(field('listCompanyId', listId) + field('intentionSourceId', 'csv') + field('source', mapping));
      await write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="companies.csv"\r\nContent-Type: text/csv\r\n\r\nCompany,Website\n`,
      );
      for (let i = 0; i < pauseAt; i += 5_000) await write(csvRows(i, Math.min(i + 5_000, pauseAt)));
      await whilePaused();
      for (let i = pauseAt; i < rows; i += 5_000) await write(csvRows(i, Math.min(i + 5_000, rows)));
      await write(`\r\n--${boundary}--\r\n`);
      if (!answered && !req.destroyed) req.end();
    })().catch(reject);
  });
}

/** Waits until a CSV import's COPY runs on `admin`'s database (fed by `streamUpload`, it waits for the rest of the file). */
export async function importCopyRunning(admin: pg.Client): Promise<void> {
  await eventually(
    async () =>
      (
        await admin.query(
          `select 1 from pg_stat_activity where datname = current_database() and application_name = 'dealscout-import' and query ilike 'copy%'`,
        )
      ).rowCount
        ? true
        : undefined,
    'the COPY of the import to run',
    30_000,
  );
}
