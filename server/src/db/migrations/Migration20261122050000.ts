import { Migration } from '@mikro-orm/migrations';

// Speed of the companies and contacts tables at a million rows (docs/benchmarks.md):
// - record_count: the total of an unfiltered table without counting every row. Statement-level
//   triggers append one row per organization and statement (no shared counter row for concurrent
//   writers to queue on); table-query.ts `recordTotal` sums and now and then folds them.
// - the name sort indexes also carry the name columns (INCLUDE), so a page walk reads only the
//   index (an index-only scan: PostgreSQL cannot compute lower(name) from the index without them).
// - field_value_org_entity_index: a filter or sort on a custom field looks up one record's value
//   in the index alone (value_num and value_bool ride along) instead of fetching the row.
// Triggers, their functions and the indexes are listed in server/src/db/hand-written.ts.
export class Migration20261122050000 extends Migration {
  override name = 'Migration20261122050000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "record_count" ("id" bigserial primary key, "organization_id" uuid not null, "entity_type" varchar(20) not null, "delta" bigint not null);`,
    );
    this.addSql(`create index "record_count_org_type_index" on "record_count" ("organization_id", "entity_type");`);
    this.addSql(
      `alter table "record_count" add constraint "record_count_organization_id_foreign" foreign key ("organization_id") references
        "organization" ("id") on delete cascade;`,
    );

    for (const table of ['company', 'contact']) {
      // Function names follow MikroORM's trigger convention ({table}_{trigger}_fn); the entity type
      // is the table's name.
      this.addSql(`create or replace function "${table}_${table}_count_insert_fn"() returns trigger language plpgsql as $$
        begin
          insert into record_count (organization_id, entity_type, delta)
            select organization_id, tg_table_name, count(*) from new_rows group by organization_id;
          return null;
        end $$;`);
      this.addSql(`create or replace function "${table}_${table}_count_delete_fn"() returns trigger language plpgsql as $$
        begin
          insert into record_count (organization_id, entity_type, delta)
            select organization_id, tg_table_name, -count(*) from old_rows group by organization_id;
          return null;
        end $$;`);
      this.addSql(`create or replace function "${table}_${table}_count_update_fn"() returns trigger language plpgsql as $$
        begin
          insert into record_count (organization_id, entity_type, delta)
            values (old.organization_id, tg_table_name, -1), (new.organization_id, tg_table_name, 1);
          return null;
        end $$;`);
      this.addSql(`create or replace function "${table}_${table}_count_truncate_fn"() returns trigger language plpgsql as $$
        begin
          delete from record_count where entity_type = tg_table_name;
          return null;
        end $$;`);
      this.addSql(
        `create trigger "${table}_count_insert" after insert on "${table}" referencing new table as new_rows for each statement execute
          function "${table}_${table}_count_insert_fn"();`,
      );
      this.addSql(
        `create trigger "${table}_count_delete" after delete on "${table}" referencing old table as old_rows for each statement execute
          function "${table}_${table}_count_delete_fn"();`,
      );
      // Records never move between organizations; should one, its counts follow (a row trigger that
      // fires only when organization_id is set to another value: ordinary updates pay nothing).
      this.addSql(
        `create trigger "${table}_count_update" after update of "organization_id" on "${table}" for each row when (old."organization_id"
          is distinct from new."organization_id") execute function "${table}_${table}_count_update_fn"();`,
      );
      this.addSql(
        `create trigger "${table}_count_truncate" after truncate on "${table}" for each statement execute function "${table}_${table}_count_truncate_fn"();`,
      );
      // The triggers hold their table's lock until this migration commits: no write slips between them and the backfill.
      this.addSql(
        `insert into record_count (organization_id, entity_type, delta) select organization_id, '${table}', count(*) from "${table}" group by organization_id;`,
      );
    }

    this.addSql(`drop index "company_org_name_index";`);
    this.addSql(`create index "company_org_name_index" on "company" ("organization_id", lower("name"), "id") include ("name");`);
    this.addSql(`drop index "contact_org_name_index";`);
    this.addSql(
      `create index "contact_org_name_index" on "contact" ("organization_id", lower("last_name"), lower("first_name"), "id") include
        ("last_name", "first_name");`,
    );
    this.addSql(
      `create index "field_value_org_entity_index" on "field_value" ("organization_id", "field_id", "entity_id") include ("value_num", "value_bool");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "field_value_org_entity_index";`);
    this.addSql(`drop index "contact_org_name_index";`);
    this.addSql(`create index "contact_org_name_index" on "contact" ("organization_id", lower("last_name"), lower("first_name"), "id");`);
    this.addSql(`drop index "company_org_name_index";`);
    this.addSql(`create index "company_org_name_index" on "company" ("organization_id", lower("name"), "id");`);
    for (const table of ['company', 'contact']) {
      for (const t of ['insert', 'delete', 'update', 'truncate']) {
        this.addSql(`drop trigger if exists "${table}_count_${t}" on "${table}";`);
        this.addSql(`drop function if exists "${table}_${table}_count_${t}_fn"();`);
      }
    }
    this.addSql(`drop table if exists "record_count" cascade;`);
  }
}
