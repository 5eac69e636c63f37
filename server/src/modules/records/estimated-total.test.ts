// Estimated totals (docs/ARCHITECTURE.md 'Records' → 'Estimated totals'): a table query matching
// more than 10,000 records may answer an estimate (`totalIsEstimate: true`); up to 10,000 the
// total is exact. The first and the last page of an estimated set are exact; a page between
// starts near its estimated position; 'all selected' bulk actions act on the exact set.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { loadQueryContext, whereSql, orderSql, pageIds } from './table-query';
import { anchorFromBoundaries, boundariesFor, boundariesSettled, buildBoundaries, forgetBoundaries, stepFor } from './sort-boundaries';

interface Page {
  rows: { id: string; name: string }[];
  totalRecords: number;
  totalIsEstimate: boolean;
  totalPages: number;
}

describe('estimated totals above 10,000 matches', () => {
  let ctx: TestContext;
  let c: TestClient;
  let org: string;
  /** Every company of the organization in the table's order (name, then id), lowercased names. */
  let all: { id: string; name: string }[] = [];

  const N = 12_600;
  beforeAll(async () => {
    ctx = await createTestApp();
    const o = await createOrg(ctx, { name: 'Estimates' });
    org = o.organization.id;
    c = await signedIn(ctx, o.admin.email, '10.71.0.1');
    // 12,600 companies: 'Alpha …' (600), then 'Delta Widgets …' / 'Delta Gears …' (6,000 each);
    // every 5th of them has 'seven' in its name (2,520: an exact total).
    await ctx
      .em()
      .getConnection()
      .execute(
        `insert into company (id, organization_id, name, website, domain, created_by_id, created_at, updated_at)
       select gen_random_uuid(), ?::uuid, n, 'https://' || d, d, ?::uuid, now(), now()
         from (select case when i <= 600 then 'Alpha ' else 'Delta ' || (case when i % 2 = 0 then 'Widgets ' else 'Gears ' end) end
                      || (case when i % 5 = 0 then 'seven ' else '' end) || lpad(i::text, 5, '0') as n,
                      'est-' || i || '.example' as d
                 from generate_series(1, ?::int) i) s`,
        [org, o.admin.id, N],
      );
    await ctx.em().getConnection().execute('analyze company');
    const rows = await ctx
      .em()
      .getConnection()
      .execute<{ id: string; name: string }[]>(`select id, name from company where organization_id = ? order by lower(name), id`, [org]);
    all = rows;
    expect(all).toHaveLength(N);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const page = async (body: Record<string, unknown>): Promise<Page> => {
    const res = await c.post('/api/v1/company/get-companies', { pageSize: 50, ...body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const matching = (text: string) => all.filter((r) => r.name.toLowerCase().includes(text));

  it("a search matching 12,000 answers 'about' (rounded, near the truth); page 0 and the last page are exact", async () => {
    const exact = matching('delta');
    expect(exact).toHaveLength(12_000);
    const first = await page({ text: 'delta', pageIndex: 0 });
    expect(first.totalIsEstimate).toBe(true);
    expect(first.totalRecords).toBeGreaterThan(10_000);
    expect(Math.abs(first.totalRecords - 12_000) / 12_000).toBeLessThan(0.15);
    // Three significant figures: 12,345 is answered as 12,300.
    expect(first.totalRecords % 100).toBe(0);
    expect(first.totalPages).toBe(Math.ceil(first.totalRecords / 50));
    expect(first.rows.map((r) => r.id)).toEqual(exact.slice(0, 50).map((r) => r.id));
    // The same estimate on every page (the sample reads the same pages each time).
    const last = await page({ text: 'delta', pageIndex: first.totalPages - 1 });
    expect(last.totalRecords).toBe(first.totalRecords);
    expect(last.totalIsEstimate).toBe(true);
    expect(last.rows.map((r) => r.id)).toEqual(exact.slice(-50).map((r) => r.id));
  });

  it('a page between starts near its estimated position: 50 matches in order, consecutive in the set', async () => {
    const exact = matching('delta');
    const first = await page({ text: 'delta', pageIndex: 0 });
    for (const p of [1, 40, Math.floor(first.totalPages / 2), first.totalPages - 2]) {
      const res = await page({ text: 'delta', pageIndex: p });
      expect(res.totalIsEstimate).toBe(true);
      expect(res.rows).toHaveLength(50);
      const at = exact.findIndex((r) => r.id === res.rows[0].id);
      expect(at, `page ${p}`).toBeGreaterThanOrEqual(0);
      expect(res.rows.map((r) => r.id)).toEqual(exact.slice(at, at + 50).map((r) => r.id));
      // Near the page's own position: within a few pages of offset p × 50 (the estimate's error).
      expect(Math.abs(at - p * 50), `page ${p}`).toBeLessThan(0.15 * 12_000);
    }
  });

  it('Next and Previous start right after (before) the rows shown: paging one page at a time neither skips nor repeats a match', async () => {
    const exact = matching('delta');
    let shown = (await page({ text: 'delta', pageIndex: 0 })).rows;
    for (let p = 1; p <= 3; p++) {
      const next = await page({ text: 'delta', pageIndex: p, afterId: shown[shown.length - 1].id });
      expect(next.totalIsEstimate).toBe(true);
      expect(
        next.rows.map((r) => r.id),
        `page ${p}`,
      ).toEqual(exact.slice(p * 50, p * 50 + 50).map((r) => r.id));
      shown = next.rows;
    }
    // From a page reached by a jump (an estimated position), Previous is the 50 matches before its first row.
    const jump = await page({ text: 'delta', pageIndex: 120 });
    const at = exact.findIndex((r) => r.id === jump.rows[0].id);
    const prev = await page({ text: 'delta', pageIndex: 119, beforeId: jump.rows[0].id });
    expect(prev.rows.map((r) => r.id)).toEqual(exact.slice(at - 50, at).map((r) => r.id));
    const after = await page({ text: 'delta', pageIndex: 121, afterId: jump.rows[49].id });
    expect(after.rows.map((r) => r.id)).toEqual(exact.slice(at + 50, at + 100).map((r) => r.id));
    // Next from the last rows but one page short: the set's last page (fewer matches are left).
    const nearEnd = await page({ text: 'delta', pageIndex: 200, afterId: exact[exact.length - 20].id });
    expect(nearEnd.rows.map((r) => r.id)).toEqual(exact.slice(-50).map((r) => r.id));
    // A cursor of another organization's (or no) record is ignored: the page is placed by its position.
    const foreign = await page({ text: 'delta', pageIndex: 1, afterId: '00000000-0000-4000-8000-000000000000' });
    expect(foreign.rows).toHaveLength(50);
    expect((await c.post('/api/v1/company/get-companies', { text: 'delta', pageIndex: 1, afterId: 'nope' })).statusCode).toBe(400);
  });

  it('up to 10,000 matches the total stays exact (a search of 2,520, the whole table of 12,600 without search)', async () => {
    const seven = await page({ text: 'seven', pageIndex: 3 });
    expect(seven.totalIsEstimate).toBe(false);
    expect(seven.totalRecords).toBe(matching('seven').length);
    expect(seven.rows.map((r) => r.id)).toEqual(
      matching('seven')
        .slice(150, 200)
        .map((r) => r.id),
    );
    const whole = await page({ pageIndex: 0 });
    expect(whole).toMatchObject({ totalIsEstimate: false, totalRecords: N });
  });

  it('a filter matching more than 10,000 is estimated too; other sorts keep exact first and last pages', async () => {
    const filters = [{ key: 'name', operator: 'and', items: [{ id: 'c1', condition: 'contains', data: 'delta' }] }];
    const byName = await page({ filters, pageIndex: 0 });
    expect(byName.totalIsEstimate).toBe(true);
    expect(byName.rows.map((r) => r.id)).toEqual(
      matching('delta')
        .slice(0, 50)
        .map((r) => r.id),
    );
    const desc = await page({ text: 'delta', sortKey: 'name', sortOrder: 'desc', pageIndex: 0 });
    expect(desc.totalIsEstimate).toBe(true);
    expect(desc.rows.map((r) => r.id)).toEqual(
      [...matching('delta')]
        .reverse()
        .slice(0, 50)
        .map((r) => r.id),
    );
    const byDomain = await page({ text: 'delta', sortKey: 'domain', sortOrder: 'asc', pageIndex: 0 });
    const domains = await ctx
      .em()
      .getConnection()
      .execute<{ id: string }[]>(
        `select id from company where organization_id = ? and lower(name) like '%delta%' order by domain, id limit 50`,
        [org],
      );
    expect(byDomain.rows.map((r) => r.id)).toEqual(domains.map((r) => r.id));
  });

  it('the key contact sort (a text most records lack) is counted and paged by offset, not walked from a key', async () => {
    const res = await page({ text: 'delta', sortKey: 'keyContact', sortOrder: 'asc', pageIndex: 40 });
    expect(res.totalIsEstimate).toBe(false);
    expect(res.totalRecords).toBe(12_000);
    // No key contacts here: the order is the default one (name, id).
    expect(res.rows.map((r) => r.id)).toEqual(
      matching('delta')
        .slice(2_000, 2_050)
        .map((r) => r.id),
    );
  });

  it('matches that cluster past the walk bound are counted instead (exact)', async () => {
    // With a bound of 100 index entries, the first 'delta' (after 600 'Alpha' names) is out of reach.
    const qctx = await loadQueryContext(ctx.em(), org, 'company');
    const where = whereSql(qctx, { text: 'delta' });
    const res = await pageIds(ctx.em(), qctx, where, orderSql(qctx, null, null), 0, 50, { walkMax: 100 });
    expect(res.estimate).toBeUndefined();
    expect(res.total).toBe(12_000);
    expect(res.ids).toEqual(
      matching('delta')
        .slice(0, 50)
        .map((r) => r.id),
    );
  });

  it('the exact total follows in a second request (count-companies): the same search and filters, counted', async () => {
    const first = await page({ text: 'delta', pageIndex: 0 });
    expect(first.totalIsEstimate).toBe(true);
    const exact = await c.post('/api/v1/company/count-companies', { text: 'delta', filters: [] });
    expect(exact.statusCode, exact.body).toBe(200);
    expect(exact.json()).toEqual({ success: true, totalRecords: 12_000 });
    const filters = [{ key: 'name', operator: 'and', items: [{ id: 'c1', condition: 'contains', data: 'widgets' }] }];
    expect((await c.post('/api/v1/company/count-companies', { text: 'seven', filters })).json()).toEqual({
      success: true,
      totalRecords: matching('seven').filter((r) => r.name.toLowerCase().includes('widgets')).length,
    });
    expect((await c.post('/api/v1/company/count-companies', {})).json()).toEqual({ success: true, totalRecords: N });
    // The contacts' route answers the same way (none here).
    expect((await c.post('/api/v1/contact/count-contacts', { text: 'delta' })).json()).toEqual({ success: true, totalRecords: 0 });
    // Filters are checked like the table's.
    const bad = await c.post('/api/v1/company/count-companies', {
      text: '',
      filters: [{ key: 'nope', operator: 'and', items: [{ id: 'c1', condition: 'equals', data: 'x' }] }],
    });
    expect(bad.statusCode).toBe(400);
  });

  it('a page between finds its anchor through the page-boundary map: the same rows as the offset walk, a stale map still consecutive rows', async () => {
    const exact = matching('delta');
    forgetBoundaries();
    const first = await page({ text: 'delta', pageIndex: 0 });
    const probes = [3, 57, Math.floor(first.totalPages / 2), first.totalPages - 3];
    // Without a map (it is built in the background after the first middle page): the offset walk.
    const byOffset: string[][] = [];
    for (const p of probes) byOffset.push((await page({ text: 'delta', pageIndex: p })).rows.map((r) => r.id));
    await boundariesSettled();
    const qctx = await loadQueryContext(ctx.em(), org, 'company');
    const terms = orderSql(qctx, null, null).terms;
    // The map the middle pages scheduled is there now (an anchor without a map is null).
    expect((await anchorFromBoundaries(ctx.em(), 'company', org, terms, N, 5_000))?.[1]).toBe(all[5_000].id);
    for (const [i, p] of probes.entries()) {
      expect(
        (await page({ text: 'delta', pageIndex: p })).rows.map((r) => r.id),
        `page ${p}`,
      ).toEqual(byOffset[i]);
    }
    // The anchor at any rank is the record at that rank of the organization's order.
    const map = await buildBoundaries(ctx.em(), 'company', org, terms, N);
    expect(map.step).toBe(stepFor(N));
    expect(map.keys).toHaveLength(Math.ceil(N / map.step));
    for (const rank of [0, 1, map.step - 1, map.step, map.step + 7, 5_000, N - 1]) {
      const anchor = await anchorFromBoundaries(ctx.em(), 'company', org, terms, N, rank);
      expect(anchor?.[1], `rank ${rank}`).toBe(all[rank].id);
    }
    // Descending order: its own map.
    const desc = orderSql(qctx, 'name', 'desc').terms;
    await buildBoundaries(ctx.em(), 'company', org, desc, N);
    expect((await anchorFromBoundaries(ctx.em(), 'company', org, desc, N, 250))?.[1]).toBe(all[N - 1 - 250].id);
    // Records added after the map was built: the map is still used (the positions drift by the
    // records added, a few pages at most), and a page is still 50 consecutive matches.
    await ctx
      .em()
      .getConnection()
      .execute(
        `insert into company (id, organization_id, name, website, domain, created_by_id, created_at, updated_at)
       select gen_random_uuid(), ?::uuid, 'Delta Added ' || i, 'https://add-' || i || '.example', 'add-' || i || '.example', created_by_id, now(), now()
         from generate_series(1, 60) i, (select created_by_id from company where organization_id = ? limit 1) u`,
        [org, org],
      );
    const now = await ctx
      .em()
      .getConnection()
      .execute<{ id: string; name: string }[]>(
        `select id, name from company where organization_id = ? and lower(name) like '%delta%' order by lower(name), id`,
        [org],
      );
    const mid = await page({ text: 'delta', pageIndex: probes[2] });
    const at = now.findIndex((r) => r.id === mid.rows[0].id);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(mid.rows.map((r) => r.id)).toEqual(now.slice(at, at + 50).map((r) => r.id));
    await ctx.em().getConnection().execute(`delete from company where organization_id = ? and name like 'Delta Added %'`, [org]);
    expect(exact.length).toBe(12_000);
  });

  it('the whole organization (exact total): a page is found through a map built at this very record count, else by offset — the same rows', async () => {
    forgetBoundaries();
    const qctx = await loadQueryContext(ctx.em(), org, 'company');
    const where = whereSql(qctx, {});
    const order = orderSql(qctx, null, null);
    const at = (p: number, list = all) => list.slice(p * 50, p * 50 + 50).map((r) => r.id);
    const read = (p: number) => pageIds(ctx.em(), qctx, where, order, p, 50, { mapMin: 0 });
    expect(boundariesFor(ctx.em(), 'company', org, order.terms, N, true)).toBeNull();
    expect(await read(101)).toEqual({ total: N, ids: at(101) });
    await boundariesSettled();
    expect(boundariesFor(ctx.em(), 'company', org, order.terms, N, true)).not.toBeNull();
    for (const p of [1, 4, 101, 139, 200, 251]) expect(await read(p), `page ${p}`).toEqual({ total: N, ids: at(p) });
    // Descending, the website order: their own maps, the same rows as the offset walk.
    const desc = orderSql(qctx, 'name', 'desc');
    const byOffset = await pageIds(ctx.em(), qctx, where, desc, 77, 50, { mapMin: 0 });
    await boundariesSettled();
    expect(await pageIds(ctx.em(), qctx, where, desc, 77, 50, { mapMin: 0 })).toEqual(byOffset);
    expect(byOffset.ids).toEqual(
      [...all]
        .reverse()
        .slice(77 * 50, 78 * 50)
        .map((r) => r.id),
    );
    // One record more: the map (built at N) no longer serves exact pages; the page is still exact.
    const conn = ctx.em().getConnection();
    await conn.execute(
      `insert into company (id, organization_id, name, website, domain, created_by_id, created_at, updated_at)
      select gen_random_uuid(), organization_id, 'Beta Inserted', 'https://beta-ins.example', 'beta-ins.example', created_by_id, now(),
        now() from company where organization_id = ? limit 1`,
      [org],
    );
    const now = await conn.execute<{ id: string; name: string }[]>(
      `select id, name from company where organization_id = ? order by lower(name), id`,
      [org],
    );
    expect(boundariesFor(ctx.em(), 'company', org, order.terms, N + 1, true)).toBeNull();
    expect(await read(101)).toEqual({ total: N + 1, ids: at(101, now) });
    await conn.execute(`delete from company where organization_id = ? and name = 'Beta Inserted'`, [org]);
    await boundariesSettled();
  });

  it("'all selected' acts on the exact set, whatever the estimate said", async () => {
    const filters = [{ key: 'name', operator: 'and', items: [{ id: 'c1', condition: 'contains', data: 'gears' }] }];
    // 'gears' alone is 6,000: exact. The export of 'delta' (estimated) has every matching row.
    const res = await c.post('/api/v1/company/export', { selection: { allSelected: true, text: 'delta', filters: [], excludeIds: [] } });
    expect(res.statusCode).toBe(200);
    expect(res.body.trim().split('\n').length - 1).toBe(12_000);
    expect((await page({ text: 'delta' })).totalIsEstimate).toBe(true);
    const del = await c.post('/api/v1/company/bulk-delete', { selection: { allSelected: true, text: 'widgets', filters, excludeIds: [] } });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toMatchObject({ count: 0 });
    const gone = await c.post('/api/v1/company/bulk-delete', {
      selection: { allSelected: true, text: 'delta', filters: [], excludeIds: [all[600].id] },
    });
    expect(gone.json()).toMatchObject({ success: true, count: 11_999, message: '11999 companies deleted' });
    const left = await page({ text: 'delta' });
    expect(left).toMatchObject({ totalIsEstimate: false, totalRecords: 1 });
  });
});
