// `--role api` and `--role worker` as separate processes on one database (server/src/main.ts): the
// API serves HTTP and sockets and LISTENs; the worker serves nothing and runs the jobs; an event
// the worker writes reaches a socket of the API process.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { MikroORM } from '@mikro-orm/postgresql';
import pino from 'pino';
import { realtimePaths } from '@dealscout/shared/domain';
import type { NotificationDto } from '@dealscout/shared/contracts';
import { createTestDatabase, testPasswordHashOnce } from './helpers';
import { openSocket } from './ws-client';
import { eventually } from './execution-harness';
import { mainArgs } from './main-bundle';
import { ormConfig } from '../src/orm-config';
import { startBoss } from '../src/jobs/boss';
import { createOrganizationWithAdmin } from '../src/modules/organization/bootstrap';
import { createExecutions } from '../src/modules/executions/commands/create-executions';
import { EXECUTION_DEAD_LETTER_QUEUE } from '../src/modules/executions/queues';

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

interface Proc {
  child: ChildProcess;
  output: () => string;
}

function start(role: 'api' | 'worker', dbUrl: string, port: number): Proc {
  let out = '';
  const child = spawn(process.execPath, [...mainArgs(), '--role', role], {
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      REALTIME_SECRET: 'roles-test-realtime-secret-0123456789abcdef',
      SECRETS_KEY: 'roles-test-secrets-key-0123456789abcdef',
      WEB_DIST: '/nonexistent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  return { child, output: () => out };
}

async function stop(p: Proc | null) {
  if (!p || p.child.exitCode !== null) return;
  p.child.kill('SIGTERM');
  await new Promise<void>((resolve) => {
    const t = setTimeout(() => {
      p.child.kill('SIGKILL');
      resolve();
    }, 15_000);
    p.child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
  });
}

describe('separate API and worker processes', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let api: Proc | null = null;
  let worker: Proc | null = null;
  let apiPort: number;
  let workerPort: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    [apiPort, workerPort] = [await freePort(), await freePort()];
    api = start('api', db.url, apiPort);
    worker = start('worker', db.url, workerPort);
    await eventually(async () => (worker!.output().includes('worker started') ? true : undefined), 'the worker to start', 60_000).catch(
      (e) => {
        throw new Error(`${e.message}\n${worker!.output()}`);
      },
    );
    await eventually(
      async () => {
        try {
          return (await fetch(`http://127.0.0.1:${apiPort}/health`)).ok ? true : undefined;
        } catch {
          return undefined;
        }
      },
      'the API to answer',
      60_000,
    ).catch((e) => {
      throw new Error(`${e.message}\n${api!.output()}`);
    });
  });
  afterAll(async () => {
    await stop(api);
    await stop(worker);
    await db.drop();
  });

  it('the worker serves no HTTP and no sockets', async () => {
    await expect(fetch(`http://127.0.0.1:${workerPort}/health`)).rejects.toThrow();
  });

  it('the worker runs at WORKER_NICE (5 by default) on every thread; the API process as started', () => {
    const nices = (pid: number) =>
      fs.readdirSync(`/proc/${pid}/task`).map((t) => {
        const stat = fs.readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      });
    const own = os.getPriority(0);
    expect(worker!.output()).toContain('worker priority lowered');
    expect(new Set(nices(worker!.child.pid!))).toEqual(new Set([Math.max(5, own)]));
    expect(new Set(nices(api!.child.pid!))).toEqual(new Set([own]));
  });

  it("an execution failing for good in the worker process notifies its creator on the API process's socket", async () => {
    const orm = await MikroORM.init(ormConfig(db.url, { logger: () => {} }));
    const boss = await startBoss(db.url, pino({ level: 'silent' }), { supervise: false });
    try {
      const { organization, user } = await createOrganizationWithAdmin(orm.em.fork(), {
        organizationName: 'Roles Co',
        email: 'roles-admin@example.com',
        firstName: 'Rae',
        lastName: 'Roles',
        maxUser: 5,
        passwordHash: await testPasswordHashOnce(),
      });
      // A real HTTP client against the API process (bearer token, as the add-in and extension do).
      const login = await fetch(`http://127.0.0.1:${apiPort}/api/v1/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'roles-admin@example.com', password: 'Secret123', label: 'roles test' }),
      });
      expect(login.status, await login.clone().text()).toBe(200);
      const bearer = (await login.json()).token as string;
      const token = (
        await (
          await fetch(`http://127.0.0.1:${apiPort}/api/v1/notifications/token`, { headers: { authorization: `Bearer ${bearer}` } })
        ).json()
      ).token as string;
      const s = await openSocket(`ws://127.0.0.1:${apiPort}/api/v1/realtime`);
      s.send({ type: 'auth', token });
      await s.next('ready');
      s.send({ type: 'subscribe', paths: [realtimePaths.notifications(user.id), realtimePaths.executions(organization.id)] });
      await s.next('subscribed');

      // The execution waits in its queue (it may start only in an hour, so no handler takes it). Its
      // dead letter, handled by the worker process, turns it into an error and a notice.
      const [started] = await createExecutions(orm.em.fork(), boss, {
        organizationId: organization.id,
        createdById: user.id,
        type: 'score',
        entityType: 'company',
        targets: [{ entityId: null }],
        startAfter: new Date(Date.now() + 3_600_000),
      });
      await boss.send(EXECUTION_DEAD_LETTER_QUEUE, { executionId: started.executionId, organizationId: organization.id, type: 'score' });
      const events = await s.waitForEvents((e) => e.some((x) => x.kind === 'notification.created'), 30_000);
      expect(events.find((e) => e.kind === 'notification.created')!.data as NotificationDto).toMatchObject({
        level: 'error',
        message: 'Score execution failed: The execution failed unexpectedly.',
      });
      expect(events.some((e) => e.kind === 'execution.updated' && (e.data as { status: string }).status === 'error')).toBe(true);
      await s.close();
    } finally {
      await boss.stop({ graceful: false });
      await orm.close();
    }
  });

  it('an API process in production refuses to start without REALTIME_SECRET', async () => {
    const port = await freePort();
    let out = '';
    const child = spawn(process.execPath, [...mainArgs(), '--role', 'api'], {
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        REALTIME_SECRET: '',
        WEB_DIST: '/nonexistent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => {
      out += d;
    });
    child.stderr!.on('data', (d) => {
      out += d;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(out).toContain('REALTIME_SECRET is required in production');
  });
});
