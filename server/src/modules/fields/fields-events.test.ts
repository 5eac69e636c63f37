// Field changes reach other users' open tables, drawers and Enrich popovers: a new
// field, a field's settings, the organization's default currency and an enrichment's assignment
// each write 'entity.fields.changed' on org/{oid}/entities/{type}, in the same organization only.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';

const LLM_COMPANY = '00000000-0000-4000-8000-000000000011';

describe('field events for realtime clients', () => {
  let ctx: TestContext;
  let orgA: string;
  let orgB: string;
  let a: TestClient;

  beforeAll(async () => {
    ctx = await createTestApp();
    const oa = await createOrg(ctx, { name: 'Alpha' });
    const ob = await createOrg(ctx, { name: 'Beta' });
    orgA = oa.organization.id;
    orgB = ob.organization.id;
    a = await signedIn(ctx, oa.admin.email, '10.34.0.1');
  });
  afterAll(async () => {
    await ctx.close();
  });

  const events = async (org: string) =>
    await ctx
      .em()
      .getConnection()
      .execute<{ path: string; kind: string; key: string | null; data: unknown }[]>(
        `select path, kind, key, data from realtime_event where organization_id = ? and kind = 'entity.fields.changed' order by seq`,
        [org],
      );

  it('create, configure, default currency, assign and delete an enrichment: one event each, on the type path', async () => {
    const created = await a.request('POST', '/api/v1/entity/field', { label: 'Deal Size', dataType: 'currency', entityType: 'contact' });
    expect(created.statusCode, created.body).toBe(201);
    const fieldId = created.json().field.id as string;
    const contact = {
      path: `org/${orgA}/entities/contact`,
      kind: 'entity.fields.changed',
      key: 'fields:contact',
      data: { entityType: 'contact' },
    };
    const company = {
      path: `org/${orgA}/entities/company`,
      kind: 'entity.fields.changed',
      key: 'fields:company',
      data: { entityType: 'company' },
    };
    expect(await events(orgA)).toEqual([contact]);

    const config = await a.request('PUT', '/api/v1/entity/set-config', { fieldId, config: { currency: 'EUR' } });
    expect(config.statusCode, config.body).toBe(200);
    expect(await events(orgA)).toEqual([contact, contact]);

    const currency = await a.request('PUT', '/api/v1/organization/currency', { currency: 'GBP' });
    expect(currency.statusCode, currency.body).toBe(200);
    expect(await events(orgA)).toEqual([contact, contact, company, contact]);

    // A bad currency changes nothing and tells nobody.
    expect((await a.request('PUT', '/api/v1/organization/currency', { currency: 'XYZ' })).statusCode).toBe(400);
    expect(await events(orgA)).toHaveLength(4);

    const companyField = await a.request('POST', '/api/v1/entity/field', { label: 'CEO', dataType: 'string', entityType: 'company' });
    expect(companyField.statusCode, companyField.body).toBe(201);
    const enrichment = await a.request('POST', '/api/v1/enrichment', {
      configId: LLM_COMPANY,
      entityType: 'company',
      name: 'CEO finder',
      prompt: [{ type: 'text', text: 'Who is the CEO?' }],
      schema: [{ name: 'answer', type: 'string', description: 'The CEO', required: true, createColumn: false }],
      fieldIdToAssign: companyField.json().field.id,
      isFieldPrimary: true,
    });
    expect(enrichment.statusCode, enrichment.body).toBeLessThan(300);
    const afterAssign = await events(orgA);
    expect(afterAssign.slice(4)).toEqual([company, company]);

    const del = await a.request('DELETE', `/api/v1/enrichment/${enrichment.json().enrichment.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await events(orgA)).slice(6)).toEqual([company]);
    expect(await events(orgB)).toEqual([]);
  });
});
