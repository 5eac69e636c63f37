// Migration20261122210000 on a database that already has records: rolled back and applied again on
// companies and contacts written through the API, it fills search_text for every existing row (the
// table rewrite is the backfill), moves the trigram indexes onto it, and the tables search it. The
// column is generated, so every later write of a name, domain or email keeps it in step: checked
// through the API's create and update, and a raw bulk statement.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newCompany, newContact, uniq, type CompanyLike, type ContactLike } from '../../../test/records';
import { vacuumAfterMigrations } from '../../database';

const MIGRATION = 'Migration20261122210000';

describe(`${MIGRATION} stores the search text`, () => {
  let ctx: TestContext;
  let c: TestClient;
  let org: string;
  const u = uniq();
  const companies: CompanyLike[] = [];
  const contacts: ContactLike[] = [];
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => ctx.orm.em.getConnection().execute<T[]>(text, params);
  const ids = (res: { json(): { rows: { id: string }[] } }) =>
    res
      .json()
      .rows.map((r) => r.id)
      .sort();

  beforeAll(async () => {
    ctx = await createTestApp();
    const o = await createOrg(ctx, { name: 'Search text' });
    org = o.organization.id;
    c = await signedIn(ctx, o.admin.email, '10.66.0.1');
    companies.push(await newCompany(c, { name: `Summit ÄRZTE ${u}`, website: `https://www.Zurich-${u}.example.com` }));
    companies.push(await newCompany(c, { name: `Alpha Labs ${u}`, website: `alpha-${u}.io` }));
    contacts.push(await newContact(c, { firstName: 'Émile', lastName: `Summit${u}`, email: `E.Summit-${u}@Example.com` }));
    contacts.push(await newContact(c, { firstName: 'Bo', lastName: `Other${u}`, email: `bo-${u}@example.com` }));
    await ctx.orm.migrator.down({ migrations: [MIGRATION] });
    expect(
      await sql(`select 1 from information_schema.columns where table_name in ('company', 'contact') and column_name = 'search_text'`),
    ).toHaveLength(0);
    // Written while the column does not exist: only the migration's rewrite can fill it.
    await sql(`update company set name = name || ' Renamed' where id = ?`, [companies[1].id]);
    const applied = await ctx.orm.migrator.up({ migrations: [MIGRATION] });
    vacuumed = await vacuumAfterMigrations(
      ctx.orm,
      applied.map((m) => m.name),
      ctx.app.log,
    );
  });
  let vacuumed: string[] = [];

  it('the start-up path vacuums the rewritten tables after applying it (a rewrite leaves no visibility map)', async () => {
    expect(vacuumed.sort()).toEqual(['company', 'contact']);
    const stats = await sql<{ relname: string; vacuumed: boolean }>(
      `select relname, (last_vacuum is not null) as vacuumed from pg_stat_user_tables where relname in ('company', 'contact') order by relname`,
    );
    expect(stats).toEqual([
      { relname: 'company', vacuumed: true },
      { relname: 'contact', vacuumed: true },
    ]);
    expect(await vacuumAfterMigrations(ctx.orm, ['Migration20261122172000'], ctx.app.log)).toEqual([]);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('fills search_text of every existing record with the text the search matches', async () => {
    const co = await sql<{ id: string; search_text: string; expected: string }>(
      `select id, search_text, lower(name || ' ' || domain) as expected from company where organization_id = ?`,
      [org],
    );
    expect(co).toHaveLength(2);
    for (const r of co) expect(r.search_text).toBe(r.expected);
    expect(co.find((r) => r.id === companies[0].id)!.search_text).toBe(`summit ärzte ${u} zurich-${u}.example.com`);
    expect(co.find((r) => r.id === companies[1].id)!.search_text).toContain('renamed');
    const ct = await sql<{ search_text: string; expected: string }>(
      `select search_text, lower(first_name || ' ' || last_name || ' ' || email) as expected from contact where organization_id = ?`,
      [org],
    );
    expect(ct).toHaveLength(2);
    for (const r of ct) expect(r.search_text).toBe(r.expected);
  });

  it('puts the trigram indexes on the column', async () => {
    const defs = await sql<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where indexname in ('company_search_trgm', 'contact_search_trgm')`,
    );
    expect(defs).toHaveLength(2);
    for (const d of defs) expect(d.indexdef).toMatch(/gin \(search_text gin_trgm_ops\)/);
  });

  it('the tables and the pickers search it, whatever the case', async () => {
    expect(ids(await c.post('/api/v1/company/get-companies', { text: `ärzte ${u}` }))).toEqual([companies[0].id]);
    expect(ids(await c.post('/api/v1/company/get-companies', { text: `ZURICH-${u}` }))).toEqual([companies[0].id]);
    expect(ids(await c.post('/api/v1/company/get-companies', { text: `${u} renamed` }))).toEqual([companies[1].id]);
    expect(ids(await c.post('/api/v1/contact/get-contacts', { text: `émile summit${u}` }))).toEqual([contacts[0].id]);
    expect(ids(await c.post('/api/v1/contact/get-contacts', { text: `e.summit-${u}@` }))).toEqual([contacts[0].id]);
  });

  it('follows every later write of a name, domain or email', async () => {
    const created = await newCompany(c, { name: `Fresh Name ${u}`, website: `https://fresh-${u}.example.org` });
    expect(ids(await c.post('/api/v1/company/get-companies', { text: `fresh name ${u}` }))).toEqual([created.id]);
    const res = await c.put('/api/v1/entity/company', {
      id: created.id,
      company: { name: `Moved On ${u}`, website: `https://moved-${u}.example.org` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(ids(await c.post('/api/v1/company/get-companies', { text: `fresh name ${u}` }))).toEqual([]);
    expect(ids(await c.post('/api/v1/company/get-companies', { text: `moved-${u}` }))).toEqual([created.id]);
    const put = await c.put('/api/v1/entity/contact', {
      id: contacts[1].id,
      contact: { firstName: 'Bo', lastName: `Other${u}`, email: `NEW-${u}@x.com` },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(ids(await c.post('/api/v1/contact/get-contacts', { text: `new-${u}@x.com` }))).toEqual([contacts[1].id]);
    // A bulk statement outside the ORM too.
    await sql(`update company set name = 'Bulk ' || name where organization_id = ?`, [org]);
    expect(ids(await c.post('/api/v1/company/get-companies', { text: `bulk summit ärzte ${u}` }))).toEqual([companies[0].id]);
  });
});
