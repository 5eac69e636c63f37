// Record changes reach other users' open tables and drawers (spec 002 §7 'Realtime access'): every
// create, edit, link and delete writes an event on org/{oid}/entities/{type}, in the same
// organization only.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newCompany, newContact, link } from '../../../test/records';

describe('entity events for realtime clients', () => {
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
    a = await signedIn(ctx, oa.admin.email, '10.33.0.1');
  });
  afterAll(async () => {
    await ctx.close();
  });

  const events = async (org: string) =>
    ctx
      .em()
      .getConnection()
      .execute<{ path: string; kind: string; data: { id?: string; ids?: string[]; count?: number } }[]>(
        `select path, kind, data from realtime_event where organization_id = ? and path like '%/entities/%' order by seq`,
        [org],
      );

  it('create, link, delete: events name the records, on their type path, for their organization only', async () => {
    const company = await newCompany(a);
    const contact = await newContact(a);
    await link(a, company.id, contact.id);
    const del = await a.request('DELETE', `/api/v1/company/delete/${company.id}`);
    expect(del.statusCode, del.body).toBe(200);
    const got = await events(orgA);
    expect(got).toEqual([
      { path: `org/${orgA}/entities/company`, kind: 'entity.created', data: { id: company.id } },
      { path: `org/${orgA}/entities/contact`, kind: 'entity.created', data: { id: contact.id } },
      { path: `org/${orgA}/entities/company`, kind: 'entity.updated', data: { id: company.id } },
      { path: `org/${orgA}/entities/contact`, kind: 'entity.updated', data: { id: contact.id } },
      { path: `org/${orgA}/entities/company`, kind: 'entity.deleted', data: { ids: [company.id], count: 1 } },
    ]);
    expect(await events(orgB)).toEqual([]);
  });
});
