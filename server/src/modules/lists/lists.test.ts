import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newCompany } from '../../../test/records';
import { insertIdeas, lockList, createSource } from './lists.service';
import { ideaOrder, ideaWhere } from '../records/idea-query';
import { forgetIdeaBoundaries, ideaBoundariesSettled, pageFromBoundaries } from './idea-boundaries';

describe('lists and ideas (spec 002 §7)', () => {
  let ctx: TestContext;
  let orgA: string;
  let adminA: string;
  let a: TestClient;
  let b: TestClient;

  beforeAll(async () => {
    ctx = await createTestApp();
    const oa = await createOrg(ctx, { name: 'Alpha' });
    const ob = await createOrg(ctx, { name: 'Beta' });
    orgA = oa.organization.id;
    adminA = oa.admin.id;
    a = await signedIn(ctx, oa.admin.email, '10.41.0.1');
    b = await signedIn(ctx, ob.admin.email, '10.41.0.2');
  });
  afterAll(async () => {
    await ctx.close();
  });

  const newList = async (c: TestClient, name = `List ${randomUUID().slice(0, 6)}`) => {
    const res = await c.post('/api/v1/list-company', { name });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().list as {
      id: string;
      name: string;
      totalIdeas: number;
      totalShortListedIdeas: number;
      sources: { id: string; type: string; total: number; shortlisted: number }[];
    };
  };
  const getList = async (c: TestClient, id: string) => {
    const res = await c.get(`/api/v1/list-company/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().list;
  };
  const page = async (c: TestClient, body: Record<string, unknown>) => {
    const res = await c.post('/api/v1/list-company/idea/list', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      listCompanyIdeas: {
        id: string;
        name: string;
        domain: string;
        shortListed: boolean;
        status: string;
        sourceIds: string[];
        company: { id: string } | null;
      }[];
      totalRecords: number;
      totalPages: number;
      hasRecords: boolean;
      totalIsEstimate?: boolean;
    };
  };
  /** n ideas of a fresh source, inserted the way an import does. */
  const seedIdeas = async (listId: string, n: number, prefix = 'co', start = 0) => {
    const em = ctx.em();
    return em.transactional(async (tem) => {
      await lockList(tem, orgA, listId);
      const sourceId = await createSource(
        tem,
        { organizationId: orgA, userId: adminA },
        listId,
        'csv',
        { fileName: 'seed.csv' },
        'completed',
      );
      const rows = Array.from({ length: n }, (_, i) => ({
        name: `${prefix} ${start + i}`,
        website: `https://${prefix}${start + i}.example.com`,
        domain: `${prefix}${start + i}.example.com`,
        data: { n: start + i },
      }));
      return { sourceId, ...(await insertIdeas(tem, orgA, listId, sourceId, rows)) };
    });
  };

  it('creates, finds, renames and pages lists (newest first by default); validation messages; another organization gets 404', async () => {
    expect((await a.post('/api/v1/list-company', { name: '  ' })).json()).toMatchObject({
      success: false,
      message: 'List name is required',
    });
    const first = await newList(a, 'Alpha targets');
    const second = await newList(a, 'Beta targets');
    const lists = (await a.post('/api/v1/list-company/list', {})).json();
    expect(lists.lists.slice(0, 2).map((l: { id: string }) => l.id)).toEqual([second.id, first.id]);
    expect((await a.post('/api/v1/list-company/list', { text: 'alpha t' })).json().lists.map((l: { id: string }) => l.id)).toEqual([
      first.id,
    ]);
    const byName = (await a.post('/api/v1/list-company/list', { sortKey: 'name', sortOrder: 'asc', pageSize: 100 }))
      .json()
      .lists.map((l: { name: string }) => l.name);
    expect(byName).toEqual([...byName].sort((x: string, y: string) => x.toLowerCase().localeCompare(y.toLowerCase())));
    const users = (await a.get('/api/v1/list-company/users')).json().users;
    expect(users.map((u: { id: string }) => u.id)).toEqual([adminA]);
    expect((await a.post('/api/v1/list-company/list', { createdBy: [adminA] })).json().totalRecords).toBeGreaterThanOrEqual(2);
    const renamed = await a.request('PATCH', '/api/v1/list-company/name', { listId: first.id, name: 'Renamed' });
    expect(renamed.json()).toMatchObject({ success: true, message: 'List renamed', list: { name: 'Renamed' } });
    // Another organization: 404 and nothing changed.
    expect((await b.get(`/api/v1/list-company/${first.id}`)).statusCode).toBe(404);
    expect((await b.request('PATCH', '/api/v1/list-company/name', { listId: first.id, name: 'Hijack' })).statusCode).toBe(404);
    expect((await b.del(`/api/v1/list-company/${first.id}`)).statusCode).toBe(404);
    expect((await b.post('/api/v1/list-company/list', {})).json().lists).toEqual([]);
    expect((await getList(a, first.id)).name).toBe('Renamed');
    expect((await a.del(`/api/v1/list-company/${second.id}`)).json()).toEqual({ success: true, message: 'List deleted' });
    expect((await a.get(`/api/v1/list-company/${second.id}`)).statusCode).toBe(404);
  });

  it('adds manual ideas: company validation messages, normalized domain, 409 for a domain already in the list, a manual source counting them', async () => {
    const list = await newList(a);
    expect((await a.post('/api/v1/list-company/idea', { id: list.id, companyName: '', website: 'acme.com' })).json()).toMatchObject({
      success: false,
      message: 'Company name is required',
    });
    expect((await a.post('/api/v1/list-company/idea', { id: list.id, companyName: 'Acme', website: 'not a url' })).json()).toMatchObject({
      success: false,
      message: 'Invalid URL',
    });
    const res = await a.post('/api/v1/list-company/idea', { id: list.id, companyName: 'Acme', website: 'https://www.Acme.com/about' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Idea added',
      idea: { name: 'Acme', domain: 'acme.com', status: 'idea', shortListed: false, scoringResults: [], enrichmentResults: [] },
    });
    const dup = await a.post('/api/v1/list-company/idea', { id: list.id, companyName: 'Acme again', website: 'acme.com' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('Idea with same domain already exists in this list');
    const l = await getList(a, list.id);
    expect(l).toMatchObject({ totalIdeas: 1, totalShortListedIdeas: 0, totalSources: 1 });
    expect(l.sources[0]).toMatchObject({ type: 'manual', total: 1, shortlisted: 0, status: 'completed' });
    expect((await b.post('/api/v1/list-company/idea', { id: list.id, companyName: 'X', website: 'x.com' })).statusCode).toBe(404);
    expect((await getList(a, list.id)).totalIdeas).toBe(1);
  });

  it(
    'pages the ideas table like the companies table: newest first, 10 rows, zero-based, search, shortlist filter, ' +
      'sources, the last page read from the end',
    async () => {
      const list = await newList(a);
      const s1 = await seedIdeas(list.id, 25, 'alpha');
      const s2 = await seedIdeas(list.id, 5, 'beta');
      expect(s1).toMatchObject({ inserted: 25, merged: 0 });
      const p0 = await page(a, { listCompanyId: list.id });
      expect(p0).toMatchObject({ totalRecords: 30, totalPages: 3, hasRecords: true, totalIsEstimate: false });
      expect(p0.listCompanyIdeas).toHaveLength(10);
      expect(p0.listCompanyIdeas[0].name).toBe('beta 4');
      const all: string[] = [];
      for (let i = 0; i < 3; i++)
        all.push(...(await page(a, { listCompanyId: list.id, pageIndex: i })).listCompanyIdeas.map((x) => x.name));
      expect(new Set(all).size).toBe(30);
      expect(all.slice(-1)).toEqual(['alpha 0']);
      const byName = await page(a, { listCompanyId: list.id, sortKey: 'name', sortOrder: 'asc', pageIndex: 2 });
      expect(byName.listCompanyIdeas.map((x) => x.name).slice(5)).toEqual(['beta 0', 'beta 1', 'beta 2', 'beta 3', 'beta 4']);
      expect(byName.listCompanyIdeas).toHaveLength(10);
      // alpha 2 and alpha 20–24, case-insensitive.
      expect((await page(a, { listCompanyId: list.id, text: 'ALPHA 2' })).totalRecords).toBe(6);
      expect((await page(a, { listCompanyId: list.id, listSourceIds: [s2.sourceId] })).totalRecords).toBe(5);
      expect((await page(a, { listCompanyId: list.id, inShortlist: true })).totalRecords).toBe(0);
      expect((await page(a, { listCompanyId: list.id, recordStatus: 'inDealscout' })).totalRecords).toBe(0);
      expect(
        (await a.post('/api/v1/list-company/idea/list', { listCompanyId: list.id, sortKey: 'bogus', sortOrder: 'asc' })).statusCode,
      ).toBe(400);
      expect((await b.post('/api/v1/list-company/idea/list', { listCompanyId: list.id })).statusCode).toBe(404);
    },
  );

  it("shortlists by ids and by 'all selected' filters (minus excluded rows), keeps the list's and the sources' totals, and deletes alike", async () => {
    const list = await newList(a);
    const s1 = await seedIdeas(list.id, 12, 'gamma');
    const s2 = await seedIdeas(list.id, 3, 'delta');
    const p0 = await page(a, { listCompanyId: list.id, pageSize: 100 });
    const gammaIds = p0.listCompanyIdeas.filter((x) => x.name.startsWith('gamma')).map((x) => x.id);
    const one = await a.put('/api/v1/list-company/idea/shortlist', { listId: list.id, ideaIds: [gammaIds[0], gammaIds[1]], status: true });
    expect(one.json()).toEqual({ success: true, message: '2 ideas shortlisted', count: 2 });
    // Again: nothing changes, and the totals do not count twice.
    expect(
      (await a.put('/api/v1/list-company/idea/shortlist', { listId: list.id, ideaIds: [gammaIds[0]], status: true })).json().count,
    ).toBe(0);
    // All selected: every 'gamma' idea but one excluded.
    const all = await a.put('/api/v1/list-company/idea/shortlist', {
      listId: list.id,
      status: true,
      ideaFilters: { text: 'gamma', excludeIds: [gammaIds[5]] },
    });
    expect(all.json().count).toBe(9);
    let l = await getList(a, list.id);
    expect(l).toMatchObject({ totalIdeas: 15, totalShortListedIdeas: 11 });
    expect(l.sources.find((s: { id: string }) => s.id === s1.sourceId)).toMatchObject({ total: 12, shortlisted: 11 });
    expect(l.sources.find((s: { id: string }) => s.id === s2.sourceId)).toMatchObject({ total: 3, shortlisted: 0 });
    expect((await page(a, { listCompanyId: list.id, inShortlist: true })).totalRecords).toBe(11);
    expect((await page(a, { listCompanyId: list.id, inShortlist: false })).totalRecords).toBe(4);
    // Neither ids nor filters: a clear 400, nothing changed.
    expect((await a.put('/api/v1/list-company/idea/shortlist', { listId: list.id, status: false })).json()).toMatchObject({
      success: false,
      message: 'Please select at least one idea',
    });
    // Another organization's call changes nothing.
    expect((await b.put('/api/v1/list-company/idea/shortlist', { listId: list.id, status: false, ideaFilters: {} })).statusCode).toBe(404);
    expect((await b.post('/api/v1/list-company/idea/delete', { listCompanyId: list.id, ideaFilters: {} })).statusCode).toBe(404);
    // Ids of another list are not touched through this one.
    const other = await newList(a);
    const o = await seedIdeas(other.id, 2, 'omega');
    const otherIds = (await page(a, { listCompanyId: other.id })).listCompanyIdeas.map((x) => x.id);
    expect((await a.put('/api/v1/list-company/idea/shortlist', { listId: list.id, ideaIds: otherIds, status: true })).json().count).toBe(0);
    expect(o.inserted).toBe(2);
    // Delete all selected shortlisted 'gamma' ideas.
    const del = await a.post('/api/v1/list-company/idea/delete', { listCompanyId: list.id, ideaFilters: { inShortlist: true } });
    expect(del.json()).toEqual({ success: true, message: '11 ideas deleted', count: 11 });
    l = await getList(a, list.id);
    expect(l).toMatchObject({ totalIdeas: 4, totalShortListedIdeas: 0 });
    expect(l.sources.find((s: { id: string }) => s.id === s1.sourceId)).toMatchObject({ total: 1, shortlisted: 0 });
    const ids = (await page(a, { listCompanyId: list.id })).listCompanyIdeas.map((x) => x.id);
    expect((await a.post('/api/v1/list-company/idea/delete', { listCompanyId: list.id, listCompanyIdeaIds: [ids[0]] })).json().count).toBe(
      1,
    );
    expect((await getList(a, list.id)).totalIdeas).toBe(3);
  });

  it(
    'deduplicates by normalized domain: a domain already in the list gains the new source instead of a second ' +
      'idea; removing a source keeps ideas another source proposed',
    async () => {
      const list = await newList(a);
      const s1 = await seedIdeas(list.id, 4, 'eps');
      const s2 = await seedIdeas(list.id, 4, 'eps', 2); // eps2, eps3 overlap; eps4, eps5 new
      expect(s2).toMatchObject({ inserted: 2, merged: 2 });
      let l = await getList(a, list.id);
      expect(l.totalIdeas).toBe(6);
      expect(l.sources.map((s: { total: number }) => s.total)).toEqual([4, 4]);
      const shared = (await page(a, { listCompanyId: list.id, text: 'eps2.' })).listCompanyIdeas[0];
      expect(shared.sourceIds.sort()).toEqual([s1.sourceId, s2.sourceId].sort());
      expect((await b.del(`/api/v1/list-company/source/${s1.sourceId}`)).statusCode).toBe(404);
      expect((await a.del(`/api/v1/list-company/source/${s1.sourceId}`)).json()).toEqual({ success: true, message: 'Source removed' });
      l = await getList(a, list.id);
      expect(l).toMatchObject({ totalIdeas: 4, totalSources: 1 });
      expect((await page(a, { listCompanyId: list.id, text: 'eps2.' })).listCompanyIdeas[0].sourceIds).toEqual([s2.sourceId]);
    },
  );

  it(
    'completes a list: confirmation totals, shortlisted ideas become companies (status inDealscout), an existing ' +
      'domain is linked, running it twice changes nothing',
    async () => {
      const existing = await newCompany(a, { name: 'Zeta Existing', website: 'https://zeta1.example.com' });
      const list = await newList(a);
      await seedIdeas(list.id, 4, 'zeta');
      await a.put('/api/v1/list-company/idea/shortlist', { listId: list.id, status: true, ideaFilters: { text: 'zeta', excludeIds: [] } });
      const unpick = (await page(a, { listCompanyId: list.id, text: 'zeta3.' })).listCompanyIdeas[0].id;
      await a.put('/api/v1/list-company/idea/shortlist', { listId: list.id, ideaIds: [unpick], status: false });
      const conf = await a.get(`/api/v1/list-company/${list.id}/complete-confirmation`);
      expect(conf.json()).toEqual({ success: true, total: 3, existing: 1, candidate: 2 });
      expect((await b.get(`/api/v1/list-company/${list.id}/complete-confirmation`)).statusCode).toBe(404);
      expect((await b.post(`/api/v1/list-company/${list.id}/complete`)).statusCode).toBe(404);
      const done = await a.post(`/api/v1/list-company/${list.id}/complete`);
      expect(done.json()).toMatchObject({ success: true, message: 'List completed', created: 2, linked: 1, list: { status: 'completed' } });
      const taken = (await page(a, { listCompanyId: list.id, recordStatus: ['inDealscout'], pageSize: 100 })).listCompanyIdeas;
      expect(taken).toHaveLength(3);
      expect(taken.find((x) => x.domain === 'zeta1.example.com')!.company!.id).toBe(existing.id);
      const companies = await ctx
        .em()
        .getConnection()
        .execute<{ n: number }[]>(`select count(*)::int as n from company where organization_id = ? and domain like 'zeta%'`, [orgA]);
      expect(companies[0].n).toBe(3);
      const again = await a.post(`/api/v1/list-company/${list.id}/complete`);
      expect(again.json()).toMatchObject({ created: 0, linked: 0 });
      expect(
        (
          await ctx
            .em()
            .getConnection()
            .execute<{ n: number }[]>(`select count(*)::int as n from company where organization_id = ? and domain like 'zeta%'`, [orgA])
        )[0].n,
      ).toBe(3);
      expect((await a.get(`/api/v1/list-company/${list.id}/complete-confirmation`)).json()).toEqual({
        success: true,
        total: 0,
        existing: 0,
        candidate: 0,
      });
    },
  );

  it('exports ideas as a streamed, formula-safe CSV with the source columns', async () => {
    const list = await newList(a, 'Export me');
    await a.post('/api/v1/list-company/idea', { id: list.id, companyName: '=HYPERLINK("http://evil")', website: 'evil.example.com' });
    await seedIdeas(list.id, 3, 'eta');
    const res = await a.post('/api/v1/list-company/idea/export', { listCompanyId: list.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('Export-me-ideas-');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Name,Website,Domain,Shortlisted,Status,Sources,Created,n');
    expect(lines).toHaveLength(5);
    expect(lines.find((x) => x.includes('evil'))!.startsWith(`"'=HYPERLINK(""http://evil"")"`)).toBe(true);
    expect(lines[1]).toMatch(/^eta 2,https:\/\/eta2\.example\.com,eta2\.example\.com,No,idea,csv,.*,2$/);
    expect((await b.post('/api/v1/list-company/idea/export', { listCompanyId: list.id })).statusCode).toBe(404);
  });

  it("exports the list's enrichment columns, each value read by its response schema (one field its value, several labelled), never JSON", async () => {
    const list = await newList(a, 'Enriched export');
    await seedIdeas(list.id, 2, 'iota');
    const configs = (await a.get('/api/v1/enrichment/idea/configs')).json().configs as { id: string; enrichmentType: string }[];
    const configId = configs.find((c) => c.enrichmentType === 'llm')!.id;
    const create = async (name: string, schema: { name: string; type: string }[]) => {
      const res = await a.post('/api/v1/enrichment', {
        configId,
        entityType: 'idea',
        listId: list.id,
        name,
        prompt: 'x',
        schema: schema.map((i) => ({ ...i, description: i.name, required: true })),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const profile = await create('Profile', [
      { name: 'employees', type: 'number' },
      { name: 'industry', type: 'string' },
    ]);
    const size = await create('Head count', [{ name: 'employees', type: 'number' }]);
    const ideas = await ctx
      .em()
      .getConnection()
      .execute<{ id: string; name: string }[]>(`select id::text, name from idea where organization_id = ? and list_id = ? order by name`, [
        orgA,
        list.id,
      ]);
    const put = (enrichmentId: string, ideaId: string, result: unknown) =>
      ctx
        .em()
        .getConnection()
        .execute(
          `insert into enrichment_result (id, organization_id, enrichment_id, entity_type, entity_id, status, value, sources, updated_at)
       values (gen_random_uuid(), ?, ?, 'idea', ?, 'complete', ?::jsonb, '[]'::jsonb, now())`,
          [orgA, enrichmentId, ideaId, JSON.stringify({ result })],
        );
    await put(profile, ideas[0].id, { industry: 'Robotics', employees: 4400 });
    await put(size, ideas[0].id, { employees: 4400 });
    const res = await a.post('/api/v1/list-company/idea/export', { listCompanyId: list.id });
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Name,Website,Domain,Shortlisted,Status,Sources,Created,n,Profile,Head count');
    const row = lines.find((l) => l.startsWith(`${ideas[0].name},`))!;
    expect(row.endsWith(',Employees: 4400; Industry: Robotics,4400')).toBe(true);
    expect(row).not.toContain('{');
    // An idea without results: empty cells.
    expect(lines.find((l) => l.startsWith(`${ideas[1].name},`))!.endsWith(',,')).toBe(true);
  });

  it('estimates the total above 10,000 matches (and says so), exact below', async () => {
    const list = await newList(a);
    // 10,500 ideas, 10,400 of them matching 'big'.
    await seedIdeas(list.id, 10_400, 'big');
    await seedIdeas(list.id, 100, 'small');
    await ctx.em().getConnection().execute('analyze idea');
    const exact = await page(a, { listCompanyId: list.id, text: 'small' });
    expect(exact).toMatchObject({ totalRecords: 100, totalIsEstimate: false });
    const big = await page(a, { listCompanyId: list.id, text: 'big' });
    expect(big.listCompanyIdeas).toHaveLength(10);
    if (big.totalIsEstimate) {
      expect(big.totalRecords).toBeGreaterThan(10_000);
      expect(big.totalRecords % 100).toBe(0);
    } else {
      expect(big.totalRecords).toBe(10_400);
    }
    expect((await page(a, { listCompanyId: list.id })).totalRecords).toBe(10_500);
  });

  it(
    'pages the middle of a large list from its page-boundary map: the same rows as the offset walk, in every ' +
      'mapped order; a changed list walks by offset until rebuilt',
    async () => {
      const list = await newList(a);
      await seedIdeas(list.id, 21_000, 'mid');
      const conn = ctx.em().getConnection();
      // Ties on the sort key: 3,000 ideas share one created_at (the id breaks them).
      await conn.execute(
        `update idea set created_at = '2026-01-02 03:04:05.123456+00' where organization_id = '${orgA}' and list_id = '${list.id}' and name like 'mid 1%'`,
      );
      await conn.execute('analyze idea');
      const expected = async (order: string) =>
        (await conn.execute(`select id from idea where organization_id = '${orgA}' and list_id = '${list.id}' order by ${order}`)).map(
          (r) => String(r.id),
        );
      const byCreated = await expected('created_at desc, id desc');
      const byName = await expected('lower(name) asc, id asc');
      forgetIdeaBoundaries();
      const where = ideaWhere(orgA, list.id, {});
      // No map yet: null (a build starts in the background), and the route answers by offset meanwhile.
      expect(await pageFromBoundaries(ctx.em(), orgA, list.id, ideaOrder(null, null), where, 7_000, 10, true)).toBeNull();
      expect((await page(a, { listCompanyId: list.id, pageIndex: 700 })).listCompanyIdeas.map((i) => i.id)).toEqual(
        byCreated.slice(7_000, 7_010),
      );
      await ideaBoundariesSettled();
      for (const rank of [600, 7_000, 9_999, 10_000, 10_513, 14_321, 20_000]) {
        expect(await pageFromBoundaries(ctx.em(), orgA, list.id, ideaOrder(null, null), where, rank, 10, true)).toEqual(
          byCreated.slice(rank, rank + 10),
        );
      }
      expect((await page(a, { listCompanyId: list.id, pageIndex: 1_234 })).listCompanyIdeas.map((i) => i.id)).toEqual(
        byCreated.slice(12_340, 12_350),
      );
      expect(await pageFromBoundaries(ctx.em(), orgA, list.id, ideaOrder('name', 'asc'), where, 8_000, 10, true)).toBeNull();
      await ideaBoundariesSettled();
      for (const rank of [8_000, 15_555]) {
        expect(await pageFromBoundaries(ctx.em(), orgA, list.id, ideaOrder('name', 'asc'), where, rank, 10, true)).toEqual(
          byName.slice(rank, rank + 10),
        );
      }
      expect(
        (await page(a, { listCompanyId: list.id, pageIndex: 999, sortKey: 'name', sortOrder: 'asc' })).listCompanyIdeas.map((i) => i.id),
      ).toEqual(byName.slice(9_990, 10_000));
      // An estimated set (a search matching every idea): a page between starts at its share of the list — consecutive matching rows.
      const searched = await page(a, { listCompanyId: list.id, text: 'mid', pageIndex: 1_500 });
      const at = searched.listCompanyIdeas.map((i) => byCreated.indexOf(i.id));
      expect(at).toHaveLength(10);
      expect(at.every((x, k) => x >= 0 && (k === 0 || x === at[k - 1] + 1))).toBe(true);
      // Shortlisting changes the list's version but neither its set nor its order: the maps are carried to the new version.
      const shortlisted = await a.put('/api/v1/list-company/idea/shortlist', {
        listId: list.id,
        status: true,
        ideaFilters: { text: 'mid 2' },
      });
      expect(shortlisted.json().count).toBeGreaterThan(1_000);
      expect(await pageFromBoundaries(ctx.em(), orgA, list.id, ideaOrder(null, null), where, 7_000, 10, true)).toEqual(
        byCreated.slice(7_000, 7_010),
      );
      expect(await pageFromBoundaries(ctx.em(), orgA, list.id, ideaOrder('name', 'asc'), where, 15_555, 10, true)).toEqual(
        byName.slice(15_555, 15_565),
      );
      const listed = await page(a, { listCompanyId: list.id, inShortlist: true });
      expect(listed.totalRecords).toBe(shortlisted.json().count);
      // One idea deleted: the map is of an older version of the list, exact pages walk by offset (still right).
      expect(
        (await a.post('/api/v1/list-company/idea/delete', { listCompanyId: list.id, listCompanyIdeaIds: [byCreated[5]] })).statusCode,
      ).toBe(200);
      expect(await pageFromBoundaries(ctx.em(), orgA, list.id, ideaOrder(null, null), where, 7_000, 10, true)).toBeNull();
      expect((await page(a, { listCompanyId: list.id, pageIndex: 700 })).listCompanyIdeas.map((i) => i.id)).toEqual(
        byCreated.filter((_, i) => i !== 5).slice(7_000, 7_010),
      );
      await ideaBoundariesSettled();
      expect(await pageFromBoundaries(ctx.em(), orgA, list.id, ideaOrder(null, null), where, 7_000, 10, true)).toEqual(
        byCreated.filter((_, i) => i !== 5).slice(7_000, 7_010),
      );
    },
    180_000,
  );

  it("a company's lists by its website's domain (the side panel): each list's idea, its models and enrichments; another organization sees none", async () => {
    const one = await newList(a, 'Panel one');
    const two = await newList(a, 'Panel two');
    await newList(a, 'Panel none');
    // Added by hand as the side panel does, in two spellings of one domain; a second add to one list is refused.
    expect(
      (
        await a.post('/api/v1/list-company/idea', {
          id: one.id,
          companyName: 'Harbor Labs',
          website: 'https://www.harborlabs.example.com/about',
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (await a.post('/api/v1/list-company/idea', { id: two.id, companyName: 'Harbor Labs', website: 'harborlabs.example.com' })).statusCode,
    ).toBe(201);
    const again = await a.post('/api/v1/list-company/idea', {
      id: one.id,
      companyName: 'Harbor Labs',
      website: 'http://harborlabs.example.com',
    });
    expect([again.statusCode, again.json().message]).toEqual([409, 'Idea with same domain already exists in this list']);
    const model = await a.post('/api/v1/scoring-model', {
      name: 'Fit',
      listCompanyId: one.id,
      ruleSets: [
        {
          id: 'rs',
          label: 'Revenue',
          weight: 100,
          defaultScore: 2,
          fieldData: { id: 'revenue', sourceType: 'mandatory', fieldType: 'double', fieldPath: 'data.revenue' },
          rules: [{ id: 'r', operator: 'greater_than', value: { primary: '5' }, score: 10 }],
        },
      ],
    });
    expect(model.statusCode, model.body).toBe(201);
    const modelId = model.json().scoringModel.id as string;
    const ideaOne = (await page(a, { listCompanyId: one.id })).listCompanyIdeas[0];
    await ctx.em().execute(
      `insert into idea_score (organization_id, model_id, idea_id, status, total_score, details, updated_at) values
          (?, ?, ?, 'completed', 7.5, '[]', now())`,
      [orgA, modelId, ideaOne.id],
    );
    expect((await a.put('/api/v1/list-company/idea/shortlist', { listId: one.id, ideaIds: [ideaOne.id], status: true })).statusCode).toBe(
      200,
    );

    const res = await a.post('/api/v1/list-company/idea/memberships', { website: 'HTTPS://harborlabs.example.com' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      domain: string;
      memberships: {
        list: { id: string; name: string };
        idea: { id: string; shortListed: boolean; scoringResults: { scoringModelId: string; totalScore: number }[] };
        scoringModels: { id: string; name: string }[];
      }[];
    };
    expect(body.domain).toBe('harborlabs.example.com');
    expect(body.memberships.map((m) => m.list.name)).toEqual(['Panel two', 'Panel one']);
    const m1 = body.memberships.find((m) => m.list.id === one.id)!;
    expect(m1.idea).toMatchObject({ id: ideaOne.id, shortListed: true });
    expect(m1.scoringModels).toEqual([{ id: modelId, name: 'Fit' }]);
    expect(m1.idea.scoringResults).toMatchObject([{ scoringModelId: modelId, totalScore: 7.5 }]);
    // Another organization: nothing of ours; bad input: 400.
    expect((await b.post('/api/v1/list-company/idea/memberships', { website: 'harborlabs.example.com' })).json().memberships).toEqual([]);
    const bad = await a.post('/api/v1/list-company/idea/memberships', { website: '' });
    expect([bad.statusCode, bad.json().message]).toEqual([400, 'Company website is required']);
    expect((await a.post('/api/v1/list-company/idea/memberships', { website: 'nowhere.example.com' })).json().memberships).toEqual([]);
  });
});
