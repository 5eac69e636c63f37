// The maintained totals of the companies and contacts tables (record_count, kept by triggers; see
// Migration20261122050000 and table-query.ts recordTotal): an unfiltered table's totalRecords must
// equal a real count after creates, single and bulk deletes, raw multi-row statements, folding,
// moves between organizations and TRUNCATE, per organization and entity type.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';

describe('record totals (record_count)', () => {
  let ctx: TestContext;
  let db: pg.Client;
  let a: TestClient;
  let b: TestClient;
  let orgA: string;
  let orgB: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    const one = await createOrg(ctx, { name: 'Counted' });
    const two = await createOrg(ctx, { name: 'Also counted' });
    orgA = one.organization.id;
    orgB = two.organization.id;
    a = await signedIn(ctx, one.admin.email, '10.61.0.1');
    b = await signedIn(ctx, two.admin.email, '10.61.0.2');
    db = new pg.Client({ connectionString: ctx.dbUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await ctx.close();
  });

  const total = async (c: TestClient, entity: 'company' | 'contact' = 'company') => {
    const res = await c.post(entity === 'company' ? '/api/v1/company/get-companies' : '/api/v1/contact/get-contacts', {
      pageIndex: 3,
      pageSize: 10,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().totalRecords as number;
  };
  const real = async (org: string, table: 'company' | 'contact' = 'company') =>
    Number((await db.query(`select count(*) as n from ${table} where organization_id = $1`, [org])).rows[0].n);
  // The rows of the totals (slot null): the filled counts (slots, and slot 0 of the key contacts a
  // linked create makes, Migration20261122220200) are other rows, folded by their own reads.
  const parts = async (org: string, type = 'company') =>
    Number(
      (
        await db.query(`select count(*) as n from record_count where organization_id = $1 and entity_type = $2 and slot is null`, [
          org,
          type,
        ])
      ).rows[0].n,
    );
  const insertCompanies = (org: string, n: number, prefix: string) =>
    db.query(
      `insert into company (id, organization_id, name, website, domain, created_at, updated_at)
     select gen_random_uuid(), $1, $2 || i, $2 || i || '.com', $2 || i || '.com', now(), now() from generate_series(1, $3::int) i`,
      [org, prefix, n],
    );

  it('starts at zero and follows creates through the API, per organization', async () => {
    expect(await total(a)).toBe(0);
    for (let i = 0; i < 3; i++) {
      const res = await a.post('/api/v1/entity/create', {
        entityType: 'company',
        data: { name: `Counted ${i}`, website: `counted${i}.com` },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    await b.post('/api/v1/entity/create', { entityType: 'company', data: { name: 'Elsewhere', website: 'elsewhere.com' } });
    expect(await total(a)).toBe(3);
    expect(await total(b)).toBe(1);
    // A company created together with a contact counts once in each table.
    const pair = await a.post('/api/v1/entity', {
      company: { name: 'Pair', website: 'pair.com' },
      contact: { firstName: 'Pat', lastName: 'Pair', email: 'pat@pair.com' },
    });
    expect(pair.statusCode, pair.body).toBe(201);
    expect(await total(a)).toBe(4);
    expect(await total(a, 'contact')).toBe(1);
  });

  it('follows multi-row statements, deletes of one and bulk deletes by filters', async () => {
    await insertCompanies(orgA, 250, 'bulk-a-');
    await insertCompanies(orgB, 40, 'bulk-b-');
    expect(await total(a)).toBe(await real(orgA));
    expect(await total(b)).toBe(await real(orgB));

    const one = (await a.post('/api/v1/company/search', { query: 'bulk-a-7', limit: 1 })).json().results[0];
    expect((await a.del(`/api/v1/company/delete/${one.id}`)).statusCode).toBe(200);
    const bulk = await a.post('/api/v1/company/bulk-delete', {
      selection: { allSelected: true, text: 'bulk-a-1', filters: [], excludeIds: [] },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json().count).toBeGreaterThan(50);
    expect(await total(a)).toBe(await real(orgA));
    expect(await total(b)).toBe(await real(orgB));
  });

  it('a rolled-back insert leaves the total unchanged', async () => {
    const before = await total(a);
    await db.query('begin');
    await insertCompanies(orgA, 5, 'rolled-back-');
    await db.query('rollback');
    expect(await total(a)).toBe(before);
    expect(before).toBe(await real(orgA));
  });

  it('many single-row statements pile up rows that a read folds into one, without changing the total', async () => {
    for (let i = 0; i < 70; i++) await insertCompanies(orgA, 1, `single-${i}-`);
    expect(await parts(orgA)).toBeGreaterThan(64);
    const expected = await real(orgA);
    expect(await total(a)).toBe(expected); // this read folds
    expect(await parts(orgA)).toBe(1);
    expect(await total(a)).toBe(expected);
    expect(await parts(orgB)).toBeGreaterThan(0); // another organization's rows are not touched
    expect(await total(b)).toBe(await real(orgB));
  });

  it('a record moved to another organization moves its count; TRUNCATE resets', async () => {
    const id = (await db.query(`select id from company where organization_id = $1 limit 1`, [orgA])).rows[0].id;
    // References carry the organization (Migration20261125230500): a record moves without its owner and creator of the old one.
    await db.query(`update company set organization_id = $1, owner_id = null, created_by_id = null where id = $2`, [orgB, id]);
    await db.query(`update company set name = name || ' renamed' where organization_id = $1`, [orgB]);
    expect(await total(a)).toBe(await real(orgA));
    expect(await total(b)).toBe(await real(orgB));

    await db.query('truncate company cascade');
    expect(await total(a)).toBe(0);
    expect(await total(b)).toBe(0);
    expect(await total(a, 'contact')).toBe(1);
    await insertCompanies(orgA, 3, 'after-truncate-');
    expect(await total(a)).toBe(3);
  });
});
