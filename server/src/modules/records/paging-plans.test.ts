// pageIds picks its plan by the request (table-query.ts): an unfiltered table counts with
// record_count, a search collects its matches (up to COLLECT_MAX) or, past that, is counted and
// walked like a filtered table. Every plan must give the same totals and pages: here a search is
// paged with the collecting plan and with a cap so small that it always falls back, in every sort,
// and both are compared with an in-memory evaluation.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newField, setValue, f, type FieldLike } from '../../../test/records';
import { loadQueryContext, whereSql, orderSql, pageIds } from './table-query';

interface Row { id: string; name: string; domain: string; fields: Record<string, { value: unknown }> }

describe('paging plans give the same pages', () => {
  let ctx: TestContext;
  let c: TestClient;
  let org: string;
  let deals: FieldLike;
  let rows: Row[] = [];

  beforeAll(async () => {
    ctx = await createTestApp();
    const o = await createOrg(ctx, { name: 'Plans' });
    org = o.organization.id;
    c = await signedIn(ctx, o.admin.email, '10.62.0.1');
    deals = await newField(c, 'company', 'double', 'Deals');
    const words = ['Summit', 'summit', 'Alpha', 'Beta', 'Zeta'];
    for (let i = 0; i < 36; i++) {
      const res = await c.post('/api/v1/entity/create', { entityType: 'company', data: { name: `${words[i % 5]} ${['Holdings', 'Labs', 'Group'][i % 3]} ${i % 7}`, website: `plan${i}-${words[(i * 3) % 5].toLowerCase()}.com` } });
      expect(res.statusCode, res.body).toBe(201);
      if (i % 4 !== 0) await setValue(c, 'company', res.json().companyId, deals.id, (i * 37) % 11);
    }
    rows = (await c.post('/api/v1/company/get-companies', { pageSize: 1000 })).json().rows;
    expect(rows).toHaveLength(36);
  });
  afterAll(async () => { await ctx.close(); });

  const cases: { text: string; filters: ReturnType<typeof f>[]; sortKey?: string; sortOrder?: 'asc' | 'desc' }[] = [
    { text: 'summit', filters: [] },
    { text: 'SUMMIT', filters: [], sortKey: 'name', sortOrder: 'desc' },
    { text: 'a', filters: [], sortKey: 'domain', sortOrder: 'asc' },
    { text: 'lab', filters: [], sortKey: 'created_at', sortOrder: 'desc' },
    { text: 'o', filters: [], sortKey: 'deals', sortOrder: 'desc' },
    { text: 'o', filters: [], sortKey: 'deals', sortOrder: 'asc' },
    { text: 'e', filters: [f('deals', [['greater_than', 3]])] },
    { text: 'holdings', filters: [f('deals', [['less_than_or_equal', 5]])], sortKey: 'deals', sortOrder: 'desc' },
  ];

  for (const k of cases) {
    it(`search '${k.text}'${k.filters.length ? ' + filter' : ''}, sort ${k.sortKey ?? 'default'} ${k.sortOrder ?? ''}: collected, walked and in-memory agree on every page`, async () => {
      const qctx = await loadQueryContext(ctx.em(), org, 'company');
      const where = whereSql(qctx, { text: k.text, filters: k.filters as never });
      const order = orderSql(qctx, k.sortKey ?? null, k.sortOrder ?? null);
      const size = 4;
      const read = async (collectMax?: number) => {
        const first = await pageIds(ctx.em(), qctx, where, order, 0, size, { collectMax });
        const ids = [...first.ids];
        for (let p = 1; p * size < first.total + size; p++) {
          const page = await pageIds(ctx.em(), qctx, where, order, p, size, { collectMax });
          expect(page.total).toBe(first.total);
          ids.push(...page.ids);
        }
        return { total: first.total, ids };
      };
      const collected = await read();
      const walked = await read(1);
      const needle = k.text.toLowerCase();
      const matching = rows.filter((r) => `${r.name} ${r.domain}`.toLowerCase().includes(needle));
      expect(collected.total).toBe((await c.post('/api/v1/company/get-companies', { text: k.text, filters: k.filters, pageSize: 1000 })).json().totalRecords);
      expect(collected.total).toBeLessThanOrEqual(matching.length);
      expect(collected.total).toBeGreaterThan(1);
      expect(collected.ids).toHaveLength(collected.total);
      expect(new Set(collected.ids).size).toBe(collected.total);
      expect(walked).toEqual(collected);
      if (k.filters.length === 0 && !k.sortKey) {
        const byName = [...matching].sort((x, y) => (x.name.toLowerCase() < y.name.toLowerCase() ? -1 : x.name.toLowerCase() > y.name.toLowerCase() ? 1 : x.id < y.id ? -1 : 1));
        expect(collected.ids).toEqual(byName.map((r) => r.id));
      }
    });
  }
});
