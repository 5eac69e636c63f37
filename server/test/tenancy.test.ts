// Suite-level tenancy check on the migrated database: every organization-owned table has a NOT
// NULL, indexed, foreign-keyed organization_id; only the documented global tables do not.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { createTestApp, createOrg, type TestContext } from './helpers';
import { HAND_WRITTEN_COLUMNS, HAND_WRITTEN_INDEXES, HAND_WRITTEN_TRIGGERS } from '../src/db/hand-written';
import { globalTables, tenantEntities } from '../src/db/entities';
import { BOSS_SCHEMA } from '../src/jobs/boss';
import { User } from '../src/modules/users/user.entity';

describe('tenancy of the schema', () => {
  let ctx: TestContext;
  let db: pg.Client;
  let tables: string[];

  beforeAll(async () => {
    ctx = await createTestApp();
    db = new pg.Client({ connectionString: ctx.dbUrl });
    await db.connect();
    const res = await db.query<{ schema: string; table: string }>(
      `select table_schema as schema, table_name as "table" from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema', $1)`,
      [BOSS_SCHEMA],
    );
    expect(res.rows.every((r) => r.schema === 'public')).toBe(true);
    tables = res.rows.map((r) => r.table).sort();
  });
  afterAll(async () => {
    await db.end();
    await ctx.close();
  });

  const owned = () => tables.filter((t) => !globalTables.includes(t));

  it('finds the tables, and the documented global ones exist', () => {
    expect(tables.length).toBeGreaterThan(globalTables.length);
    for (const t of globalTables) expect(tables).toContain(t);
    // Every tenant-filtered entity is an organization-owned table, and every owned table is tenant-filtered.
    const filtered = tenantEntities.map((e) => e.meta.tableName).sort();
    expect(owned().sort()).toEqual(filtered);
  });

  it('every organization-owned table has a NOT NULL organization_id of the organization id type', async () => {
    const res = await db.query<{ table: string; nullable: string; type: string }>(
      `select table_name as "table", is_nullable as nullable, data_type as type from information_schema.columns
        where table_schema = 'public' and column_name = 'organization_id'`,
    );
    const byTable = new Map(res.rows.map((r) => [r.table, r]));
    const [{ data_type: orgIdType }] = (await db.query(`select data_type from information_schema.columns where table_schema = 'public' and table_name = 'organization' and column_name = 'id'`)).rows;
    for (const t of owned()) {
      const col = byTable.get(t);
      expect(col, `${t}.organization_id`).toBeDefined();
      expect(col!.nullable, `${t}.organization_id is nullable`).toBe('NO');
      expect(col!.type, `${t}.organization_id type`).toBe(orgIdType);
    }
  });

  it('every organization-owned table has an index whose first column is organization_id', async () => {
    const res = await db.query<{ table: string; index: string }>(
      `select t.relname as "table", i.relname as index
         from pg_index x
         join pg_class t on t.oid = x.indrelid
         join pg_class i on i.oid = x.indexrelid
         join pg_namespace n on n.oid = t.relnamespace
         join pg_attribute a on a.attrelid = t.oid and a.attnum = x.indkey[0]
        where n.nspname = 'public' and a.attname = 'organization_id' and x.indpred is null`,
    );
    const indexed = new Set(res.rows.map((r) => r.table));
    for (const t of owned()) expect(indexed.has(t), `${t}: no index leading with organization_id`).toBe(true);
  });

  it('every organization-owned table has a foreign key from organization_id to organization(id)', async () => {
    const res = await db.query<{ table: string }>(
      `select c.conrelid::regclass::text as "table"
         from pg_constraint c
        where c.contype = 'f'
          and c.confrelid = 'public.organization'::regclass
          and array_length(c.conkey, 1) = 1
          and (select attname from pg_attribute where attrelid = c.conrelid and attnum = c.conkey[1]) = 'organization_id'
          and (select attname from pg_attribute where attrelid = c.confrelid and attnum = c.confkey[1]) = 'id'`,
    );
    const keyed = new Set(res.rows.map((r) => r.table.replace(/^public\./, '').replace(/"/g, '')));
    for (const t of owned()) expect(keyed.has(t), `${t}: no foreign key organization_id → organization(id)`).toBe(true);
  });

  it('global tables hold no organization data', async () => {
    const res = await db.query<{ table: string }>(
      `select table_name as "table" from information_schema.columns where table_schema = 'public' and column_name = 'organization_id'`,
    );
    for (const r of res.rows) expect(globalTables).not.toContain(r.table);
  });

  it('the migrations and the entities describe the same schema (except the indexes, triggers and columns written by hand)', async () => {
    const diff = await ctx.orm.schema.getUpdateSchemaSQL({ wrap: false });
    const statements = diff.split(';').map((s) => s.trim()).filter(Boolean);
    expect(statements.sort()).toEqual([
      ...HAND_WRITTEN_INDEXES.map((n) => `drop index "${n}"`),
      ...HAND_WRITTEN_TRIGGERS.flatMap((t) => [`drop trigger if exists "${t.name}" on "${t.table}"`, `drop function if exists "${t.table}_${t.name}_fn"()`]),
      ...[...new Set(HAND_WRITTEN_COLUMNS.map((c) => c.table))].map((table) => `alter table "${table}" ${HAND_WRITTEN_COLUMNS.filter((c) => c.table === table).map((c) => `drop column "${c.column}"`).join(', ')}`),
    ].sort());
  });

  it('a query on a tenant entity without an organization fails loudly instead of reading across tenants', async () => {
    await createOrg(ctx);
    await expect(ctx.em().find(User, {})).rejects.toThrow();
    // With the organization set, it answers only that organization's rows.
    const { organization } = await createOrg(ctx);
    const em = ctx.em();
    em.setFilterParams('tenant', { organizationId: organization.id });
    const users = await em.find(User, {});
    expect(users).toHaveLength(1);
    expect(users[0].organization.id).toBe(organization.id);
  });
});
