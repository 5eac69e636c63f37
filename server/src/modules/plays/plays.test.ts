// Play routes (spec 001 §7 every /play route, §5 and §8 'Play'): the playbook table, save and
// publish checks, drafts per provider, duplicate / remove with the provided-by-product rules, roles
// (403) and other organizations (404).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { PlayDto } from '@dealscout/shared/contracts';
import { configFor } from '../enrichments/configs';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newContact } from '../../../test/records';

const text = (t: string) => ({ type: 'text', text: t });

describe('plays', () => {
  let ctx: TestContext;
  let admin: TestClient;
  let member: TestClient;
  let other: TestClient;
  let rival: TestClient;

  const save = (c: TestClient, body: Record<string, unknown>) => c.post('/api/v1/play', body);
  const book = async (c: TestClient, body: Record<string, unknown> = {}) => {
    const res = await c.post('/api/v1/play/playbook', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { playbooks: PlayDto[]; totalRecords: number; totalPages: number; hasRecords: boolean };
  };

  beforeAll(async () => {
    ctx = await createTestApp();
    const o = await createOrg(ctx, { name: 'Plays Co' });
    admin = await signedIn(ctx, o.admin.email);
    member = await signedIn(ctx, (await createUser(ctx, o.organization.id, { firstName: 'Mia' })).email);
    other = await signedIn(ctx, (await createUser(ctx, o.organization.id, { firstName: 'Otto' })).email);
    rival = await signedIn(ctx, (await createOrg(ctx, { name: 'Rival Co' })).admin.email);
  });
  afterAll(async () => ctx.close());

  it('every organization starts with the plays provided by the product: published, read-only, duplicable', async () => {
    const b = await book(member);
    expect(b.totalRecords).toBe(4);
    expect(b.playbooks.every((p) => p.isProvidedByProduct && p.status === 'published' && p.createdBy === null)).toBe(true);
    const provided = b.playbooks[0];
    const modify = await save(admin, { id: provided.id, name: 'Mine now', instructions: [text('x')], status: 'published' });
    expect([modify.statusCode, modify.json().message]).toEqual([403, 'Plays provided by Dealscout cannot be modified or removed.']);
    const remove = await admin.del(`/api/v1/play/remove/${provided.id}`);
    expect(remove.statusCode).toBe(403);
    const dup = await member.post(`/api/v1/play/duplicate/${provided.id}`);
    expect([dup.statusCode, dup.json().message]).toEqual([200, 'Play duplicated successfully.']);
    expect(dup.json().play).toMatchObject({ name: `${provided.name} (copy)`, isProvidedByProduct: false, createdBy: { firstName: 'Mia' } });
    const users = (await member.get('/api/v1/play/playbook-users')).json().users;
    expect(users[0]).toMatchObject({ id: 'dealscout', isProvidedByProduct: true });
    expect(users.map((u: { firstName: string }) => u.firstName)).toContain('Mia');
    // Only the rival's own provided plays.
    expect((await book(rival)).totalRecords).toBe(4);
    expect((await rival.get(`/api/v1/play/${dup.json().play.id}`)).statusCode).toBe(404);
  });

  it("publishing checks 'Instructions are required', 'Name is required', 'Body is required'; a draft needs a name", async () => {
    const fieldBox = { type: 'field-box', id: 'abcdefghijkl', fieldId: randomUUID() };
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'P', instructions: [] }, 'Instructions are required'],
      [{ name: '  ', instructions: [text('Hi')] }, 'Name is required'],
      [{ name: 'P', instructions: [text('  '), fieldBox] }, 'Body is required'],
    ];
    for (const [body, message] of cases) {
      const res = await save(member, { ...body, status: 'published' });
      expect([res.statusCode, res.json().message]).toEqual([400, message]);
    }
    const draft = await save(member, { name: '', instructions: [text('Hi')], status: 'draft' });
    expect([draft.statusCode, draft.json().message]).toEqual([400, 'Please enter a name for the play']);
    const bad = await save(member, { name: 'Nul\u0000', instructions: [text('Hi')], status: 'draft' });
    expect(bad.statusCode).toBe(400);
    const lone = await save(member, { name: 'Lone \ud800', instructions: [text('Hi')], status: 'draft' });
    expect(lone.statusCode).toBe(400);
    const badId = await save(member, { id: 'nope', name: 'x', instructions: [text('Hi')] });
    expect([badId.statusCode, badId.json().message]).toEqual([400, 'Invalid play']);
  });

  it('saves a draft, publishes it (draft → published), versions every change, and keeps enrichmentsIncluded', async () => {
    const e = await member.post('/api/v1/enrichment', {
      configId: configFor('company', 'llm')!.id,
      name: 'Recent news',
      prompt: 'news',
      schema: [{ name: 'answer', type: 'string', description: 'd', required: true }],
    });
    expect(e.statusCode, e.body).toBe(201);
    const enrichmentId = e.json().id as string;
    const instructions = [text('Write to the founder about '), { type: 'enrich-box', id: 'enrichbox001', enrichmentId }];
    const created = await save(member, {
      name: 'Founder note',
      description: 'First touch',
      instructions,
      status: 'draft',
      llmProvider: 'openai',
      title: 'Hello',
    });
    expect(created.statusCode, created.body).toBe(201);
    const p = created.json().play as PlayDto;
    expect(p).toMatchObject({ name: 'Founder note', status: 'draft', playType: 'openai', version: 1, subject: 'Hello', useCount: 0 });
    expect(p.enrichmentsIncluded).toEqual([{ id: enrichmentId, name: 'Recent news' }]);
    const pub = await save(member, { id: p.id, name: 'Founder note', instructions, status: 'published' });
    expect([pub.statusCode, pub.json().message, pub.json().play.status, pub.json().play.version]).toEqual([
      200,
      'Play published successfully.',
      'published',
      2,
    ]);
    // Published stays published.
    expect((await save(member, { id: p.id, name: 'Founder note 2', instructions, status: 'draft' })).json().play.status).toBe('published');
    const got = await member.get(`/api/v1/play/${p.id}`);
    expect(got.json().play).toMatchObject({ name: 'Founder note 2', version: 3 });
    expect((await member.get('/api/v1/play')).json().plays.map((x: PlayDto) => x.name)).toContain('Founder note 2');
    // Another member may not change it (403); an admin may; a rival does not see it (404).
    expect((await save(other, { id: p.id, name: 'Taken', instructions, status: 'published' })).statusCode).toBe(403);
    expect((await other.del(`/api/v1/play/remove/${p.id}`)).json().message).toBe('Only the creator of a play or an admin can change it.');
    expect((await save(rival, { id: p.id, name: 'Taken', instructions, status: 'published' })).statusCode).toBe(404);
    expect((await rival.del(`/api/v1/play/remove/${p.id}`)).statusCode).toBe(404);
    expect((await rival.post(`/api/v1/play/duplicate/${p.id}`)).statusCode).toBe(404);
    expect((await save(admin, { id: p.id, name: 'Founder note 3', instructions, status: 'published' })).statusCode).toBe(200);
    const removed = await member.del(`/api/v1/play/remove/${p.id}`);
    expect([removed.statusCode, removed.json().message]).toEqual([200, 'Play removed successfully.']);
    expect((await member.get(`/api/v1/play/${p.id}`)).statusCode).toBe(404);
  });

  it('the playbook table filters by text, type, creator (and the product), created date (DD/MM/YYYY) and sorts', async () => {
    await save(other, { name: 'Zebra template', instructions: [text('Dear friend')], status: 'published', llmProvider: 'non_ai' });
    await save(other, { name: 'Alpha ai', instructions: [text('Write')], status: 'published', llmProvider: 'openai' });
    const otherId = (await other.get('/api/v1/user')).json().user.id as string;
    expect((await book(other, { text: 'zebra' })).playbooks.map((p) => p.name)).toEqual(['Zebra template']);
    expect((await book(other, { playType: ['non_ai'] })).playbooks.map((p) => p.name)).toEqual(['Zebra template']);
    const mine = await book(other, { createdBy: [{ id: otherId, originalId: otherId, isProvidedByProduct: false }] });
    expect(mine.playbooks.map((p) => p.name).sort()).toEqual(['Alpha ai', 'Zebra template']);
    const product = await book(other, { createdBy: [{ id: 'dealscout', isProvidedByProduct: true }] });
    expect(product.totalRecords).toBe(4);
    const today = new Date();
    const dd = `${String(today.getUTCDate()).padStart(2, '0')}/${String(today.getUTCMonth() + 1).padStart(2, '0')}/${today.getUTCFullYear()}`;
    expect((await book(other, { createdAt: [dd, dd] })).totalRecords).toBeGreaterThanOrEqual(6);
    expect((await book(other, { createdAt: ['01/01/2001', '02/01/2001'] })).totalRecords).toBe(0);
    expect((await other.post('/api/v1/play/playbook', { createdAt: ['2001-01-01'] })).statusCode).toBe(400);
    expect((await other.post('/api/v1/play/playbook', { createdAt: ['31/02/2001'] })).json().message).toBe('Dates are DD/MM/YYYY');
    const asc = await book(other, { sortKey: 'name', sortOrder: 'asc', text: 'a' });
    const names = asc.playbooks.map((p) => p.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    const all = await book(other, {});
    expect(all.totalPages).toBe(Math.ceil(all.totalRecords / 10));
    expect(all.playbooks.length).toBeLessThanOrEqual(10);
  });

  it('keeps the editor draft per user and provider, and removes it', async () => {
    expect((await member.get('/api/v1/play/draft/openai')).json().draft).toBeNull();
    const put = await member.put('/api/v1/play/draft/openai', { name: 'Half done', instructions: [text('Some')] });
    expect(put.statusCode, put.body).toBe(200);
    expect((await member.get('/api/v1/play/draft/openai')).json().draft).toMatchObject({ name: 'Half done', provider: 'openai' });
    expect((await member.get('/api/v1/play/draft/non_ai')).json().draft).toBeNull();
    expect((await other.get('/api/v1/play/draft/openai')).json().draft).toBeNull();
    expect((await member.get('/api/v1/play/draft/gpt')).statusCode).toBe(400);
    expect((await member.del('/api/v1/play/draft?provider=openai')).statusCode).toBe(200);
    expect((await member.get('/api/v1/play/draft/openai')).json().draft).toBeNull();
    // Publishing a new play removes that provider's draft.
    await member.put('/api/v1/play/draft/non_ai', { name: 'Tmpl' });
    await save(member, { name: 'Tmpl', instructions: [text('Hi')], status: 'published', llmProvider: 'non_ai' });
    expect((await member.get('/api/v1/play/draft/non_ai')).json().draft).toBeNull();
  });

  it("another organization's ids inside a draft or a play (the test contact, a box's field or enrichment) answer 404 and are not kept", async () => {
    const rivalContactId = (await newContact(rival, { lastName: 'Rival' })).id;
    const rivalField = await rival.post('/api/v1/entity/field', { label: 'Rival notes', dataType: 'string', entityType: 'contact' });
    expect(rivalField.statusCode, rivalField.body).toBeLessThan(300);
    const rivalFieldId = rivalField.json().field.id as string;
    const rivalEnrichment = await rival.post('/api/v1/enrichment', {
      configId: configFor('contact', 'llm')!.id,
      name: 'Rival research',
      prompt: 'x',
      schema: [{ name: 'answer', type: 'string', description: 'd', required: true }],
    });
    expect(rivalEnrichment.statusCode, rivalEnrichment.body).toBe(201);
    const rivalEnrichmentId = rivalEnrichment.json().id as string;
    const fieldBox = { type: 'field-box', id: 'fieldbox0009', fieldId: rivalFieldId };
    const enrichBox = { type: 'enrich-box', id: 'enrichbox009', enrichmentId: rivalEnrichmentId };

    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'Spy', targetContactId: rivalContactId }, 'Contact not found'],
      [{ name: 'Spy', instructions: [text('Hi '), fieldBox] }, 'Field not found'],
      [{ name: 'Spy', instructions: [text('Hi '), enrichBox] }, 'Enrichment not found.'],
    ];
    for (const [body, message] of cases) {
      const res = await member.put('/api/v1/play/draft/openai', body);
      expect([res.statusCode, res.json().message], JSON.stringify(body)).toEqual([404, message]);
      expect((await member.get('/api/v1/play/draft/openai')).json().draft).toBeNull();
    }
    for (const [body, message] of cases.slice(1)) {
      const res = await save(member, { ...body, status: 'draft' });
      expect([res.statusCode, res.json().message], JSON.stringify(body)).toEqual([404, message]);
    }
    expect((await book(member, { text: 'Spy' })).totalRecords).toBe(0);
    // The organization's own contact is kept and echoed back.
    const ownContactId = (await newContact(member, { lastName: 'Own' })).id;
    const ok = await member.put('/api/v1/play/draft/openai', { name: 'Mine', targetContactId: ownContactId });
    expect([ok.statusCode, ok.json().draft.targetContactId]).toEqual([200, ownContactId]);
    await member.del('/api/v1/play/draft');
  });

  it('estimates a run before it starts: model calls, credits remaining, and whether they suffice', async () => {
    const id = (await save(member, { name: 'Estimate me', instructions: [text('Hi')], status: 'published' })).json().play.id as string;
    const unlimited = (await member.post('/api/v1/play/estimate', { playId: id, count: 12 })).json();
    expect(unlimited).toMatchObject({ modelCalls: 12, creditsRemaining: null, exceedsCredits: false });
    await ctx
      .em()
      .execute(
        `update organization set ai_credits_total = 10, ai_credits_used = 3 where id = (select organization_id from play where id = ?)`,
        [id],
      );
    const short = (await member.post('/api/v1/play/estimate', { playId: id, count: 12 })).json();
    expect(short).toMatchObject({
      modelCalls: 12,
      creditsRemaining: 7,
      creditsTotal: 10,
      exceedsCredits: true,
      message: 'This run needs 12 AI credits; 7 remain.',
    });
    const tmpl = (
      await save(member, { name: 'Estimate tmpl', instructions: [text('Hi')], status: 'published', llmProvider: 'non_ai' })
    ).json().play.id;
    expect((await member.post('/api/v1/play/estimate', { playId: tmpl, count: 12 })).json()).toMatchObject({
      modelCalls: 0,
      exceedsCredits: false,
    });
    expect((await rival.post('/api/v1/play/estimate', { playId: id, count: 1 })).statusCode).toBe(404);
  });
});
