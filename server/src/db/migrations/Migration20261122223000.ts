import { Migration } from '@mikro-orm/migrations';

// The statement triggers over transition tables (the record totals of Migration20261122050000, the
// slot counts of Migration20261122172000, the realtime NOTIFY of Migration20261122172606) run with
// jit = off, and the slot counts' update function no longer joins its two transition tables.
//
// Why: PL/pgSQL plans a statement once per connection, and a statement over transition tables has
// no parameters, so the plan is generic and costed with the row count of the first call. After a
// bulk statement first on a pooled connection, every later one-row call kept a plan expensive
// enough to be JIT-compiled (~700 ms each time); after a one-row call first, the join of old_rows
// and new_rows stayed a nested loop, and a later 10,000-row update of the same connection spent
// 44 s in it (measured on the million-row bench set; the same fix for the link counts is in
// Migration20261122220200). The delta per organization and slot is now the filled bits of new_rows
// minus those of old_rows — the same numbers (an unchanged row adds +1 and −1), linear in any plan.
// Listed in server/src/db/hand-written.ts (the triggers; functions are not compared).
const bits = 'generate_series(1, 32)';
const JIT_OFF = [
  ...['company', 'contact'].flatMap((t) => [
    `${t}_${t}_count_insert_fn`,
    `${t}_${t}_count_delete_fn`,
    `${t}_${t}_slots_insert_fn`,
    `${t}_${t}_slots_delete_fn`,
  ]),
  'realtime_event_realtime_event_notify_fn',
];

export class Migration20261122223000 extends Migration {
  override name = 'Migration20261122223000';

  override up(): void | Promise<void> {
    for (const fn of JIT_OFF) this.addSql(`alter function "${fn}"() set jit = off;`);
    for (const table of ['company', 'contact']) {
      this.addSql(`create or replace function "${table}_${table}_slots_update_fn"() returns trigger language plpgsql set jit = off as $$
        begin
          insert into record_count (organization_id, entity_type, slot, delta)
            select c.org, tg_table_name, s, sum(c.d) from (
                select organization_id as org, filled_mask as m, 1 as d from new_rows where filled_mask <> 0
                union all
                select organization_id, filled_mask, -1 from old_rows where filled_mask <> 0
              ) c, ${bits} s
             where (c.m >> (s - 1)) & 1 = 1 group by c.org, s having sum(c.d) <> 0;
          return null;
        end $$;`);
    }
  }

  override down(): void | Promise<void> {
    for (const fn of JIT_OFF) this.addSql(`alter function "${fn}"() reset jit;`);
    for (const table of ['company', 'contact']) {
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
      this.addSql(`alter function "${table}_${table}_slots_update_fn"() reset jit;`);
    }
  }
}
