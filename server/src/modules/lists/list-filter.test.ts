// The list source 'Companies matching filters' (POST /list-company/filter): the companies table's
// own search and filters counted (dryRun) and added to a list as ideas, de-duplicated by domain,
// with the upload's report; another organization's list is a 404 and its companies never come in;
// a bad filter is a 400 with the filter editor's message and changes nothing.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newCompany, f, uniq } from '../../../test/records';

describe("POST /list-company/filter: the list source 'Companies matching filters'", () => {
  let ctx: TestContext;
  let a: TestClient;
  let b: TestClient;
  const tag = uniq();

  beforeAll(async () => {
    ctx = await createTestApp();
    const oa = await createOrg(ctx, { name: 'Alpha' });
    const ob = await createOrg(ctx, { name: 'Beta' });
    a = await signedIn(ctx, oa.admin.email, '10.44.0.1');
    b = await signedIn(ctx, ob.admin.email, '10.44.0.2');
    for (const n of ['one', 'two', 'three'])
      await newCompany(a, { name: `Robotics ${tag} ${n}`, website: `https://robo-${n}-${tag}.example.com` });
    await newCompany(a, { name: `Bakery ${tag}`, website: `https://bakery-${tag}.example.com` });
    // Beta's companies match the same words: they must never reach Alpha's lists.
    for (const n of ['one', 'four'])
      await newCompany(b, { name: `Robotics ${tag} ${n}`, website: `https://beta-robo-${n}-${tag}.example.com` });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const newList = async (c: TestClient) =>
    (await c.post('/api/v1/list-company', { name: `Filter ${uniq()}` })).json().list as { id: string };
  const robotics = [f('name', [['contains', `robotics ${tag}`]], 'and')];

  it('counts the matches (dryRun, nothing added), adds them as ideas with the report, and a second run only finds them in the list', async () => {
    const list = await newList(a);
    const dry = await a.post('/api/v1/list-company/filter', { listCompanyId: list.id, filters: robotics, dryRun: true });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toMatchObject({ success: true, dryRun: true, total: 3, sourceId: null, list: null });
    expect((await a.get(`/api/v1/list-company/${list.id}`)).json().list).toMatchObject({ totalIdeas: 0, sources: [] });

    const run = await a.post('/api/v1/list-company/filter', { listCompanyId: list.id, filters: robotics });
    expect(run.statusCode, run.body).toBe(201);
    const r = run.json();
    expect(r).toMatchObject({
      dryRun: false,
      total: 3,
      inserted: 3,
      merged: 0,
      skipped: 0,
      message: '3 ideas added, 0 already in the list, 0 without a domain skipped',
    });
    expect(r.list.totalIdeas).toBe(3);
    expect(r.list.sources).toEqual([
      expect.objectContaining({
        id: r.sourceId,
        type: 'filter',
        status: 'completed',
        total: 3,
        statusReason: r.message,
        parameters: expect.objectContaining({ filters: robotics, matched: 3 }),
      }),
    ]);
    const ideas = (await a.post('/api/v1/list-company/idea/list', { listCompanyId: list.id })).json().listCompanyIdeas as {
      website: string;
    }[];
    expect(ideas.map((i) => i.website).sort()).toEqual(['one', 'three', 'two'].map((n) => `https://robo-${n}-${tag}.example.com`).sort());

    // The search text narrows like the table's: all four with 'tag', one new (the bakery).
    const again = (await a.post('/api/v1/list-company/filter', { listCompanyId: list.id, text: tag })).json();
    expect(again).toMatchObject({
      total: 4,
      inserted: 1,
      merged: 3,
      message: '1 idea added, 3 already in the list, 0 without a domain skipped',
    });
    expect(again.list.totalIdeas).toBe(4);
    expect(again.list.sources).toHaveLength(2);
  });

  it("another organization's list is a 404 and changes nothing; their companies never match", async () => {
    const theirs = await newList(b);
    const res = await a.post('/api/v1/list-company/filter', { listCompanyId: theirs.id, filters: robotics });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('List not found');
    expect((await a.post('/api/v1/list-company/filter', { listCompanyId: theirs.id, filters: robotics, dryRun: true })).statusCode).toBe(
      404,
    );
    expect((await b.get(`/api/v1/list-company/${theirs.id}`)).json().list).toMatchObject({ totalIdeas: 0, sources: [] });
    // Beta counts only its own two.
    expect((await b.post('/api/v1/list-company/filter', { listCompanyId: theirs.id, filters: robotics, dryRun: true })).json().total).toBe(
      2,
    );
  });

  it('a bad filter is a 400 with a clear message and adds nothing; no match is a 400 too', async () => {
    const list = await newList(a);
    const unknown = await a.post('/api/v1/list-company/filter', {
      listCompanyId: list.id,
      filters: [f('no_such_field', [['equals', 'x']])],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Unknown filter field');
    const empty = await a.post('/api/v1/list-company/filter', { listCompanyId: list.id, filters: [{ key: 'name', items: [] }] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Please fill in all condition values before saving.');
    const none = await a.post('/api/v1/list-company/filter', {
      listCompanyId: list.id,
      filters: [f('name', [['equals', `nothing ${tag}`]])],
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('No companies match these filters');
    expect((await a.get(`/api/v1/list-company/${list.id}`)).json().list).toMatchObject({ totalIdeas: 0, sources: [] });
  });
});
