import { Migration } from '@mikro-orm/migrations';

// The number of companies with a key contact and of contacts with a primary company, maintained in
// record_count under slot 0 (the custom value slots are 1–32), like the filled counts of the slots:
// a descending sort by key contact / primary company reads the rows with a text, then those
// without one, from two ranges of one index, and needs that number to know where a page falls
// (records/table-query.ts slotSortedPage). Counting it per request cost 30–60 ms at 100,000 key
// contacts and grows with them (an index-only count of every filled entry).
// Statement-level triggers append one row per organization and statement where the number moved
// (key_contact_sort / primary_company_sort is kept by the triggers of Migration20261122220100);
// reads fold the rows (recordTotal). JIT is off in them: PL/pgSQL plans each statement once per
// connection, costed for the first call's row count; after a bulk statement every later call would
// JIT-compile (~700 ms) a plan for one row. Listed in server/src/db/hand-written.ts.
const SPECS = [
  { table: 'company', column: 'key_contact_sort' },
  { table: 'contact', column: 'primary_company_sort' },
] as const;

export class Migration20261122220200 extends Migration {
  override name = 'Migration20261122220200';

  override up(): void | Promise<void> {
    for (const { table, column } of SPECS) {
      // Function names follow MikroORM's trigger convention ({table}_{trigger}_fn).
      this
        .addSql(`create or replace function "${table}_${table}_link_count_insert_fn"() returns trigger language plpgsql set jit = off as $$
        begin
          insert into record_count (organization_id, entity_type, slot, delta)
            select organization_id, tg_table_name, 0, count(*) from new_rows where "${column}" is not null group by organization_id;
          return null;
        end $$;`);
      this
        .addSql(`create or replace function "${table}_${table}_link_count_delete_fn"() returns trigger language plpgsql set jit = off as $$
        begin
          insert into record_count (organization_id, entity_type, slot, delta)
            select organization_id, tg_table_name, 0, -count(*) from old_rows where "${column}" is not null group by organization_id;
          return null;
        end $$;`);
      // The filled rows after minus those before, per organization: no join of the two transition
      // tables, whose plan PL/pgSQL would cache with the row counts of the first call (a nested loop
      // planned for one row, as the link triggers' nested updates make, is quadratic on a bulk
      // update of the same connection later).
      this
        .addSql(`create or replace function "${table}_${table}_link_count_update_fn"() returns trigger language plpgsql set jit = off as $$
        begin
          insert into record_count (organization_id, entity_type, slot, delta)
            select c.org, tg_table_name, 0, sum(c.d) from (
                select organization_id as org, 1 as d from new_rows where "${column}" is not null
                union all
                select organization_id, -1 from old_rows where "${column}" is not null
              ) c group by c.org having sum(c.d) <> 0;
          return null;
        end $$;`);
      this.addSql(
        `create trigger "${table}_link_count_insert" after insert on "${table}" referencing new table as new_rows for each statement
          execute function "${table}_${table}_link_count_insert_fn"();`,
      );
      this.addSql(
        `create trigger "${table}_link_count_delete" after delete on "${table}" referencing old table as old_rows for each statement
          execute function "${table}_${table}_link_count_delete_fn"();`,
      );
      this.addSql(
        `create trigger "${table}_link_count_update" after update on "${table}" referencing old table as old_rows new table as new_rows
          for each statement execute function "${table}_${table}_link_count_update_fn"();`,
      );
      // The triggers hold the table's lock until this migration commits: no write slips between them and the backfill.
      this.addSql(
        `insert into record_count (organization_id, entity_type, slot, delta) select organization_id, '${table}', 0, count(*) from
          "${table}" where "${column}" is not null group by organization_id;`,
      );
    }
  }

  override down(): void | Promise<void> {
    for (const { table } of SPECS) {
      for (const t of ['insert', 'delete', 'update']) {
        this.addSql(`drop trigger if exists "${table}_link_count_${t}" on "${table}";`);
        this.addSql(`drop function if exists "${table}_${table}_link_count_${t}_fn"();`);
      }
      this.addSql(`delete from record_count where entity_type = '${table}' and slot = 0;`);
    }
  }
}
