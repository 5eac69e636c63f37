import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../test/helpers';

const columns = [
  { key: 'name', order: 0, width: 240, visible: true },
  { key: 'website', order: 1, width: 180, visible: false },
  { key: 'revenue', order: 2 },
];

describe('per-user table layouts', () => {
  let ctx: TestContext;
  let a: TestClient;
  let a2: TestClient;
  let b: TestClient;

  beforeAll(async () => {
    ctx = await createTestApp();
    const oa = await createOrg(ctx, { name: 'Alpha' });
    const ob = await createOrg(ctx, { name: 'Beta' });
    a = await signedIn(ctx, oa.admin.email, '10.36.0.1');
    a2 = await signedIn(ctx, (await createUser(ctx, oa.organization.id)).email, '10.36.0.2');
    b = await signedIn(ctx, ob.admin.email, '10.36.0.3');
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('POST saves a layout (201) with defaults for width and visibility; GET lists the caller’s layouts of that table', async () => {
    const res = await a.post('/api/v1/user/tablelayout/company', { name: 'My view', columns });
    expect(res.statusCode, res.body).toBe(201);
    const { layout } = res.json();
    expect(layout).toEqual({
      id: expect.any(String),
      entityType: 'company',
      name: 'My view',
      updatedAt: expect.any(String),
      columns: [columns[0], columns[1], { key: 'revenue', order: 2, width: 150, visible: true }],
    });
    const second = await a.post('/api/v1/user/tablelayout/company', { columns: [{ key: 'domain', order: 0 }] });
    expect(second.json().layout.name).toBe('Default');
    const list = await a.get('/api/v1/user/tablelayout/company');
    expect(list.statusCode).toBe(200);
    expect(list.json().layouts.map((l: { id: string }) => l.id)).toEqual([layout.id, second.json().layout.id]);
    expect((await a.get('/api/v1/user/tablelayout/contact')).json().layouts).toEqual([]);
  });

  it('layouts are per user: another member and another organization see none of them', async () => {
    await a.post('/api/v1/user/tablelayout/contact', { name: 'Private', columns });
    expect((await a2.get('/api/v1/user/tablelayout/contact')).json().layouts).toEqual([]);
    expect((await b.get('/api/v1/user/tablelayout/contact')).json().layouts).toEqual([]);
  });

  it('PUT changes column order, width and visibility', async () => {
    const { layout } = (await a.post('/api/v1/user/tablelayout/contact', { name: 'Edit me', columns })).json();
    const changed = [
      { key: 'website', order: 0, width: 90, visible: true },
      { key: 'name', order: 1, width: 300, visible: false },
    ];
    const res = await a.put('/api/v1/user/tablelayout/contact', { id: layout.id, name: 'Edited', columns: changed });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().layout).toMatchObject({ id: layout.id, name: 'Edited', columns: changed });
    const stored = (await a.get('/api/v1/user/tablelayout/contact')).json().layouts.find((l: { id: string }) => l.id === layout.id);
    expect(stored).toMatchObject({ name: 'Edited', columns: changed });
  });

  it('PUT and DELETE: 404 for another user’s layout, another table’s, or an unknown id', async () => {
    const { layout } = (await a.post('/api/v1/user/tablelayout/company', { name: 'Mine', columns })).json();
    for (const [c, entity, id] of [
      [a2, 'company', layout.id],
      [b, 'company', layout.id],
      [a, 'contact', layout.id],
      [a, 'company', randomUUID()],
    ] as const) {
      const put = await c.put(`/api/v1/user/tablelayout/${entity}`, { id, name: 'Stolen', columns: [] });
      expect(put.statusCode).toBe(404);
      expect(put.json()).toEqual({ success: false, message: 'Not found' });
      expect((await c.del(`/api/v1/user/tablelayout/${entity}/${id}`)).statusCode).toBe(404);
    }
    const stored = (await a.get('/api/v1/user/tablelayout/company')).json().layouts.find((l: { id: string }) => l.id === layout.id);
    expect(stored.name).toBe('Mine');
  });

  it('DELETE removes it', async () => {
    const { layout } = (await a.post('/api/v1/user/tablelayout/company', { name: 'Gone', columns })).json();
    const res = await a.del(`/api/v1/user/tablelayout/company/${layout.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Layout deleted' });
    expect((await a.get('/api/v1/user/tablelayout/company')).json().layouts.some((l: { id: string }) => l.id === layout.id)).toBe(false);
    expect((await a.del(`/api/v1/user/tablelayout/company/${layout.id}`)).statusCode).toBe(404);
  });

  it('validation: table name, column width, column key, name length', async () => {
    expect((await a.get('/api/v1/user/tablelayout/idea')).statusCode).toBe(400);
    for (const body of [
      { columns: [{ key: 'name', order: 0, width: 10 }] },
      { columns: [{ key: 'name', order: 0, width: 5000 }] },
      { columns: [{ key: '', order: 0 }] },
      { columns: [{ key: 'name', order: -1 }] },
      { name: '   ', columns: [] },
      { name: 'x'.repeat(101), columns: [] },
      {},
    ]) {
      expect((await a.post('/api/v1/user/tablelayout/company', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await a.del('/api/v1/user/tablelayout/company/nope')).statusCode).toBe(400);
  });

  it('401 without a session; CSRF refused without the header', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/user/tablelayout/company' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/v1/user/tablelayout/company', payload: { columns } })).statusCode).toBe(401);
    a.sendCsrf = false;
    try {
      const res = await a.post('/api/v1/user/tablelayout/company', { name: 'No csrf', columns });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ success: false, message: 'Invalid or missing CSRF token' });
    } finally {
      a.sendCsrf = true;
    }
    expect((await a.get('/api/v1/user/tablelayout/company')).json().layouts.some((l: { name: string }) => l.name === 'No csrf')).toBe(
      false,
    );
  });
});
