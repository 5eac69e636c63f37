// Ready to distribute by organization (Citus) — checked on the migrated database, since no Citus runs
// here: the keys, unique constraints and foreign keys Citus needs, the place of every table
// (server/src/db/distribution.ts), the joins of the server's SQL, and the calls docs/CITUS.md and docs/DEPLOY.md show.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from './helpers';
import { globalTables } from '../src/entities';
import { DISTRIBUTION_COLUMN, GLOBAL_TABLES, TENANT_REFERENCE_TABLES, distributionSql } from '../src/db/distribution';
import { sqlTexts, tenantUses, type SqlText } from './sql-joins';
import { ideaWhere } from '../src/modules/records/idea-query';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Constraint {
  table: string;
  name: string;
  kind: 'p' | 'u' | 'f' | 'i';
  columns: string[];
  target: string | null;
  targetColumns: string[];
}

describe('ready to distribute by organization (Citus)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: pg.Client;
  let tables: string[];
  let tenant: string[];
  let constraints: Constraint[];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    tables = (
      await db.query<{ t: string }>(
        `select relname as t from pg_class where relkind in ('r', 'p') and relnamespace = 'public'::regnamespace`,
      )
    ).rows
      .map((r) => r.t)
      .sort();
    tenant = (
      await db.query<{ t: string }>(
        `select c.relname as t from pg_attribute a join pg_class c on c.oid = a.attrelid
          where c.relkind in ('r', 'p') and c.relnamespace = 'public'::regnamespace and a.attname = $1 and not a.attisdropped`,
        [DISTRIBUTION_COLUMN],
      )
    ).rows
      .map((r) => r.t)
      .sort();
    const cols = (rel: string, nums: string) =>
      `array(select a.attname::text from unnest(${nums}) with ordinality k(n, o) join pg_attribute a on a.attrelid = ${rel} and a.attnum = k.n order by k.o)`;
    constraints = (
      await db.query<Constraint>(
        `select c.conrelid::regclass::text as "table", c.conname as name, c.contype as kind, ${cols('c.conrelid', 'c.conkey')} as columns,
                nullif(c.confrelid, 0)::regclass::text as target, ${cols('c.confrelid', 'c.confkey')} as "targetColumns"
           from pg_constraint c where c.connamespace = 'public'::regnamespace and c.contype in ('p', 'u', 'f')
         union all
         -- Unique indexes that are no constraint (expression or partial ones): an expression counts as no column.
         select t.relname, i.relname, 'i', ${cols('t.oid', 'x.indkey[0:x.indnkeyatts - 1]')}, null, '{}'
           from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
          where x.indisunique and t.relnamespace = 'public'::regnamespace
            and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)`,
      )
    ).rows.map((c) => ({ ...c, table: c.table.replace(/"/g, ''), target: c.target?.replace(/"/g, '') ?? null }));
  });
  afterAll(async () => {
    await db?.end();
    await database?.drop();
  });

  const distributed = () => tenant.filter((t) => !(t in TENANT_REFERENCE_TABLES));

  it('places every table: a tenant table is distributed unless listed as a reference table, a global table is listed with its reason', () => {
    expect(tenant.length).toBeGreaterThan(30);
    const global = tables.filter((t) => !tenant.includes(t));
    expect(
      global
        .filter((t) => !(t in GLOBAL_TABLES))
        .map(
          (t) =>
            `${t} has no ${DISTRIBUTION_COLUMN}: list it in GLOBAL_TABLES (server/src/db/distribution.ts) with why it can ` +
            `be a reference (or coordinator-local) table, or give it an organization`,
        ),
    ).toEqual([]);
    expect(Object.keys(GLOBAL_TABLES).sort()).toEqual([...globalTables].sort());
    for (const t of Object.keys(GLOBAL_TABLES)) expect(global, `GLOBAL_TABLES lists ${t}, which is no global table`).toContain(t);
    for (const t of Object.keys(TENANT_REFERENCE_TABLES))
      expect(tenant, `TENANT_REFERENCE_TABLES lists ${t}, which is no tenant table`).toContain(t);
    for (const g of Object.values(GLOBAL_TABLES)) expect(g.reason.length).toBeGreaterThan(20);
  });

  it("every tenant table's primary key includes organization_id", () => {
    const keys = new Map(constraints.filter((c) => c.kind === 'p').map((c) => [c.table, c.columns]));
    expect(
      tenant
        .filter((t) => !keys.get(t)?.includes(DISTRIBUTION_COLUMN))
        .map(
          (t) =>
            `${t}: primary key (${keys.get(t)?.join(', ') ?? 'none'}) lacks ${DISTRIBUTION_COLUMN}: make it ("id", ` +
            `"${DISTRIBUTION_COLUMN}") in its migration and list it in HAND_WRITTEN_PRIMARY_KEYS ` +
            `(server/src/hand-written.ts)`,
        ),
    ).toEqual([]);
  });

  it('every unique constraint and unique index of a distributed table includes organization_id', () => {
    const wrong = constraints.filter(
      (c) => (c.kind === 'u' || c.kind === 'i') && distributed().includes(c.table) && !c.columns.includes(DISTRIBUTION_COLUMN),
    );
    expect(
      wrong.map(
        (c) => `${c.table}.${c.name} (${c.columns.join(', ')}): Citus cannot enforce a unique key without ${DISTRIBUTION_COLUMN}; add it`,
      ),
    ).toEqual([]);
  });

  it('the reference tenant tables keep exactly their listed product-wide unique keys', () => {
    for (const [t, { uniques }] of Object.entries(TENANT_REFERENCE_TABLES)) {
      const global = constraints
        .filter((c) => (c.kind === 'u' || c.kind === 'i') && c.table === t && !c.columns.includes(DISTRIBUTION_COLUMN))
        .map((c) => c.name)
        .sort();
      expect(global, `${t}: its unique keys without ${DISTRIBUTION_COLUMN}`).toEqual([...uniques].sort());
    }
  });

  it('every foreign key between distributed tables includes organization_id on both sides, at the same place', () => {
    const between = constraints.filter((c) => c.kind === 'f' && distributed().includes(c.table) && distributed().includes(c.target!));
    expect(between.length).toBeGreaterThan(10);
    const wrong = between.filter((c) => {
      const i = c.columns.indexOf(DISTRIBUTION_COLUMN);
      return i < 0 || c.targetColumns[i] !== DISTRIBUTION_COLUMN;
    });
    expect(wrong.map((c) => `${c.table}.${c.name} (${c.columns.join(', ')}) → ${c.target} (${c.targetColumns.join(', ')})`)).toEqual([]);
  });

  it('no reference or local table has a foreign key to a distributed table (Citus refuses one)', () => {
    const wrong = constraints.filter((c) => c.kind === 'f' && !distributed().includes(c.table) && distributed().includes(c.target!));
    expect(wrong.map((c) => `${c.table}.${c.name} → ${c.target}`)).toEqual([]);
  });

  it('no coordinator-local table is the target of a foreign key', () => {
    const local = Object.entries(GLOBAL_TABLES)
      .filter(([, g]) => g.placement === 'local')
      .map(([t]) => t);
    expect(constraints.filter((c) => c.kind === 'f' && local.includes(c.target!) && c.table !== c.target).map((c) => c.name)).toEqual([]);
  });

  /** Tenant tables of the statements read (every tenant table, reference ones too: a join equates the organizations everywhere). */
  const offenders = (texts: SqlText[], everyUse = false) =>
    texts.flatMap((t) => {
      const uses = tenantUses(t.text, new Set(tenant));
      // A statement of one tenant table is the tenant filter's business (tenantSql checks it binds its organization).
      if (uses.length < 2 && !everyUse) return [];
      return uses
        .filter((u) => !u.scoped)
        .filter((u) => !JOIN_EXCEPTIONS.some((e) => t.file === e.file && e.alias === u.alias && flat(t.text).includes(e.contains)))
        .map(
          (u) =>
            `${t.file}:${t.line} ${u.table} ${u.alias} is joined without equating its ${DISTRIBUTION_COLUMN}: ${t.text.replace(/\s+/g, ' ').slice(0, 140)}`,
        );
    });

  it('no SQL statement of the server joins tenant tables without equating their organization_id', () => {
    const texts = sqlTexts(path.join(root, 'server/src'), root).filter((t) => !t.file.startsWith('server/src/db/migrations/'));
    expect(texts.length).toBeGreaterThan(300);
    // The reader sees the joins of the statements it reads (a check that can fail).
    expect(texts.filter((t) => tenantUses(t.text, new Set(tenant)).length >= 2).length).toBeGreaterThan(40);
    expect(offenders(texts)).toEqual([]);
    for (const e of JOIN_EXCEPTIONS)
      expect(
        texts.some((t) => t.file === e.file && flat(t.text).includes(e.contains)),
        `JOIN_EXCEPTIONS: ${e.file} no longer has ${e.contains}`,
      ).toBe(true);
  });

  it('no function of the database (the triggers) joins tenant tables without equating their organization_id', async () => {
    const fns = (
      await db.query<{ name: string; src: string }>(
        `select p.proname as name, p.prosrc as src from pg_proc p where p.pronamespace = 'public'::regnamespace and p.prolang in (select
          oid from pg_language where lanname in ('sql', 'plpgsql'))`,
      )
    ).rows;
    expect(fns.length).toBeGreaterThan(5);
    // A trigger runs beside its row: every table it touches is matched on the row's organization too.
    // The TRUNCATE triggers clear the counts of every organization: a TRUNCATE empties the table of every organization.
    const truncate = (name: string) => /_count_truncate_fn$/.test(name);
    expect(fns.filter((f) => truncate(f.name)).length).toBe(2);
    expect(
      offenders(
        fns.filter((f) => !truncate(f.name)).map((f) => ({ file: `function ${f.name}`, line: 0, text: f.src })),
        true,
      ),
    ).toEqual([]);
  });

  it("ideaWhere's WHERE starts with the organization (JOIN_EXCEPTIONS)", () => {
    const org = '00000000-0000-4000-8000-000000000001';
    const w = ideaWhere(org, '00000000-0000-4000-8000-000000000002', { text: 'x', inShortlist: true });
    expect(w.text).toMatch(/^\s*where r\.organization_id = \? and /);
    expect(w.params[0]).toBe(org);
  });

  it('reads joins as it should (the reader of the check above)', () => {
    const t = new Set(['company', 'contact', 'company_contact', 'app_user']);
    const unscoped = (sql: string) =>
      tenantUses(sql, t)
        .filter((u) => !u.scoped)
        .map((u) => u.alias);
    expect(unscoped('select * from company_contact m join contact c on c.id = m.contact_id where m.organization_id = ?')).toEqual(['c']);
    expect(
      unscoped(
        'select * from company_contact m join contact c on c.organization_id = m.organization_id and c.id = m.contact_id where m.organization_id = ?',
      ),
    ).toEqual([]);
    expect(
      unscoped('select * from company r left join app_user o on o.id = r.owner_id where r.organization_id = $1 and o.organization_id = $1'),
    ).toEqual([]);
    expect(unscoped("select 1 from company where organization_id = ? and name = 'from contact'")).toEqual([]);
    expect(unscoped('update company r set x = 1 from contact c where c.id = r.key_id and r.organization_id = ?')).toEqual(['c']);
    expect(unscoped('company r left join contact k on k.id = r.key_id')).toEqual(['r', 'k']);
    expect(unscoped('update company s set a = 1 where (s.organization_id, s.id) in (select 1)')).toEqual([]);
  });

  it('docs/CITUS.md and docs/DEPLOY.md show the calls for this schema, in an order Citus accepts', async () => {
    const references = new Map<string, string[]>();
    for (const c of constraints.filter((c) => c.kind === 'f')) references.set(c.table, [...(references.get(c.table) ?? []), c.target!]);
    const calls = distributionSql(tenant, references);
    expect(calls.length).toBe(tenant.length + Object.values(GLOBAL_TABLES).filter((g) => g.placement === 'reference').length);
    // Every table comes after the tables its foreign keys point at.
    const at = new Map(calls.map((c, i) => [/'([a-z_]+)'/.exec(c)![1], i]));
    for (const [t, targets] of references)
      for (const target of targets) if (target !== t) expect(at.get(target)!, `${t} → ${target}`).toBeLessThan(at.get(t)!);
    for (const file of ['docs/CITUS.md', 'docs/DEPLOY.md']) {
      const doc = fs.readFileSync(path.join(root, file), 'utf8');
      const block = /```sql\n(create extension[\s\S]*?)```/.exec(doc)?.[1] ?? '';
      const documented = block.split('\n').filter((l) => /^select create_/.test(l));
      expect(documented, `${file}: paste the calls of distributionSql (server/src/db/distribution.ts) into its sql block`).toEqual(calls);
    }
  });
});

/**
 * Statements that pass the reader only with help, each with why they equate the organizations. Keyed
 * by file and a piece of the statement's text.
 */
const JOIN_EXCEPTIONS: { file: string; alias: string; contains: string; reason: string }[] = [
  {
    file: 'server/src/modules/lists/import-sweep.job.ts',
    alias: 'list_source',
    contains: '(s.organization_id, s.id) in',
    reason: 'the sweep of every organization matches each row on the (organization_id, id) pair its own subquery selects',
  },
  {
    file: 'server/src/modules/lists/lists.service.ts',
    alias: 'r',
    contains: 'idea r __hole__',
    reason: "the WHERE is ideaWhere()'s, whose first condition is r.organization_id = ? (checked below)",
  },
  {
    file: 'server/src/modules/lists/lists.service.ts',
    alias: 'r',
    contains: 'update idea r set short_listed = ?, updated_at = now(), __hole__ __hole__',
    reason: "the WHERE is ideaWhere()'s, whose first condition is r.organization_id = ? (checked below)",
  },
  {
    file: 'server/src/modules/scoring/sql-score.ts',
    alias: 'r',
    contains: 'from idea r __hole__',
    reason:
      "the WHERE is ideaWhere()'s, whose first condition is r.organization_id = ? (checked below); the model's check binds the same organization",
  },
];

const flat = (sql: string) => sql.replace(/\s+/g, ' ');
