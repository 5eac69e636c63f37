// Migration20261122211000: PostgreSQL keeps statistics on every slot's filled bit, so it knows how
// many records lack a value of a field. A sort by that field walks those records on the name index
// filtered on `(filled_mask & bit) = 0` (table-query.ts slotSortedPage); guessing 0.5% of the rows
// instead made it sort a scan of the whole table for every page among them (docs/benchmarks.md).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, type TestContext } from '../../../test/helpers';
import { newField } from '../../../test/records';
import { NUM_SLOTS, TEXT_SLOTS, slotBit, slotColumn } from '../fields/projection';

describe('statistics on the filled bit of each slot', () => {
  let ctx: TestContext;
  let org: string;
  let slot: number;
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => ctx.orm.em.getConnection().execute<T[]>(text, params);

  beforeAll(async () => {
    ctx = await createTestApp();
    const o = await createOrg(ctx, { name: 'Slot stats' });
    org = o.organization.id;
    const c = await signedIn(ctx, o.admin.email, '10.67.0.1');
    const field = await newField(c, 'company', 'double', 'Revenue');
    [{ slot }] = await sql<{ slot: number }>(`select slot from field_definition where id = ?`, [field.id]);
    // 2,000 companies, 90% with a value (the bench's shape), then the statistics PostgreSQL keeps.
    await sql(
      `insert into company (id, organization_id, name, website, domain, created_at, updated_at, ${slotColumn(slot)})
               select gen_random_uuid(), ?, 'Co ' || i, 'https://co-' || i || '.example.com', 'co-' || i || '.example.com', now(), now(),
                      case when i % 10 <> 0 then i::float8 end
                 from generate_series(1, 2000) i`,
      [org],
    );
    await sql(`analyze company`);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('exists for every slot of both tables', async () => {
    const rows = await sql<{ stxname: string }>(`select stxname from pg_statistic_ext where stxname like '%\\_filled\\_stats'`);
    expect(rows).toHaveLength(2 * (NUM_SLOTS + TEXT_SLOTS));
  });

  it('lets the planner estimate how many records have no value', async () => {
    const [{ n }] = await sql<{ n: number }>(
      `select count(*)::int as n from company where organization_id = ? and (filled_mask & ${slotBit(slot)}) = 0`,
      [org],
    );
    expect(n).toBe(200);
    const [plan] = await sql<{ 'QUERY PLAN': [{ Plan: { Plans?: [{ 'Plan Rows': number }] } }] }>(
      `explain (format json) select count(*) from company r where r.organization_id = ? and (r.filled_mask & ${slotBit(slot)}) = 0`,
      [org],
    );
    const estimate = plan['QUERY PLAN'][0].Plan.Plans![0]['Plan Rows'];
    // Without the statistics: 0.5% of 2,000 = 10.
    expect(estimate).toBeGreaterThan(100);
    expect(estimate).toBeLessThan(400);
  });
});
