// The Created date filter is a range of created_at for plain days (table-query.ts createdRange), so
// the created index serves it. It must keep the meaning the table shows: the day of created_at in
// UTC compared with the filter's days. Checked around day boundaries (the last microsecond of a day,
// midnight, a time written with another offset) for every condition, negations included, against
// the same comparison made on the UTC day text.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';

const STAMPS = [
  '2026-03-09 00:00:00+00',
  '2026-03-09 23:59:59.999999+00',
  '2026-03-10 00:00:00+00',
  '2026-03-10 01:00:00+05', // 2026-03-09 20:00 UTC
  '2026-03-10 12:00:00+00',
  '2026-03-10 23:59:59.999999+00',
  '2026-03-11 00:00:00+00',
  '2026-03-10 22:00:00-03', // 2026-03-11 01:00 UTC
  '2026-03-12 08:30:00+00',
];

describe('Created date filter', () => {
  let ctx: TestContext;
  let db: pg.Client;
  let c: TestClient;
  let org: string;
  let days: { id: string; day: string }[] = [];

  beforeAll(async () => {
    ctx = await createTestApp();
    const o = await createOrg(ctx, { name: 'Dated' });
    org = o.organization.id;
    c = await signedIn(ctx, o.admin.email, '10.64.0.1');
    db = new pg.Client({ connectionString: ctx.dbUrl });
    await db.connect();
    for (const [i, stamp] of STAMPS.entries()) {
      const res = await c.post('/api/v1/entity/create', { entityType: 'company', data: { name: `Dated ${i}`, website: `dated${i}.com` } });
      expect(res.statusCode, res.body).toBe(201);
      await db.query(`update company set created_at = $2::timestamptz where id = $1`, [res.json().companyId, stamp]);
    }
    days = (
      await db.query<{ id: string; day: string }>(
        `select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day from company where organization_id = $1`,
        [org],
      )
    ).rows;
  });
  afterAll(async () => {
    await db.end();
    await ctx.close();
  });

  const cases: { condition: string; data: unknown; keep: (d: string) => boolean }[] = [
    { condition: 'equals', data: '2026-03-10', keep: (d) => d === '2026-03-10' },
    { condition: 'not_equals', data: '2026-03-10', keep: (d) => d !== '2026-03-10' },
    { condition: 'greater_than', data: '2026-03-09', keep: (d) => d > '2026-03-09' },
    { condition: 'greater_than_or_equal', data: '2026-03-10', keep: (d) => d >= '2026-03-10' },
    { condition: 'less_than', data: '2026-03-10', keep: (d) => d < '2026-03-10' },
    { condition: 'less_than_or_equal', data: '2026-03-10', keep: (d) => d <= '2026-03-10' },
    { condition: 'between', data: ['2026-03-10', '2026-03-11'], keep: (d) => d >= '2026-03-10' && d <= '2026-03-11' },
    { condition: 'between', data: ['2026-03-11', '2026-03-09'], keep: (d) => d >= '2026-03-09' && d <= '2026-03-11' },
  ];

  for (const k of cases) {
    it(`${k.condition} ${JSON.stringify(k.data)}: the companies whose UTC day matches`, async () => {
      const res = await c.post('/api/v1/company/get-companies', {
        filters: [{ key: 'created_at', operator: 'and', items: [{ id: 'c1', condition: k.condition, data: k.data }] }],
        pageSize: 100,
      });
      expect(res.statusCode, res.body).toBe(200);
      const want = days
        .filter((x) => k.keep(x.day))
        .map((x) => x.id)
        .sort();
      expect(want.length).toBeGreaterThan(0);
      expect(want.length).toBeLessThan(days.length);
      expect(res.json().totalRecords).toBe(want.length);
      expect(
        res
          .json()
          .rows.map((r: { id: string }) => r.id)
          .sort(),
      ).toEqual(want);
    });
  }

  it('a value that is not a plain day keeps the text comparison', async () => {
    const res = await c.post('/api/v1/company/get-companies', {
      filters: [{ key: 'created_at', operator: 'and', items: [{ id: 'c1', condition: 'greater_than', data: '2026-03-10T00' }] }],
      pageSize: 100,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().totalRecords).toBe(days.filter((x) => x.day > '2026-03-10T00').length);
  });
});
