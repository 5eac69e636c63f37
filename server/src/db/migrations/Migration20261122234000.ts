import { Migration } from '@mikro-orm/migrations';

// Sorting the companies and contacts tables by their owner (records/table-query.ts ownerSortedPage).
// The order is the owner's name, then the owner (two users may share a name), then the table's
// default order, the records without an owner last. An organization has few owners, so a page is
// read owner by owner: the owners in the order of their names (a few rows of app_user), the number
// of records each owns, then a walk of the index below within the owner(s) the page falls on, from
// the nearer end. Before, every page computed the owner's name for each record and sorted the whole
// organization (2.9 s a page for 1,000,000 companies).
// - record_count rows with slot -1 and owner_id: the number of records an owner holds, appended by
//   statement triggers on insert and delete (as the totals are) and by a row trigger that fires only
//   when a record changes owner (or organization), so other updates pay nothing; reads fold them
//   (ownerTotals). JIT is off in the statement functions (see Migration20261122223000).
// - One index per table: (organization, owner, default order, id), INCLUDE the columns a search
//   walk tests (as the name index), so a walk within an owner stays index-only.
// Listed in server/src/db/hand-written.ts.
const SPECS = [
  { table: 'company', order: `lower("name"), "id"`, include: `"name", "domain"` },
  { table: 'contact', order: `lower("last_name"), lower("first_name"), "id"`, include: `"last_name", "first_name", "email"` },
] as const;

export class Migration20261122234000 extends Migration {
  override name = 'Migration20261122234000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "record_count" add column "owner_id" uuid null;`);
    for (const { table, order, include } of SPECS) {
      // Function names follow MikroORM's trigger convention ({table}_{trigger}_fn).
      this
        .addSql(`create or replace function "${table}_${table}_owner_count_insert_fn"() returns trigger language plpgsql set jit = off as $$
        begin
          insert into record_count (organization_id, entity_type, slot, owner_id, delta)
            select organization_id, tg_table_name, -1, owner_id, count(*) from new_rows where owner_id is not null group by organization_id, owner_id;
          return null;
        end $$;`);
      this
        .addSql(`create or replace function "${table}_${table}_owner_count_delete_fn"() returns trigger language plpgsql set jit = off as $$
        begin
          insert into record_count (organization_id, entity_type, slot, owner_id, delta)
            select organization_id, tg_table_name, -1, owner_id, -count(*) from old_rows where owner_id is not null group by organization_id, owner_id;
          return null;
        end $$;`);
      this.addSql(`create or replace function "${table}_${table}_owner_count_update_fn"() returns trigger language plpgsql as $$
        begin
          if old.owner_id is not null then
            insert into record_count (organization_id, entity_type, slot, owner_id, delta) values (old.organization_id, tg_table_name, -1, old.owner_id, -1);
          end if;
          if new.owner_id is not null then
            insert into record_count (organization_id, entity_type, slot, owner_id, delta) values (new.organization_id, tg_table_name, -1, new.owner_id, 1);
          end if;
          return null;
        end $$;`);
      this.addSql(
        `create trigger "${table}_owner_count_insert" after insert on "${table}" referencing new table as new_rows for each statement
          execute function "${table}_${table}_owner_count_insert_fn"();`,
      );
      this.addSql(
        `create trigger "${table}_owner_count_delete" after delete on "${table}" referencing old table as old_rows for each statement
          execute function "${table}_${table}_owner_count_delete_fn"();`,
      );
      this.addSql(
        `create trigger "${table}_owner_count_update" after update of "owner_id", "organization_id" on "${table}" for each row when
          (old."owner_id" is distinct from new."owner_id" or old."organization_id" is distinct from new."organization_id") execute
          function "${table}_${table}_owner_count_update_fn"();`,
      );
      // The triggers hold the table's lock until this migration commits: no write slips between them and the backfill.
      this.addSql(
        `insert into record_count (organization_id, entity_type, slot, owner_id, delta) select organization_id, '${table}', -1,
          owner_id, count(*) from "${table}" where owner_id is not null group by organization_id, owner_id;`,
      );
      this.addSql(`create index "${table}_org_owner_index" on "${table}" ("organization_id", "owner_id", ${order}) include (${include});`);
    }
  }

  override down(): void | Promise<void> {
    for (const { table } of SPECS) {
      this.addSql(`drop index if exists "${table}_org_owner_index";`);
      for (const t of ['insert', 'delete', 'update']) {
        this.addSql(`drop trigger if exists "${table}_owner_count_${t}" on "${table}";`);
        this.addSql(`drop function if exists "${table}_${table}_owner_count_${t}_fn"();`);
      }
    }
    this.addSql(`delete from record_count where slot = -1;`);
    this.addSql(`alter table "record_count" drop column "owner_id";`);
  }
}
