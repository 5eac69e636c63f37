import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';

describe('records: a first pass through companies, contacts, fields, tables and export', () => {
  let ctx: TestContext;
  let c: TestClient;
  beforeAll(async () => {
    ctx = await createTestApp();
    const { admin } = await createOrg(ctx);
    c = await signedIn(ctx, admin.email);
  });
  afterAll(async () => { await ctx.close(); });

  it('creates, lists, filters, sorts, exports', async () => {
    const f = await c.post('/api/v1/entity/field', { label: 'Revenue (M)', dataType: 'double', entityType: 'company' });
    expect(f.statusCode, f.body).toBe(201);
    const field = f.json().field;
    expect(field.key).toBe('revenue__m_');
    const a = await c.post('/api/v1/entity/company', { company: { name: 'Acme', website: 'https://www.acme.com/about' }, contact: { firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.com' } });
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json().company.domain).toBe('acme.com');
    expect(a.json().company.keyContact.email).toBe('ann@acme.com');
    const dup = await c.post('/api/v1/entity/company', { company: { name: 'Acme 2', website: 'acme.com' } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('Company with same domain already exists');
    const b = await c.post('/api/v1/entity/company', { company: { name: 'Beta', website: 'beta.io' } });
    const set = await c.put('/api/v1/entity/company/field', { entityId: a.json().company.id, fieldId: field.id, value: '12.5' });
    expect(set.statusCode, set.body).toBe(200);
    await c.put('/api/v1/entity/company/field', { entityId: b.json().company.id, fieldId: field.id, value: 3 });
    const page = await c.post('/api/v1/company/get-companies', { filters: [{ key: field.key, items: [{ id: '1', condition: 'greater_than', data: 5 }] }] });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().rows.map((r: { name: string }) => r.name)).toEqual(['Acme']);
    expect(page.json().totalRecords).toBe(1);
    const sorted = await c.post('/api/v1/company/get-companies', { sortKey: field.key, sortOrder: 'asc' });
    expect(sorted.json().rows.map((r: { name: string }) => r.name)).toEqual(['Beta', 'Acme']);
    const bad = await c.post('/api/v1/company/get-companies', { filters: [{ key: field.key, items: [{ id: '1', condition: 'between', data: [1] }] }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Please fill in all condition values before saving.');
    const csv = await c.post('/api/v1/company/export', { selection: { allSelected: true, text: '', filters: [] } });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-disposition']).toContain('attachment');
    expect(csv.body).toContain('Acme');
    expect(csv.body).toContain('12.5');
    const details = await c.get(`/api/v1/company/details/${a.json().company.id}`);
    expect(details.json().company.entityMapping).toHaveLength(1);
    const contacts = await c.post('/api/v1/contact/get-contacts', {});
    expect(contacts.json().rows[0].primaryCompany.name).toBe('Acme');
    const del = await c.post('/api/v1/company/bulk-delete', { selection: { ids: [b.json().company.id] } });
    expect(del.json().count).toBe(1);
  });
});
