import { Migration } from '@mikro-orm/migrations';

// Custom field values projected onto the record row (docs/ARCHITECTURE.md 'Records', server/src/modules/fields/projection.ts):
// - company and contact get 16 numeric slots (num_1…num_16, double precision) and 16 text slots
//   (txt_1…txt_16, text collate "C"), and filled_mask, generated: bit (slot − 1) is set when the
//   slot holds a value;
// - each slot has a partial index (organization_id, value, id) where the value is not null (text:
//   its first 200 characters), so an unused slot costs no index entries;
// - the name sort indexes INCLUDE filled_mask: the rows without a value of a sorted field are
//   walked in name order from the index alone;
// - field_definition.slot names a custom field's slot (1–16 num, 17–32 txt; unique per
//   organization and entity type);
// - record_count.slot: statement triggers append how many rows fill each slot, per organization
//   (as for the totals; record_count's truncate trigger clears both), so a sort by a custom field
//   knows where the empty values start;
// - the existing custom fields get slots in the order they were created, and their values are copied
//   onto the records.
// The indexes, columns and triggers are listed in server/src/db/hand-written.ts.
const NUM = 16;
const TXT = 16;
const NUMERIC = `('int', 'double', 'currency', 'number')`;
const TEMPORAL = `('date', 'time')`;
const slots = Array.from({ length: NUM + TXT }, (_, i) => i + 1);
const col = (s: number) => (s <= NUM ? `num_${s}` : `txt_${s - NUM}`);

export class Migration20261122172000 extends Migration {
  override name = 'Migration20261122172000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "field_definition" add column "slot" smallint null;`);
    this.addSql(
      `create unique index "field_definition_org_slot_unique" on "field_definition" ("organization_id", "entity_type", "slot") where "slot" is not null;`,
    );

    this.addSql(`alter table "record_count" add column "slot" smallint null;`);
    this.addSql(`drop index "record_count_org_type_index";`);
    this.addSql(`create index "record_count_org_type_index" on "record_count" ("organization_id", "entity_type", "slot");`);

    const mask = slots.map((s) => `(("${col(s)}" is not null)::int::bigint << ${s - 1})`).join(' | ');
    const bits = `generate_series(1, ${NUM + TXT})`;
    for (const table of ['company', 'contact']) {
      this.addSql(
        `alter table "${table}" ${[
          ...slots.map((s) => `add column "${col(s)}" ${s <= NUM ? 'double precision' : 'text collate "C"'} null`),
          `add column "filled_mask" bigint not null generated always as (${mask}) stored`,
        ].join(', ')};`,
      );
      for (const s of slots) {
        const key = s <= NUM ? `"${col(s)}"` : `(left("${col(s)}", 200))`;
        this.addSql(
          `create index "${table}_${col(s)}_index" on "${table}" ("organization_id", ${key}, "id") where "${col(s)}" is not null;`,
        );
      }
      // Counting triggers (function names follow MikroORM's {table}_{trigger}_fn convention).
      this.addSql(`create or replace function "${table}_${table}_slots_insert_fn"() returns trigger language plpgsql as $$
        begin
          insert into record_count (organization_id, entity_type, slot, delta)
            select n.organization_id, tg_table_name, s, count(*) from new_rows n, ${bits} s
             where n.filled_mask <> 0 and (n.filled_mask >> (s - 1)) & 1 = 1 group by n.organization_id, s;
          return null;
        end $$;`);
      this.addSql(`create or replace function "${table}_${table}_slots_delete_fn"() returns trigger language plpgsql as $$
        begin
          insert into record_count (organization_id, entity_type, slot, delta)
            select o.organization_id, tg_table_name, s, -count(*) from old_rows o, ${bits} s
             where o.filled_mask <> 0 and (o.filled_mask >> (s - 1)) & 1 = 1 group by o.organization_id, s;
          return null;
        end $$;`);
      this.addSql(`create or replace function "${table}_${table}_slots_update_fn"() returns trigger language plpgsql as $$
        begin
          insert into record_count (organization_id, entity_type, slot, delta)
            select c.org, tg_table_name, s, sum(c.d) from (
                select n.organization_id as org, n.filled_mask as m, 1 as d from old_rows o join new_rows n on n.id = o.id
                 where o.filled_mask <> n.filled_mask or o.organization_id <> n.organization_id
                union all
                select o.organization_id, o.filled_mask, -1 from old_rows o join new_rows n on n.id = o.id
                 where o.filled_mask <> n.filled_mask or o.organization_id <> n.organization_id
              ) c, ${bits} s
             where (c.m >> (s - 1)) & 1 = 1 group by c.org, s having sum(c.d) <> 0;
          return null;
        end $$;`);
      this.addSql(
        `create trigger "${table}_slots_insert" after insert on "${table}" referencing new table as new_rows for each statement execute
          function "${table}_${table}_slots_insert_fn"();`,
      );
      this.addSql(
        `create trigger "${table}_slots_delete" after delete on "${table}" referencing old table as old_rows for each statement execute
          function "${table}_${table}_slots_delete_fn"();`,
      );
      this.addSql(
        `create trigger "${table}_slots_update" after update on "${table}" referencing old table as old_rows new table as new_rows for
          each statement execute function "${table}_${table}_slots_update_fn"();`,
      );
    }

    this.addSql(`drop index "company_org_name_index";`);
    this.addSql(
      `create index "company_org_name_index" on "company" ("organization_id", lower("name"), "id") include ("name", "domain", "filled_mask");`,
    );
    this.addSql(`drop index "contact_org_name_index";`);
    this.addSql(
      `create index "contact_org_name_index" on "contact" ("organization_id", lower("last_name"), lower("first_name"), "id") include
        ("last_name", "first_name", "email", "filled_mask");`,
    );

    // Backfill: slots for the existing custom fields (per organization, entity type and family, in
    // the order of creation), then their values onto the records (one statement per table).
    for (const [family, first, count, cond] of [
      ['num', 1, NUM, `(data_type in ${NUMERIC} or data_type = 'boolean')`],
      ['txt', NUM + 1, TXT, `not (data_type in ${NUMERIC} or data_type = 'boolean')`],
    ] as const) {
      this.addSql(`update "field_definition" f set "slot" = x.slot from (
          select id, ${first} - 1 + row_number() over (partition by organization_id, entity_type order by created_at, id) as slot
            from "field_definition" where built_in_column is null and ${cond}
        ) x where f.id = x.id and x.slot < ${first + count}; -- ${family}`);
    }
    for (const table of ['company', 'contact']) {
      const projection = (s: number) =>
        s <= NUM
          ? `max(case when f.slot = ${s} then (case when f.data_type = 'boolean' then (case when v.value_bool then 1 else 0 end)::float8
            else v.value_num end) end) as "${col(s)}"`
          : `max(case when f.slot = ${s} then (case when f.data_type in ${TEMPORAL} then v.value_text else lower(v.value_text) end) end) as "${col(s)}"`;
      this.addSql(`update "${table}" r set ${slots.map((s) => `"${col(s)}" = x."${col(s)}"`).join(', ')} from (
          select v.entity_id, ${slots.map(projection).join(', ')}
            from "field_value" v join "field_definition" f on f.id = v.field_id
           where f.slot is not null and f.entity_type = '${table}' and v.value is not null and v.value <> 'null'::jsonb
           group by v.entity_id
        ) x where r.id = x.entity_id;`);
    }
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "contact_org_name_index";`);
    this.addSql(
      `create index "contact_org_name_index" on "contact" ("organization_id", lower("last_name"), lower("first_name"), "id") include
        ("last_name", "first_name", "email");`,
    );
    this.addSql(`drop index "company_org_name_index";`);
    this.addSql(`create index "company_org_name_index" on "company" ("organization_id", lower("name"), "id") include ("name", "domain");`);
    for (const table of ['company', 'contact']) {
      for (const t of ['insert', 'delete', 'update']) {
        this.addSql(`drop trigger if exists "${table}_slots_${t}" on "${table}";`);
        this.addSql(`drop function if exists "${table}_${table}_slots_${t}_fn"();`);
      }
      this.addSql(`alter table "${table}" drop column "filled_mask", ${slots.map((s) => `drop column "${col(s)}"`).join(', ')};`);
    }
    this.addSql(`delete from "record_count" where "slot" is not null;`);
    this.addSql(`drop index "record_count_org_type_index";`);
    this.addSql(`create index "record_count_org_type_index" on "record_count" ("organization_id", "entity_type");`);
    this.addSql(`alter table "record_count" drop column "slot";`);
    this.addSql(`drop index if exists "field_definition_org_slot_unique";`);
    this.addSql(`alter table "field_definition" drop column "slot";`);
  }
}
