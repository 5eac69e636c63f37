// Suite-level tenancy check on the migrated database: every organization-owned table has a NOT
// NULL, indexed, foreign-keyed organization_id; only the documented global tables do not.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { createTestApp, createOrg, type TestContext } from './helpers';
import {
  HAND_WRITTEN_COLUMNS,
  HAND_WRITTEN_DROPPED_ORGANIZATION_KEYS,
  HAND_WRITTEN_FOREIGN_KEYS,
  HAND_WRITTEN_INDEXES,
  HAND_WRITTEN_PRIMARY_KEYS,
  HAND_WRITTEN_TRIGGER_REFERENCES,
  HAND_WRITTEN_TRIGGERS,
} from '../src/hand-written';
import { globalTables, tenantEntities } from '../src/entities';
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

  /** Every index of the public schema with its columns in order (expressions as null). */
  const indexes = async () =>
    (
      await db.query<{ table: string; index: string; columns: (string | null)[]; primary: boolean; partial: boolean }>(
        `select t.relname as "table", i.relname as index, x.indisprimary as primary, x.indpred is not null as partial,
            array(select a.attname::text from unnest(x.indkey[0:x.indnkeyatts - 1]) with ordinality k(n, o) left join pg_attribute a on
              a.attrelid = t.oid and a.attnum = k.n order by k.o) as columns
       from pg_index x
       join pg_class t on t.oid = x.indrelid
       join pg_class i on i.oid = x.indexrelid
       join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = 'public'`,
      )
    ).rows;

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
    const [{ data_type: orgIdType }] = (
      await db.query(
        `select data_type from information_schema.columns where table_schema = 'public' and table_name = 'organization' and column_name = 'id'`,
      )
    ).rows;
    for (const t of owned()) {
      const col = byTable.get(t);
      expect(
        col,
        `${t} has no organization_id: give its entity \`organization: () => p.manyToOne(Organization)\` (NOT NULL, in ` +
          `its migration too), or, if it really belongs to no organization, list it in globalTables ` +
          `(server/src/db/entities.ts) with the reason`,
      ).toBeDefined();
      expect(col!.nullable, `${t}.organization_id is nullable`).toBe('NO');
      expect(col!.type, `${t}.organization_id type`).toBe(orgIdType);
    }
  });

  it('every organization-owned table has an index whose first column is organization_id', async () => {
    const indexed = new Set((await indexes()).filter((i) => i.columns[0] === 'organization_id' && !i.partial).map((i) => i.table));
    for (const t of owned())
      expect(
        indexed.has(t),
        `${t}: no index leading with organization_id: add indexes: [{ properties: ['organization', …] }] to its entity and the index to a migration`,
      ).toBe(true);
  });

  // GitLab's sharding-key check, for distributing by organization_id (Citus): every index and
  // unique constraint of a tenant table leads with organization_id, so each tenant query is served
  // within one organization's part. The exceptions, each with its reason:
  const INDEX_EXCEPTIONS: Record<string, string> = {
    app_user_email_index: 'sign-in finds the account by email before the organization is known',
    app_user_email_live_unique: 'a live email is unique across the product (sign-in is by email alone)',
    session_token_hash_unique: 'a session token is looked up before the organization is known',
    password_reset_token_hash_unique: 'a reset link is looked up before the organization is known',
    invitation_token_hash_unique: 'an invitation link is looked up before the organization is known',
    company_search_trgm: 'a trigram GIN index cannot lead with a uuid (no btree_gin); the search ANDs it with organization_id',
    contact_search_trgm: 'a trigram GIN index cannot lead with a uuid (no btree_gin); the search ANDs it with organization_id',
    field_value_text_trgm: 'a trigram GIN index cannot lead with a uuid (no btree_gin); the search ANDs it with organization_id',
    realtime_event_created_at_index: 'the prune job deletes old events of every organization by age (maintenance, not a tenant query)',
    execution_active_type_status_index:
      "GET /metrics counts the unfinished executions of every organization by type and state (the operator's counts, not a tenant query)",
  };

  it('every index and unique constraint of a tenant table leads with organization_id (sharding key)', async () => {
    const wrong = (await indexes())
      .filter((i) => owned().includes(i.table) && i.columns[0] !== 'organization_id')
      // The primary key (id, organization_id): the random uuid first serves the lookups by id alone (MikroORM's
      // updates and deletes), and it includes the distribution column (citus.test.ts); the (organization_id, id)
      // unique beside it is what foreign keys point at.
      .filter((i) => !(i.primary && i.columns.join(', ') === 'id, organization_id'))
      .filter((i) => !(i.index in INDEX_EXCEPTIONS));
    expect(
      wrong.map(
        (i) =>
          `${i.table}.${i.index} (${i.columns.join(', ')}): put organization_id first (indexes/uniques: [{ properties: ` +
          `['organization', …] }] in the entity, or the migration that writes it), or list it in INDEX_EXCEPTIONS in ` +
          `server/test/tenancy.test.ts with the reason`,
      ),
    ).toEqual([]);
    // An exception that no longer exists is dropped from the list.
    const names = new Set((await indexes()).map((i) => i.index));
    for (const name of Object.keys(INDEX_EXCEPTIONS))
      expect(names.has(name), `INDEX_EXCEPTIONS names ${name}, which no longer exists`).toBe(true);
  });

  it('every foreign key between tenant tables includes organization_id on both sides', async () => {
    const res = await db.query<{ table: string; name: string; target: string; cols: string[]; refcols: string[] }>(
      `select c.conrelid::regclass::text as "table", c.conname as name, c.confrelid::regclass::text as target,
              array(select attname::text from unnest(c.conkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = c.conrelid
                and a.attnum = k.n order by k.o) as cols,
              array(select attname::text from unnest(c.confkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = c.confrelid
                and a.attnum = k.n order by k.o) as refcols
         from pg_constraint c join pg_namespace n on n.oid = c.connamespace
        where c.contype = 'f' and n.nspname = 'public'`,
    );
    const bare = (t: string) => t.replace(/^public\./, '').replace(/"/g, '');
    const between = res.rows.filter((r) => owned().includes(bare(r.table)) && owned().includes(bare(r.target)));
    expect(between.length).toBeGreaterThan(0);
    const wrong = between.filter((r) => {
      const i = r.cols.indexOf('organization_id');
      return i < 0 || r.refcols[i] !== 'organization_id';
    });
    expect(
      wrong.map(
        (r) =>
          `${bare(r.table)}.${r.name} (${r.cols.join(', ')}) → ${bare(r.target)} (${r.refcols.join(', ')}): make it ` +
          `(organization_id, ${r.cols.filter((c) => c !== 'organization_id').join(', ')}) ` +
          `→ ${bare(r.target)} (organization_id, id) in a migration (with ON DELETE SET NULL (column) for a nullable ` +
          `reference) and list it in HAND_WRITTEN_FOREIGN_KEYS (server/src/db/hand-written.ts)`,
      ),
    ).toEqual([]);
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
    const chained: readonly string[] = HAND_WRITTEN_DROPPED_ORGANIZATION_KEYS;
    for (const t of owned().filter((x) => !chained.includes(x)))
      expect(keyed.has(t), `${t}: no foreign key organization_id → organization(id)`).toBe(true);
    // The bulk tables prove their organization through a required key to a parent that has its own.
    const parents = await db.query<{ table: string; target: string }>(
      `select c.conrelid::regclass::text as "table", c.confrelid::regclass::text as target
         from pg_constraint c
        where c.contype = 'f' and c.confrelid <> 'public.organization'::regclass
          and exists (select 1 from unnest(c.conkey) k join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k where a.attname = 'organization_id')
          and not exists (select 1 from unnest(c.conkey) k join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k where not a.attnotnull)`,
    );
    // Or through references kept by a statement trigger on each parent (HAND_WRITTEN_TRIGGER_REFERENCES, with their reason):
    // each parent keyed to organization (itself or through its parent), the reference a required part of the table's primary key with organization_id,
    // and the parent's trigger an AFTER DELETE statement trigger. scoring.test.ts checks what the writers and triggers do.
    const triggered = await db.query<{ table: string; name: string }>(
      `select c.relname as "table", t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where not t.tgisinternal and (t.tgtype & 1) = 0 and (t.tgtype & 8) <> 0 and (t.tgtype & 66) = 0`,
    );
    const pk = new Map((await indexes()).filter((i) => i.primary).map((i) => [i.table, i.columns]));
    for (const t of chained) {
      expect(keyed.has(t), `${t}: listed in HAND_WRITTEN_DROPPED_ORGANIZATION_KEYS but still has its key to organization`).toBe(false);
      const via = parents.rows.filter((r) => r.table === t && keyed.has(r.target));
      const refs = HAND_WRITTEN_TRIGGER_REFERENCES.filter((r) => r.table === t);
      for (const r of refs) {
        const proven = keyed.has(r.target) || parents.rows.some((x) => x.table === r.target && keyed.has(x.target));
        expect(proven, `${t}.${r.column}: ${r.target} has no key to organization, nor to a parent that has one`).toBe(true);
        expect(pk.get(t), `${t}.${r.column}: not in its primary key with organization_id`).toEqual(
          expect.arrayContaining(['organization_id', r.column]),
        );
        expect(triggered.rows, `${t}.${r.column}: no AFTER DELETE statement trigger ${r.trigger} on ${r.target}`).toContainEqual({
          table: r.target,
          name: r.trigger,
        });
      }
      expect(via.length + refs.length, `${t}: no required (organization_id, …) key to a parent keyed to organization`).toBeGreaterThan(0);
    }
  });

  it('the database refuses a row of one organization pointing at a row of another', async () => {
    const a = await createOrg(ctx, { name: 'Org A' });
    const b = await createOrg(ctx, { name: 'Org B' });
    const insert = (org: string, user: string) =>
      db.query(
        `insert into table_layout (id, organization_id, user_id, entity_type, name, columns, created_at, updated_at) values
          (gen_random_uuid(), $1, $2, 'company', 'x', '[]', now(), now())`,
        [org, user],
      );
    await expect(insert(b.organization.id, a.admin.id)).rejects.toThrow(/table_layout_user_id_foreign/);
    await insert(a.organization.id, a.admin.id);
  });

  it('global tables hold no organization data', async () => {
    const res = await db.query<{ table: string }>(
      `select table_name as "table" from information_schema.columns where table_schema = 'public' and column_name = 'organization_id'`,
    );
    for (const r of res.rows) expect(globalTables).not.toContain(r.table);
  });

  it('the migrations and the entities describe the same schema (except the indexes, triggers, columns and foreign keys written by hand)', async () => {
    const diff = await ctx.orm.schema.getUpdateSchemaSQL({ wrap: false });
    const statements = diff
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean);
    expect(statements.sort()).toEqual(
      [
        ...HAND_WRITTEN_INDEXES.map((n) => `drop index "${n}"`),
        ...HAND_WRITTEN_TRIGGERS.flatMap((t) => [
          `drop trigger if exists "${t.name}" on "${t.table}"`,
          `drop function if exists "${t.table}_${t.name}_fn"()`,
        ]),
        ...[...new Set(HAND_WRITTEN_COLUMNS.map((c) => c.table))].map(
          (table) =>
            `alter table "${table}" ${HAND_WRITTEN_COLUMNS.filter((c) => c.table === table)
              .map((c) => `drop column "${c.column}"`)
              .join(', ')}`,
        ),
        ...HAND_WRITTEN_PRIMARY_KEYS.flatMap((t) => [
          `alter table "${t}" drop constraint "${t}_pkey"`,
          `alter table "${t}" add primary key ("id")`,
        ]),
        ...HAND_WRITTEN_DROPPED_ORGANIZATION_KEYS.map(
          (t) =>
            `alter table "${t}" add constraint "${t}_organization_id_foreign" foreign key ("organization_id") references "organization" ("id")`,
        ),
        ...HAND_WRITTEN_FOREIGN_KEYS.flatMap((f) => [
          `alter table "${f.table}" drop constraint "${f.table}_${f.column}_foreign"`,
          `alter table "${f.table}" add constraint "${f.table}_${f.column}_foreign" foreign key ("${f.column}") ` +
            `references "${f.target}" ("id")${f.onDelete === 'no action' ? '' : ` on delete ${f.onDelete}`}`,
        ]),
      ].sort(),
    );
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
