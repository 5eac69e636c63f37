// The owner sort (table-query.ts ownerSortedPage) reads the number of records each owner holds from
// record_count (slot -1, kept by the triggers of Migration20261122234000). Those numbers must equal
// a real count after every kind of write: creates through the API with and without an owner, an
// owner change, a bulk reassignment, deletes, a record moved to another organization, folding and
// TRUNCATE — and the pages must still list every record once, in the promised order. A filter on
// the owner alone ('my companies') takes its total from the same numbers.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { ownerTotals } from './table-query';

describe('owner sort counts (record_count slot -1)', () => {
  let ctx: TestContext;
  let db: pg.Client;
  let a: TestClient;
  let orgA: string;
  let orgB: string;
  let owners: string[];

  beforeAll(async () => {
    ctx = await createTestApp();
    const one = await createOrg(ctx, { name: 'Owned' });
    const two = await createOrg(ctx, { name: 'Owned elsewhere' });
    orgA = one.organization.id;
    orgB = two.organization.id;
    a = await signedIn(ctx, one.admin.email, '10.63.0.1');
    const zoe = await createUser(ctx, orgA, { firstName: 'Zoe', lastName: 'Zed' });
    const abe = await createUser(ctx, orgA, { firstName: 'Abe', lastName: 'Alder' });
    owners = [one.admin.id, zoe.id, abe.id];
    db = new pg.Client({ connectionString: ctx.dbUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await ctx.close();
  });

  /** The counts per owner, as the triggers keep them and as a real count gives them. */
  const check = async (org: string, table: 'company' | 'contact' = 'company') => {
    const kept = await ownerTotals(ctx.em(), org, table);
    const real = new Map(
      (
        await db.query<{ owner: string; n: string }>(
          `select owner_id as owner, count(*) as n from ${table} where organization_id = $1 and owner_id is not null group by owner_id`,
          [org],
        )
      ).rows.map((r) => [r.owner, Number(r.n)]),
    );
    expect(Object.fromEntries(kept)).toEqual(Object.fromEntries(real));
    // 'Account Owner in [...]' alone takes its total from the same counts ('my companies').
    if (table === 'company' && org === orgA) {
      for (const set of [[owners[1]], [owners[1], owners[2], owners[1].toUpperCase()], ['00000000-0000-4000-8000-000000000000']]) {
        const res = await a.post('/api/v1/company/get-companies', {
          filters: [{ key: 'owner', operator: 'and', items: [{ id: 'c1', condition: 'in', data: set }] }],
          pageIndex: 1,
          pageSize: 2,
        });
        expect(res.statusCode, res.body).toBe(200);
        const ids = [...new Set(set.map((x) => x.toLowerCase()))];
        expect(res.json().totalRecords).toBe(ids.reduce((sum, id) => sum + (real.get(id) ?? 0), 0));
        expect(res.json().rows.every((r: { owner: { id: string } | null }) => r.owner && ids.includes(r.owner.id))).toBe(true);
      }
    }
    return kept;
  };
  /** Every page of the owner sort, read one after the other. */
  const allPages = async (sortOrder: 'asc' | 'desc') => {
    const ids: string[] = [];
    const rows: { id: string; name: string; owner: { id: string; firstName: string } | null }[] = [];
    for (let p = 0; ; p++) {
      const res = await a.post('/api/v1/company/get-companies', { pageIndex: p, pageSize: 3, sortKey: 'owner', sortOrder });
      expect(res.statusCode, res.body).toBe(200);
      rows.push(...res.json().rows);
      ids.push(...res.json().rows.map((r: { id: string }) => r.id));
      if (p + 1 >= res.json().totalPages) return { ids, rows, total: res.json().totalRecords as number };
    }
  };

  it('follows creates, owner changes, bulk reassignment and deletes; every page lists each company once, owners by name, none last', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await a.post('/api/v1/entity/create', {
        entityType: 'company',
        data: { name: `Owned ${i}`, website: `owned${i}.com`, accountOwnerId: i % 4 === 3 ? null : owners[i % 3] },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().companyId);
    }
    await check(orgA);
    // One owner change through the API.
    const moved = await a.put('/api/v1/entity/update', {
      entityType: 'company',
      id: ids[0],
      data: { name: 'Owned 0', website: 'owned0.com', accountOwnerId: owners[1] },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await check(orgA);
    // A bulk reassignment and a bulk removal in raw statements.
    await db.query(`update company set owner_id = $2 where organization_id = $1 and name in ('Owned 1', 'Owned 2', 'Owned 3')`, [
      orgA,
      owners[2],
    ]);
    await db.query(`update company set owner_id = null where organization_id = $1 and name = 'Owned 4'`, [orgA]);
    await check(orgA);
    const del = await a.del(`/api/v1/company/delete/${ids[5]}`);
    expect(del.statusCode, del.body).toBe(200);
    const kept = await check(orgA);
    expect([...kept.values()].reduce((s, n) => s + n, 0)).toBeGreaterThan(0);

    for (const order of ['asc', 'desc'] as const) {
      const { ids: paged, rows, total } = await allPages(order);
      expect(total).toBe(9);
      expect(new Set(paged).size).toBe(9);
      const names = rows.map((r) => r.owner?.firstName ?? null);
      // Abe < the admin's name < Zoe ascending, the reverse descending; no owner last either way.
      const firstOf = (n: string | null) => names.indexOf(n);
      const lastOf = (n: string | null) => names.lastIndexOf(n);
      const seq = order === 'asc' ? ['Abe', null, 'Zoe'] : ['Zoe', null, 'Abe'];
      expect(lastOf(seq[0])).toBeLessThan(firstOf(seq[2]));
      expect(names.slice(names.length - names.filter((n) => n === null).length).every((n) => n === null)).toBe(true);
      // Within one owner, by name.
      const zoeRows = rows.filter((r) => r.owner?.firstName === 'Zoe').map((r) => r.name.toLowerCase());
      expect(zoeRows).toEqual([...zoeRows].sort((x, y) => (order === 'asc' ? (x < y ? -1 : 1) : x < y ? 1 : -1)));
    }
  });

  it('a record moved to another organization moves its count; piled-up rows fold without changing the numbers; TRUNCATE resets', async () => {
    const res = await a.post('/api/v1/entity/create', {
      entityType: 'company',
      data: { name: 'Mover', website: 'mover.com', accountOwnerId: owners[1] },
    });
    expect(res.statusCode, res.body).toBe(201);
    // References carry the organization (Migration20261125230500): a record moves without its owner and creator of the old one.
    await db.query(`update company set organization_id = $2, owner_id = null, created_by_id = null where id = $1`, [
      res.json().companyId,
      orgB,
    ]);
    await check(orgA);
    await check(orgB);
    // Many one-row owner changes: rows pile up, a read folds them into one per owner.
    const { rows } = await db.query<{ id: string }>(`select id from company where organization_id = $1 order by name limit 4`, [orgA]);
    for (let i = 0; i < 40; i++) await db.query(`update company set owner_id = $2 where id = $1`, [rows[i % 4].id, owners[i % 3]]);
    const before = Number(
      (
        await db.query(`select count(*) as n from record_count where organization_id = $1 and entity_type = 'company' and slot = -1`, [
          orgA,
        ])
      ).rows[0].n,
    );
    expect(before).toBeGreaterThan(64);
    await check(orgA);
    const after = Number(
      (
        await db.query(`select count(*) as n from record_count where organization_id = $1 and entity_type = 'company' and slot = -1`, [
          orgA,
        ])
      ).rows[0].n,
    );
    expect(after).toBeLessThanOrEqual(owners.length);
    await check(orgA);
    // Contacts are counted the same way.
    const contact = await a.post('/api/v1/entity/create', {
      entityType: 'contact',
      data: { firstName: 'Cy', lastName: 'Owned', email: 'cy@owned.com', accountOwnerId: owners[2] },
    });
    expect(contact.statusCode, contact.body).toBe(201);
    expect(Object.fromEntries(await check(orgA, 'contact'))).toEqual({ [owners[2]]: 1 });
    await db.query('truncate company cascade');
    expect((await ownerTotals(ctx.em(), orgA, 'company')).size).toBe(0);
    await check(orgA);
  });
});
