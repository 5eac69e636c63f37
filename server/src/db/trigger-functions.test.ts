// The statement triggers over transition tables (Migration20261122223000): PL/pgSQL keeps one generic
// plan per connection for them, costed with the first call's row count, so they must be plans that
// stay cheap for any row count — no JIT (a one-row call after a bulk one would compile each time)
// and no join of old_rows with new_rows (a nested loop planned for one row was quadratic on a later
// bulk update). Checked on the catalog, then the slot counts on one connection: a one-row update
// first, then a bulk update mixing changed and unchanged rows — the counts stay exact.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { createTestApp, createOrg, type TestContext } from '../../test/helpers';

describe('statement triggers over transition tables', () => {
  let ctx: TestContext;
  let db: pg.Client;
  let org: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    org = (await createOrg(ctx, { name: 'Trigger plans' })).organization.id;
    db = new pg.Client({ connectionString: ctx.dbUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await ctx.close();
  });

  it('run without JIT and never join their two transition tables', async () => {
    const { rows } = await db.query<{ fn: string; config: string[] | null; body: string }>(
      `select distinct p.proname as fn, p.proconfig as config, p.prosrc as body
         from pg_trigger t join pg_proc p on p.oid = t.tgfoid
        where not t.tgisinternal and (t.tgoldtable is not null or t.tgnewtable is not null)
        order by 1`,
    );
    expect(rows.map((r) => r.fn)).toEqual(
      expect.arrayContaining([
        'company_company_count_insert_fn',
        'company_company_slots_update_fn',
        'company_company_link_count_update_fn',
        'contact_contact_slots_update_fn',
        'realtime_event_realtime_event_notify_fn',
      ]),
    );
    for (const r of rows) {
      expect(r.config ?? [], r.fn).toContain('jit=off');
      expect(/old_rows\s+\w+\s+join\s+new_rows|new_rows\s+\w+\s+join\s+old_rows/i.test(r.body), r.fn).toBe(false);
    }
  });

  it('keep the slot counts exact on one connection: a one-row update, then a bulk one', async () => {
    // Two custom slots filled directly on the rows (the counts follow the rows, whatever wrote them).
    await db.query(
      `insert into company (id, organization_id, name, website, domain, created_at, updated_at)
      select gen_random_uuid(), $1, 'Plan ' || g, 'plan-' || g || '.example', 'plan-' || g || '.example', now(), now() from generate_series(1, 300) g`,
      [org],
    );
    const filled = async (slotColumn: string) =>
      Number(
        (await db.query(`select count(*) as n from company where organization_id = $1 and ${slotColumn} is not null`, [org])).rows[0].n,
      );
    const counted = async (slot: number) =>
      Number(
        (
          await db.query(
            `select coalesce(sum(delta), 0) as n from record_count where organization_id = $1 and entity_type = 'company' and slot = $2`,
            [org, slot],
          )
        ).rows[0].n,
      );
    await db.query(`update company set num_1 = 1 where id = (select id from company where organization_id = $1 order by name limit 1)`, [
      org,
    ]);
    expect([await counted(1), await filled('num_1')]).toEqual([1, 1]);
    // Bulk: 200 rows gain num_1, 100 of them also txt_1; 100 rows change nothing that is counted.
    await db.query(
      `update company set num_1 = 2, txt_1 = case when name < 'Plan 2' then 'x' end, updated_at = now() where organization_id = $1 and name <> 'Plan 99'`,
      [org],
    );
    await db.query(`update company set num_1 = null where organization_id = $1 and name like 'Plan 3%'`, [org]);
    for (const [slot, column] of [
      [1, 'num_1'],
      [17, 'txt_1'],
    ] as const)
      expect(await counted(slot), column).toBe(await filled(column));
    await db.query(`delete from company where organization_id = $1 and name like 'Plan 1%'`, [org]);
    for (const [slot, column] of [
      [1, 'num_1'],
      [17, 'txt_1'],
    ] as const)
      expect(await counted(slot), column).toBe(await filled(column));
  });
});
