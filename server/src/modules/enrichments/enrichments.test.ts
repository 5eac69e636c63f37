// Enrichment routes: configs, create / update / delete with the form's messages, generated names,
// colour and columns, field assignment with the primary rule, the table, and other organizations' ids.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { EnrichmentConfigDto, EnrichmentDto } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../test/helpers';

const prompt = [{ type: 'text', text: 'What does this company sell?' }];
const schema = [{ name: 'answer', type: 'string', description: "Your answer to the user's request.", required: true, createColumn: false }];

describe('enrichments: configs, CRUD, assignment, table', () => {
  let ctx: TestContext;
  let c: TestClient;
  let member: TestClient;
  let rival: TestClient;
  let configs: EnrichmentConfigDto[];
  let fieldId: string;
  let field2Id: string;
  let contactFieldId: string;
  const cfg = (entityType: string, type: string) => configs.find((x) => x.entityType === entityType && x.enrichmentType === type)!;

  const create = async (client: TestClient, body: Record<string, unknown>) => {
    const res = await client.post('/api/v1/enrichment', body);
    return { res, e: res.statusCode === 201 ? (res.json().enrichment as EnrichmentDto) : null };
  };
  const llm = (name: string, extra: Record<string, unknown> = {}) => ({
    configId: cfg('company', 'llm').id,
    name,
    prompt,
    schema,
    ...extra,
  });
  const field = async (client: TestClient, label: string, entityType = 'company', dataType = 'string') => {
    const res = await client.post('/api/v1/entity/field', { label, dataType, entityType });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json().field.id as string;
  };

  beforeAll(async () => {
    ctx = await createTestApp();
    const o = await createOrg(ctx, { name: 'Enrich Co' });
    c = await signedIn(ctx, o.admin.email);
    const u = await createUser(ctx, o.organization.id, { firstName: 'Mia', lastName: 'Member' });
    member = await signedIn(ctx, u.email);
    const o2 = await createOrg(ctx, { name: 'Rival Co' });
    rival = await signedIn(ctx, o2.admin.email);
    configs = (await c.get('/api/v1/enrichment/configs')).json().configs;
    fieldId = await field(c, 'Industry');
    field2Id = await field(c, 'Summary');
    contactFieldId = await field(c, 'Seniority', 'contact');
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('lists the configs of the four types (LinkedIn for companies only) and the idea configs with their schemas', async () => {
    const types = configs.map((x) => `${x.entityType}:${x.enrichmentType}`).sort();
    expect(types).toEqual(
      [
        'company:agent',
        'company:deepresearchagent',
        'company:llm',
        'company:mixrankCompanyDetails',
        'contact:agent',
        'contact:deepresearchagent',
        'contact:llm',
      ].sort(),
    );
    expect(cfg('company', 'mixrankCompanyDetails')).toMatchObject({
      label: 'LinkedIn',
      namePrefix: 'Linkedin',
      provider: 'mixrank',
      hasPrompt: false,
    });
    expect(cfg('company', 'llm')).toMatchObject({ label: 'LLM Prompt', provider: 'dealscout', hasPrompt: true });
    const idea = (await c.get('/api/v1/enrichment/idea/configs')).json().configs as EnrichmentConfigDto[];
    expect(idea.map((x) => x.enrichmentType).sort()).toEqual(['agent', 'deepresearchagent', 'llm', 'mixrankCompanyDetails']);
    const linkedin = idea.find((x) => x.enrichmentType === 'mixrankCompanyDetails')!;
    expect(linkedin.responseSchema!.map((s) => s.name)).toEqual([
      'url',
      'name',
      'size',
      'type',
      'country',
      'founded',
      'website',
      'description',
      'employee_count',
      'follower_count',
    ]);
    expect(linkedin.responseSchema!.filter((s) => s.type === 'number').map((s) => s.name)).toEqual([
      'founded',
      'employee_count',
      'follower_count',
    ]);
  });

  it('creates an LLM enrichment (201 with id), with its strict JSON schema, and reads it back', async () => {
    const { res, e } = await create(c, llm('Industry finder', { color: 'teal', llmModelId: 'default' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().id).toBe(e!.id);
    expect(e).toMatchObject({
      name: 'Industry finder',
      entityType: 'company',
      provider: 'dealscout',
      color: 'teal',
      llmModelId: 'default',
      entityFieldId: null,
      isPrimary: false,
    });
    expect(e!.config).toMatchObject({ enrichmentType: 'llm' });
    expect(e!.createdBy).toMatchObject({ firstName: 'Ada', lastName: 'Admin' });
    expect(e!.data.jsonSchema).toEqual({
      type: 'object',
      properties: { answer: { type: 'string', description: "Your answer to the user's request." } },
      required: ['answer'],
      additionalProperties: false,
    });
    const got = await c.get(`/api/v1/enrichment/${e!.id}`);
    expect(got.json().enrichment.data.prompt).toEqual(prompt);
  });

  it("refuses an incomplete form with the form's messages and creates nothing", async () => {
    const before = (await c.post('/api/v1/enrichment/list', { take: 100 })).json().totalRecords;
    const cases: [Record<string, unknown>, string][] = [
      [llm(''), 'Name is required'],
      [llm('   '), 'Name is required'],
      [llm('X', { prompt: [] }), 'Prompt is required'],
      [llm('X', { prompt: [{ type: 'text', text: '  ' }] }), 'Prompt is required'],
      [llm('X', { prompt: '' }), 'Prompt is required'],
      [llm('X', { schema: [] }), 'Schema is required'],
      [llm('X', { schema: [{ ...schema[0], name: '' }] }), 'Schema name is required'],
      [llm('X', { schema: [{ ...schema[0], description: ' ' }] }), 'Schema description is required'],
      [
        llm('X', { schema: [{ name: 'tier', type: 'categories', description: 'Tier', required: true, enumValues: [] }] }),
        'Schema categorical values are required',
      ],
      [{ configId: cfg('company', 'mixrankCompanyDetails').id, enrichmentName: '' }, 'Name is required'],
      [{ configId: 'nope', name: 'X', prompt, schema }, 'Invalid Enrichment'],
      [llm('X', { entityType: 'contact' }), 'Invalid Enrichment'],
    ];
    for (const [body, message] of cases) {
      const res = await c.post('/api/v1/enrichment', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await c.post('/api/v1/enrichment/list', { take: 100 })).json().totalRecords).toBe(before);
  });

  it('generates names as prefix + next number, per type, and the LinkedIn form takes enrichmentName', async () => {
    const a = await create(c, llm('', { generateName: true }));
    const b = await create(c, llm('', { generateName: true }));
    expect([a.e!.name, b.e!.name]).toEqual(['LLM Prompt 1', 'LLM Prompt 2']);
    const next = await c.get(`/api/v1/enrichment/next-name?configId=${cfg('company', 'llm').id}`);
    expect(next.json().name).toBe('LLM Prompt 3');
    expect((await c.get(`/api/v1/enrichment/next-name?configId=${cfg('company', 'agent').id}`)).json().name).toBe('AI Agent 1');
    expect((await c.get(`/api/v1/enrichment/next-name?configId=${cfg('company', 'deepresearchagent').id}`)).json().name).toBe(
      'Deep Research Agent 1',
    );
    const li = await create(c, { configId: cfg('company', 'mixrankCompanyDetails').id, enrichmentName: '', generateName: true });
    expect(li.e!.name).toBe('Linkedin 1');
    const li2 = await create(c, { configId: cfg('company', 'mixrankCompanyDetails').id, enrichmentName: 'Company profile' });
    expect(li2.e).toMatchObject({ name: 'Company profile', provider: 'mixrank', data: { prompt: null } });
    expect(li2.e!.data.schema.map((s) => s.name)).toContain('employee_count');
    expect((await c.get(`/api/v1/enrichment/next-name?configId=${cfg('company', 'mixrankCompanyDetails').id}`)).json().name).toBe(
      'Linkedin 2',
    );
    expect((await c.get('/api/v1/enrichment/next-name?configId=nope')).json().message).toBe('Invalid Enrichment');
  });

  it('updates an enrichment, keeping its type; sets colour and list columns', async () => {
    const { e } = await create(c, llm('Old name'));
    const res = await c.put('/api/v1/enrichment', llm('New name', { id: e!.id, prompt: 'Plain text prompt', color: 'rose' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().enrichment).toMatchObject({ name: 'New name', color: 'rose', data: { prompt: 'Plain text prompt' } });
    expect((await c.put('/api/v1/enrichment', llm('', { id: e!.id }))).json().message).toBe('Name is required');
    expect((await c.put('/api/v1/enrichment', { ...llm('Y'), id: e!.id, configId: cfg('company', 'agent').id })).json().message).toBe(
      'Invalid Enrichment',
    );
    const color = await c.put('/api/v1/enrichment/set-color', { enrichmentId: e!.id, color: 'violet' });
    expect(color.json().enrichment.color).toBe('violet');
    expect((await c.put('/api/v1/enrichment/set-color', { enrichmentId: e!.id, color: 'brown' })).statusCode).toBe(400);
    const cols = await c.put('/api/v1/enrichment/column', {
      enrichmentId: e!.id,
      listColumns: [{ id: 'c1', path: '$.result.answer', label: 'Answer' }],
    });
    expect(cols.json().enrichment.listColumns).toEqual([
      { id: 'c1', path: '$.result.answer', keys: [], label: 'Answer', order: 0, width: 70 },
    ]);
  });

  it('assigns: the first enrichment of a field becomes primary; set-primary moves it; unassign and delete hand it on', async () => {
    const one = (await create(c, llm('Industry A'))).e!;
    const two = (await create(c, llm('Industry B'))).e!;
    const three = (await create(c, llm('Industry C', { fieldIdToAssign: field2Id }))).e!;
    expect(three).toMatchObject({ entityFieldId: field2Id, isPrimary: true, field: { label: 'Summary' } });

    const a1 = await c.post('/api/v1/enrichment/assign', { fieldId, enrichmentId: one.id });
    expect(a1.statusCode, a1.body).toBe(200);
    expect(a1.json().enrichment).toMatchObject({ entityFieldId: fieldId, isPrimary: true });
    const a2 = await c.post('/api/v1/enrichment/assign', { fieldId, enrichmentId: two.id });
    expect(a2.json().enrichment).toMatchObject({ entityFieldId: fieldId, isPrimary: false });

    const fields = (await c.get('/api/v1/entity/fields?entityType=company')).json().fields as {
      id: string;
      assignedEnrichments: { id: string; isPrimary: boolean }[];
    }[];
    expect(
      fields
        .find((f) => f.id === fieldId)!
        .assignedEnrichments.map((x) => [x.id, x.isPrimary])
        .sort(),
    ).toEqual(
      [
        [one.id, true],
        [two.id, false],
      ].sort(),
    );

    const p = await c.put('/api/v1/enrichment/set-primary', { fieldId, enrichmentId: two.id });
    expect(p.json().enrichment.isPrimary).toBe(true);
    expect((await c.get(`/api/v1/enrichment/${one.id}`)).json().enrichment.isPrimary).toBe(false);

    // Unassigning the primary one makes the remaining one primary.
    const u = await c.post('/api/v1/enrichment/unassign', { fieldId, enrichmentId: two.id });
    expect(u.json().enrichment).toMatchObject({ entityFieldId: null, isPrimary: false });
    expect((await c.get(`/api/v1/enrichment/${one.id}`)).json().enrichment.isPrimary).toBe(true);
    expect((await c.post('/api/v1/enrichment/unassign', { fieldId, enrichmentId: two.id })).json().message).toBe(
      'The enrichment is not assigned to this field.',
    );
    expect((await c.put('/api/v1/enrichment/set-primary', { fieldId: field2Id, enrichmentId: one.id })).json().message).toBe(
      'The enrichment is not assigned to this field.',
    );

    // Deleting the primary one hands the role on too.
    await c.post('/api/v1/enrichment/assign', { fieldId, enrichmentId: two.id });
    const del = await c.del(`/api/v1/enrichment/${one.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toBe('Enrichment deleted successfully.');
    expect((await c.get(`/api/v1/enrichment/${one.id}`)).statusCode).toBe(404);
    expect((await c.get(`/api/v1/enrichment/${two.id}`)).json().enrichment.isPrimary).toBe(true);

    // A contact field cannot take a company enrichment; a built-in field cannot take any.
    expect((await c.post('/api/v1/enrichment/assign', { fieldId: contactFieldId, enrichmentId: two.id })).json().message).toBe(
      'The field belongs to another entity type.',
    );
    const builtIn = fields.find((f) => (f as unknown as { builtIn: boolean }).builtIn)!;
    expect((await c.post('/api/v1/enrichment/assign', { fieldId: builtIn.id, enrichmentId: two.id })).json().message).toBe(
      'Built-in fields cannot be assigned an enrichment.',
    );
    expect((await c.post('/api/v1/enrichment/assign', { fieldId: randomUUID(), enrichmentId: two.id })).statusCode).toBe(404);
  });

  it('two first assignments to one field at once leave exactly one primary', async () => {
    const f = await field(c, 'Race field');
    const a = (await create(c, llm('Race A'))).e!;
    const b = (await create(c, llm('Race B'))).e!;
    await Promise.all([
      c.post('/api/v1/enrichment/assign', { fieldId: f, enrichmentId: a.id }),
      c.post('/api/v1/enrichment/assign', { fieldId: f, enrichmentId: b.id }),
    ]);
    const rows = await ctx
      .em()
      .execute<{ n: number }[]>(`select count(*)::int as n from enrichment where field_id = ? and is_primary`, [f]);
    expect(rows[0].n).toBe(1);
  });

  it('pages the table with search, provider, created-by and created-date filters and sorts', async () => {
    const mine = (await create(member, llm('Member made thing'))).e!;
    expect(mine.createdBy).toMatchObject({ firstName: 'Mia' });
    await create(c, { configId: cfg('company', 'mixrankCompanyDetails').id, enrichmentName: 'Zeta LinkedIn' });

    const all = (await c.post('/api/v1/enrichment/list', { take: 100 })).json();
    expect(all.totalRecords).toBe(all.enrichments.length);
    expect(all.pageSize).toBe(100);
    // Default: newest first.
    const created = all.enrichments.map((e: EnrichmentDto) => e.createdAt);
    expect([...created].sort().reverse()).toEqual(created);

    const p0 = (await c.post('/api/v1/enrichment/list', { pageIndex: 0, pageSize: 3, sortKey: 'name', sortOrder: 'asc' })).json();
    const p1 = (await c.post('/api/v1/enrichment/list', { pageIndex: 1, pageSize: 3, sortKey: 'name', sortOrder: 'asc' })).json();
    expect(p0.enrichments).toHaveLength(3);
    expect(p0.totalPages).toBe(Math.ceil(all.totalRecords / 3));
    const names = [...p0.enrichments, ...p1.enrichments].map((e: EnrichmentDto) => e.name.toLowerCase());
    expect([...names].sort()).toEqual(names);
    expect(p0.enrichments.map((e: EnrichmentDto) => e.id)).not.toContain(p1.enrichments[0].id);

    const search = (await c.post('/api/v1/enrichment/list', { text: 'member MADE' })).json();
    expect(search.enrichments.map((e: EnrichmentDto) => e.id)).toEqual([mine.id]);
    const mixrank = (await c.post('/api/v1/enrichment/list', { provider: ['mixrank'], take: 100 })).json();
    expect(mixrank.enrichments.length).toBeGreaterThan(0);
    expect(mixrank.enrichments.every((e: EnrichmentDto) => e.provider === 'mixrank')).toBe(true);
    const byMember = (await c.post('/api/v1/enrichment/list', { createdBy: [mine.createdBy!.id], take: 100 })).json();
    expect(byMember.enrichments.map((e: EnrichmentDto) => e.id)).toEqual([mine.id]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await c.post('/api/v1/enrichment/list', { createdAt: { from: today, to: today }, take: 100 })).json().totalRecords).toBe(
      all.totalRecords,
    );
    expect((await c.post('/api/v1/enrichment/list', { createdAt: { from: '2000-01-01', to: '2000-01-02' } })).json()).toMatchObject({
      totalRecords: 0,
      hasRecords: false,
      enrichments: [],
    });
    const creators = (await c.get('/api/v1/enrichment/list/creators')).json().users;
    expect(creators.map((u: { firstName: string }) => u.firstName).sort()).toEqual(['Ada', 'Mia']);
    // A user may edit the enrichments of the organization (no admin-only route here).
    expect((await member.put('/api/v1/enrichment/set-color', { enrichmentId: all.enrichments[0].id, color: 'sky' })).statusCode).toBe(200);
    expect((await c.post('/api/v1/enrichment/list', { take: 101 })).statusCode).toBe(400);
    // Every sort key answers the same rows, in its order.
    for (const sortKey of ['name', 'entityType', 'field', 'isPrimary', 'createdBy', 'createdAt', 'updatedAt', 'provider', 'unknown']) {
      for (const sortOrder of ['asc', 'desc']) {
        const page = await c.post('/api/v1/enrichment/list', { take: 100, sortKey, sortOrder });
        expect(page.statusCode, `${sortKey} ${sortOrder}: ${page.body}`).toBe(200);
        expect(
          page
            .json()
            .enrichments.map((e: EnrichmentDto) => e.id)
            .sort(),
        ).toEqual(all.enrichments.map((e: EnrichmentDto) => e.id).sort());
      }
    }
    const byField = (await c.post('/api/v1/enrichment/list', { take: 100, sortKey: 'field', sortOrder: 'asc' })).json()
      .enrichments as EnrichmentDto[];
    const labels = byField.map((e) => e.field?.label).filter((l): l is string => Boolean(l));
    expect([...labels].sort()).toEqual(labels);
  });

  it("another organization's enrichments and fields are not found (404), and its table is its own", async () => {
    const { e } = await create(c, llm('Private one', { fieldIdToAssign: fieldId }));
    const id = e!.id;
    expect((await rival.get(`/api/v1/enrichment/${id}`)).statusCode).toBe(404);
    expect((await rival.get(`/api/v1/enrichment/${id}`)).json().message).toBe('Enrichment not found.');
    expect((await rival.put('/api/v1/enrichment', llm('Hijack', { id }))).statusCode).toBe(404);
    expect((await rival.del(`/api/v1/enrichment/${id}`)).statusCode).toBe(404);
    expect((await rival.put('/api/v1/enrichment/set-color', { enrichmentId: id, color: 'rose' })).statusCode).toBe(404);
    expect((await rival.put('/api/v1/enrichment/column', { enrichmentId: id, listColumns: [] })).statusCode).toBe(404);
    expect((await rival.post('/api/v1/enrichment/assign', { fieldId, enrichmentId: id })).statusCode).toBe(404);
    expect((await rival.post('/api/v1/enrichment/unassign', { fieldId, enrichmentId: id })).statusCode).toBe(404);
    expect((await rival.put('/api/v1/enrichment/set-primary', { fieldId, enrichmentId: id })).statusCode).toBe(404);
    const own = (await create(rival, llm('Rival one'))).e!;
    expect((await rival.post('/api/v1/enrichment/assign', { fieldId, enrichmentId: own.id })).json().message).toBe('Field not found');
    expect((await rival.post('/api/v1/enrichment', llm('Rival two', { fieldIdToAssign: fieldId }))).statusCode).toBe(404);
    const list = (await rival.post('/api/v1/enrichment/list', { take: 100 })).json();
    expect(list.enrichments.map((x: EnrichmentDto) => x.name).sort()).toEqual(['Rival one']);
    expect((await c.get(`/api/v1/enrichment/${id}`)).json().enrichment.name).toBe('Private one');
  });

  it("another organization's ids inside the form (a prompt box's field or enrichment, the list, the scrape field) answer 404 and nothing is kept", async () => {
    const { e } = await create(c, llm('Theirs to reuse'));
    const list = await c.post('/api/v1/list-company', { name: 'Their list' });
    expect(list.statusCode, list.body).toBe(201);
    const listId = list.json().list.id as string;
    const own = (await create(rival, llm('Rival keeps this'))).e!;
    const cases: [Record<string, unknown>, string][] = [
      [
        {
          prompt: [
            { type: 'text', text: 'Sector of ' },
            { type: 'field-box', id: 'fieldbox0001', fieldId },
          ],
        },
        'Field not found',
      ],
      [
        {
          prompt: [
            { type: 'text', text: 'Using ' },
            { type: 'enrich-box', id: 'enrichbox001', enrichmentId: e!.id },
          ],
        },
        'Enrichment not found.',
      ],
      [{ listId }, 'List not found'],
      [{ scrapeFieldId: fieldId }, 'Field not found'],
    ];
    for (const [extra, message] of cases) {
      const created = await rival.post('/api/v1/enrichment', llm('Spy', extra));
      expect([created.statusCode, created.json().message], JSON.stringify(extra)).toEqual([404, message]);
      const updated = await rival.put('/api/v1/enrichment', llm('Rival keeps this', { id: own.id, ...extra }));
      expect([updated.statusCode, updated.json().message], JSON.stringify(extra)).toEqual([404, message]);
    }
    const names = (await rival.post('/api/v1/enrichment/list', { take: 100 })).json().enrichments.map((x: EnrichmentDto) => x.name);
    expect(names).not.toContain('Spy');
    const kept = (await rival.get(`/api/v1/enrichment/${own.id}`)).json().enrichment as EnrichmentDto;
    expect(kept.data).toMatchObject({ prompt, listId: null, scrapeFieldId: null });
  });

  it('lists the enrichments of a list (none yet)', async () => {
    const res = await c.get(`/api/v1/enrichment/${randomUUID()}/list`);
    expect(res.json()).toEqual({ success: true, enrichments: [] });
  });
});
