// Sorting the companies table by key contact and the contacts table by primary company
// (Migration20261122220100, table-query.ts linkSort): the sort texts live on the record rows,
// kept by triggers. Every plan (unfiltered: two walks of one index joined at the counted filled
// rows, each from its nearer end; filtered: counted; searched: collected) must give the same order,
// in both directions, and the order must follow every change of a link, a contact's name, a
// company's name and every delete. The migration's backfill is checked by rolling it back and
// applying it again on links written while its triggers did not exist.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newCompany, newContact, link, uniq, f, type CompanyLike, type ContactLike } from '../../../test/records';
import { vacuumAfterMigrations } from '../../database';

const MIGRATION = 'Migration20261122220100';
/** Its filled counts (record_count slot 0), which read its columns: rolled back and applied with it. */
const COUNTS = 'Migration20261122220200';
/** The statement triggers that replaced its link trigger, which write its columns: rolled back first, applied last. */
const STATEMENT_TRIGGERS = 'Migration20261128100000';

type Entity = 'company' | 'contact';
const sortKeyOf = { company: 'keyContact', contact: 'primaryCompany' } as const;
const pathOf = { company: '/api/v1/company/get-companies', contact: '/api/v1/contact/get-contacts' } as const;

/** Ids of every row in the sort (all plans compared: one page, small pages, search, filter). */
async function sorted(c: TestClient, entity: Entity, sortOrder: 'asc' | 'desc', u: string): Promise<string[]> {
  const query = { sortKey: sortKeyOf[entity], sortOrder };
  const whole = await c.post(pathOf[entity], { ...query, pageSize: 100 });
  expect(whole.statusCode, whole.body).toBe(200);
  const ids = (whole.json().rows as { id: string }[]).map((r) => r.id);
  const total = whole.json().totalRecords as number;
  expect(ids).toHaveLength(total);
  // Pages of 2: the seam between the rows with a text and those without, read from either end.
  const paged: string[] = [];
  for (let pageIndex = 0; pageIndex * 2 < total; pageIndex++) {
    const res = await c.post(pathOf[entity], { ...query, pageSize: 2, pageIndex });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().totalRecords).toBe(total);
    paged.push(...(res.json().rows as { id: string }[]).map((r) => r.id));
  }
  expect(paged, 'pages of 2').toEqual(ids);
  // Every row's name (contacts: email) carries u: a search and a filter select them all.
  const searched = await c.post(pathOf[entity], { ...query, pageSize: 100, text: u });
  expect(
    (searched.json().rows as { id: string }[]).map((r) => r.id),
    'searched',
  ).toEqual(ids);
  for (let pageIndex = 0; pageIndex * 2 < total; pageIndex++) {
    const filters = [f(entity === 'company' ? 'name' : 'email', [['contains', u]])];
    const res = await c.post(pathOf[entity], { ...query, pageSize: 2, pageIndex, filters });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      (res.json().rows as { id: string }[]).map((r) => r.id),
      `filtered page ${pageIndex}`,
    ).toEqual(ids.slice(pageIndex * 2, pageIndex * 2 + 2));
  }
  return ids;
}

describe('sort by key contact / primary company', () => {
  let ctx: TestContext;
  let c: TestClient;
  const u = uniq();
  const co: Record<string, CompanyLike> = {};
  const ct: Record<string, ContactLike> = {};
  const names = (all: Record<string, { id: string }>, ids: string[]) => ids.map((id) => Object.keys(all).find((k) => all[k].id === id));

  beforeAll(async () => {
    ctx = await createTestApp();
    const o = await createOrg(ctx, { name: 'Link sort' });
    c = await signedIn(ctx, o.admin.email, '10.67.0.1');
    for (const n of ['acme', 'beta', 'cobalt', 'delta', 'echo'])
      co[n] = await newCompany(c, { name: `${n} ${u}`, website: `${n}-${u}.example.com` });
    for (const [first, last] of [
      ['zed', 'young'],
      ['amy', 'zulu'],
      ['bob', 'mid'],
      ['nia', 'none'],
    ]) {
      ct[first] = await newContact(c, { firstName: first, lastName: last, email: `${first}-${u}@example.com` });
    }
    await link(c, co.acme.id, ct.zed.id); // acme's key contact, zed's primary company
    await link(c, co.beta.id, ct.amy.id);
    await link(c, co.cobalt.id, ct.bob.id);
    await link(c, co.acme.id, ct.amy.id); // neither key nor primary
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('sorts companies by their key contact, the ones without one last in name order, both ways', async () => {
    expect(names(co, await sorted(c, 'company', 'asc', u))).toEqual(['beta', 'cobalt', 'acme', 'delta', 'echo']);
    expect(names(co, await sorted(c, 'company', 'desc', u))).toEqual(['acme', 'cobalt', 'beta', 'echo', 'delta']);
  });

  it('sorts contacts by their primary company, the ones without one last in name order, both ways', async () => {
    expect(names(ct, await sorted(c, 'contact', 'asc', u))).toEqual(['zed', 'amy', 'bob', 'nia']);
    expect(names(ct, await sorted(c, 'contact', 'desc', u))).toEqual(['bob', 'amy', 'zed', 'nia']);
  });

  it('follows a change of key contact or primary company', async () => {
    expect((await c.put('/api/v1/company/set-key', { companyId: co.acme.id, contactId: ct.amy.id })).statusCode).toBe(200);
    // acme and beta now share amy zulu: ties in name order.
    expect(names(co, await sorted(c, 'company', 'asc', u))).toEqual(['acme', 'beta', 'cobalt', 'delta', 'echo']);
    await link(c, co.acme.id, ct.bob.id); // bob keeps cobalt as primary company
    expect(names(ct, await sorted(c, 'contact', 'asc', u))).toEqual(['zed', 'amy', 'bob', 'nia']);
    expect((await c.put('/api/v1/contact/set-primary', { contactId: ct.bob.id, companyId: co.acme.id })).statusCode).toBe(200);
    // bob and zed share acme: ties in the contacts' name order (mid before young).
    expect(names(ct, await sorted(c, 'contact', 'asc', u))).toEqual(['bob', 'zed', 'amy', 'nia']);
    expect(names(ct, await sorted(c, 'contact', 'desc', u))).toEqual(['amy', 'zed', 'bob', 'nia']);
    expect((await c.put('/api/v1/contact/set-primary', { contactId: ct.bob.id, companyId: co.cobalt.id })).statusCode).toBe(200);
    expect(names(ct, await sorted(c, 'contact', 'asc', u))).toEqual(['zed', 'amy', 'bob', 'nia']);
  });

  it('follows a rename of the key contact, through the API and a bulk statement', async () => {
    const res = await c.put('/api/v1/entity/contact', {
      id: ct.bob.id,
      contact: { firstName: 'aaron', lastName: 'smith', email: ct.bob.email },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(names(co, await sorted(c, 'company', 'asc', u))).toEqual(['cobalt', 'acme', 'beta', 'delta', 'echo']);
    await ctx.orm.em.getConnection().execute(`update contact set first_name = 'Zz' where id = ?`, [ct.bob.id]);
    expect(names(co, await sorted(c, 'company', 'asc', u))).toEqual(['acme', 'beta', 'cobalt', 'delta', 'echo']);
    const [row] = await ctx.orm.em
      .getConnection()
      .execute<{ key_contact_sort: string }[]>(`select key_contact_sort from company where id = ?`, [co.cobalt.id]);
    expect(row.key_contact_sort).toBe('zz smith');
  });

  it('follows a rename of the primary company', async () => {
    const res = await c.put('/api/v1/entity/company', { id: co.acme.id, company: { name: `zeta ${u}`, website: co.acme.website } });
    expect(res.statusCode, res.body).toBe(200);
    expect(names(ct, await sorted(c, 'contact', 'asc', u))).toEqual(['amy', 'bob', 'zed', 'nia']);
    expect(names(ct, await sorted(c, 'contact', 'desc', u))).toEqual(['zed', 'bob', 'amy', 'nia']);
  });

  it('follows an unlink: the company loses its key contact, the contact its primary company', async () => {
    const res = await c.put('/api/v1/entity/mapping-contact', { companyId: co.beta.id, contactId: ct.amy.id, remove: true });
    expect(res.statusCode, res.body).toBe(200);
    // beta has no key contact now; amy no primary company (her link to zeta/acme is not primary).
    expect(names(co, await sorted(c, 'company', 'asc', u))).toEqual(['acme', 'cobalt', 'beta', 'delta', 'echo']);
    expect(names(ct, await sorted(c, 'contact', 'asc', u))).toEqual(['bob', 'zed', 'nia', 'amy']);
  });

  it('follows deletes of a key contact and of a primary company', async () => {
    expect((await c.del(`/api/v1/contact/delete/${ct.bob.id}`)).statusCode).toBe(200);
    delete ct.bob;
    expect(names(co, await sorted(c, 'company', 'asc', u))).toEqual(['acme', 'beta', 'cobalt', 'delta', 'echo']);
    expect(names(co, await sorted(c, 'company', 'desc', u))).toEqual(['acme', 'echo', 'delta', 'cobalt', 'beta']);
    expect((await c.del(`/api/v1/company/delete/${co.acme.id}`)).statusCode).toBe(200);
    delete co.acme;
    expect(names(ct, await sorted(c, 'contact', 'asc', u))).toEqual(['nia', 'zed', 'amy']);
    const left = await ctx.orm.em
      .getConnection()
      .execute<{ n: number }[]>(`select count(*)::int as n from contact where id in (?, ?, ?) and primary_company_sort is not null`, [
        ct.zed.id,
        ct.amy.id,
        ct.nia.id,
      ]);
    expect(left[0].n).toBe(0);
  });

  it('keeps the maintained counts of companies with a key contact and contacts with a primary company exact', async () => {
    const [row] = await ctx.orm.em
      .getConnection()
      .execute<{ kept_company: number; real_company: number; kept_contact: number; real_contact: number; parts: number }[]>(
        `select (select coalesce(sum(delta), 0)::int from record_count where entity_type = 'company' and slot = 0) as kept_company,
              (select count(*)::int from company where key_contact_sort is not null) as real_company,
              (select coalesce(sum(delta), 0)::int from record_count where entity_type = 'contact' and slot = 0) as kept_contact,
              (select count(*)::int from contact where primary_company_sort is not null) as real_contact,
              (select count(*)::int from record_count where slot = 0) as parts`,
      );
    expect(row.parts).toBeGreaterThan(2);
    expect(row.kept_company).toBe(row.real_company);
    expect(row.kept_contact).toBe(row.real_contact);
    expect(row.kept_contact).toBe(0);
    // A bulk statement moving many rows at once, and a delete of them all.
    const counted = async () =>
      (
        await ctx.orm.em.getConnection().execute<{ kept: number; real: number }[]>(
          `select (select coalesce(sum(delta), 0)::int from record_count where entity_type = 'company' and slot = 0) as kept, (select
              count(*)::int from company where key_contact_sort is not null) as real`,
        )
      )[0];
    await ctx.orm.em.getConnection().execute(`update company set key_contact_sort = 'x' where key_contact_sort is null`);
    expect(await counted()).toEqual({ kept: 4, real: 4 });
    await ctx.orm.em.getConnection().execute(`delete from company where key_contact_sort = 'x'`);
    expect(await counted()).toEqual({ kept: 0, real: 0 });
  });
});

describe(`${MIGRATION} backfills the sort texts`, () => {
  let ctx: TestContext;
  let c: TestClient;
  const u = uniq();
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => ctx.orm.em.getConnection().execute<T[]>(text, params);
  let vacuumed: string[] = [];

  beforeAll(async () => {
    ctx = await createTestApp();
    const o = await createOrg(ctx, { name: 'Link sort migration' });
    c = await signedIn(ctx, o.admin.email, '10.67.0.2');
    const a = await newCompany(c, { name: `Alpha ${u}` });
    const b = await newCompany(c, { name: `Bravo ${u}` });
    await newCompany(c, { name: `Charlie ${u}` });
    const x = await newContact(c, { firstName: 'Xena', lastName: 'Kay' });
    const y = await newContact(c, { firstName: 'Yuri', lastName: 'Lo' });
    await link(c, a.id, x.id);
    await link(c, b.id, y.id);
    await ctx.orm.migrator.down({ migrations: [STATEMENT_TRIGGERS] });
    await ctx.orm.migrator.down({ migrations: [COUNTS] });
    await ctx.orm.migrator.down({ migrations: [MIGRATION] });
    expect(
      await sql(`select 1 from information_schema.columns where column_name in ('key_contact_sort', 'primary_company_sort')`),
    ).toHaveLength(0);
    // Written while neither the columns nor the triggers exist: only the backfill can know them.
    await link(c, b.id, x.id);
    await sql(`update company_contact set is_key = false where company_id = ?`, [b.id]);
    await sql(`update company_contact set is_key = true where company_id = ? and contact_id = ?`, [b.id, x.id]);
    await sql(`update company set name = 'Zulu ' || name where id = ?`, [a.id]);
    const applied = await ctx.orm.migrator.up({ migrations: [MIGRATION, COUNTS, STATEMENT_TRIGGERS] });
    vacuumed = await vacuumAfterMigrations(
      ctx.orm,
      applied.map((m) => m.name),
      ctx.app.log,
    );
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('fills the text of every company with a key contact and every contact with a primary company, null elsewhere', async () => {
    const companies = await sql<{ got: string | null; want: string | null }>(
      `select r.key_contact_sort as got, (select lower(k.first_name || ' ' || k.last_name) from company_contact m join contact k on k.id
        = m.contact_id where m.company_id = r.id and m.is_key) as want from company r`,
    );
    expect(companies.length).toBeGreaterThanOrEqual(3);
    for (const r of companies) expect(r.got).toBe(r.want);
    expect(companies.filter((r) => r.got === 'xena kay')).toHaveLength(2);
    const contacts = await sql<{ got: string | null; want: string | null }>(
      `select r.primary_company_sort as got, (select lower(co.name) from company_contact m join company co on co.id = m.company_id where
        m.contact_id = r.id and m.is_primary) as want from contact r`,
    );
    for (const r of contacts) expect(r.got).toBe(r.want);
    expect(contacts.map((r) => r.got)).toContain(`zulu alpha ${u}`);
    expect(vacuumed.sort()).toEqual(['company', 'contact']);
    // The filled counts start from the backfill: 2 companies with a key contact, 2 contacts with a primary company.
    const counts = await sql<{ entity_type: string; n: number }>(
      `select entity_type, sum(delta)::int as n from record_count where slot = 0 group by entity_type order by entity_type`,
    );
    expect(counts).toEqual([
      { entity_type: 'company', n: 2 },
      { entity_type: 'contact', n: 2 },
    ]);
  });

  it('the tables sort by them', async () => {
    const res = await c.post('/api/v1/company/get-companies', { sortKey: 'keyContact', sortOrder: 'asc' });
    expect((res.json().rows as { name: string }[]).map((r) => r.name)).toEqual([`Bravo ${u}`, `Zulu Alpha ${u}`, `Charlie ${u}`]);
  });
});
