// pageIds picks its plan by the request (table-query.ts): an unfiltered table counts with
// record_count, a search collects its matches (up to COLLECT_MAX) or, past that, is counted and
// walked like a filtered table. Every plan must give the same totals and pages: here a search is
// paged with the collecting plan and with a cap so small that it always falls back, in every sort,
// and both are compared with an in-memory evaluation. A sort by a custom field with a slot joins
// two walks (values, then the rows without one) at the filled count: checked on every page against
// the in-memory order and against the same values sorted through field_value (a field without a slot).
// The key contact sort (a trigger-kept column, one index for both parts) is split the same way.
// The owner sort is read owner by owner (counts per owner, then a walk within each): two owners
// share a name, and some companies have none.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newField, newContact, setValue, link, f, type FieldLike } from '../../../test/records';
import { loadQueryContext, whereSql, orderSql, pageIds } from './table-query';
import { slotColumn } from '../fields/projection';

interface Row {
  id: string;
  name: string;
  domain: string;
  fields: Record<string, { value: unknown }>;
  keyContact: { firstName: string; lastName: string } | null;
  owner: { id: string; firstName: string; lastName: string } | null;
}

describe('paging plans give the same pages', () => {
  let ctx: TestContext;
  let c: TestClient;
  let org: string;
  let deals: FieldLike;
  let plain: FieldLike;
  let rows: Row[] = [];

  beforeAll(async () => {
    ctx = await createTestApp();
    const o = await createOrg(ctx, { name: 'Plans' });
    org = o.organization.id;
    c = await signedIn(ctx, o.admin.email, '10.62.0.1');
    deals = await newField(c, 'company', 'double', 'Deals');
    // The same values in a field without a slot: sorted and filtered through field_value.
    plain = await newField(c, 'company', 'double', 'Deals plain');
    const words = ['Summit', 'summit', 'Alpha', 'Beta', 'Zeta'];
    // Key contacts for a third of the companies (one contact is key contact of several: ties).
    const people = [
      await newContact(c, { firstName: 'kim', lastName: 'beta' }),
      await newContact(c, { firstName: 'kim', lastName: 'alpha' }),
      await newContact(c, { firstName: 'lee', lastName: 'gamma' }),
    ];
    // Owners: the admin, two users with the same name, and none.
    const twinA = await createUser(ctx, org, { firstName: 'Sam', lastName: 'Twin' });
    const twinB = await createUser(ctx, org, { firstName: 'sam', lastName: 'twin' });
    const owners = [o.admin.id, twinA.id, null, twinB.id, twinA.id];
    for (let i = 0; i < 36; i++) {
      const res = await c.post('/api/v1/entity/create', {
        entityType: 'company',
        data: {
          name: `${words[i % 5]} ${['Holdings', 'Labs', 'Group'][i % 3]} ${i % 7}`,
          website: `plan${i}-${words[(i * 3) % 5].toLowerCase()}.com`,
          accountOwnerId: owners[(i * 7) % 5],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      if (i % 3 === 1) await link(c, res.json().companyId, people[i % 9 === 1 ? 0 : i % 9 === 4 ? 1 : 2].id);
      if (i % 4 !== 0) {
        await setValue(c, 'company', res.json().companyId, deals.id, (i * 37) % 11);
        await setValue(c, 'company', res.json().companyId, plain.id, (i * 37) % 11);
      }
    }
    const [def] = await ctx
      .em()
      .getConnection()
      .execute<{ slot: number | null }[]>(`select slot from field_definition where id = ?`, [plain.id]);
    expect(def.slot).not.toBeNull();
    await ctx
      .em()
      .getConnection()
      .execute(`update company set ${slotColumn(def.slot!)} = null where organization_id = ?`, [org]);
    await ctx.em().getConnection().execute(`update field_definition set slot = null where id = ?`, [plain.id]);
    rows = (await c.post('/api/v1/company/get-companies', { pageSize: 1000 })).json().rows;
    expect(rows).toHaveLength(36);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const dealsOf = (r: Row) => (r.fields[deals.id]?.value ?? null) as number | null;
  const cases: {
    text: string;
    filters: ReturnType<typeof f>[];
    keep?: (r: Row) => boolean;
    sortKey?: string;
    sortOrder?: 'asc' | 'desc';
  }[] = [
    { text: 'summit', filters: [] },
    { text: 'SUMMIT', filters: [], sortKey: 'name', sortOrder: 'desc' },
    { text: 'a', filters: [], sortKey: 'domain', sortOrder: 'asc' },
    { text: 'lab', filters: [], sortKey: 'created_at', sortOrder: 'desc' },
    { text: 'o', filters: [], sortKey: 'deals', sortOrder: 'desc' },
    { text: 'o', filters: [], sortKey: 'deals', sortOrder: 'asc' },
    { text: 'e', filters: [f('deals', [['greater_than', 3]])], keep: (r) => (dealsOf(r) ?? -1) > 3 },
    {
      text: 'holdings',
      filters: [f('deals', [['less_than_or_equal', 5]])],
      keep: (r) => dealsOf(r) !== null && dealsOf(r)! <= 5,
      sortKey: 'deals',
      sortOrder: 'desc',
    },
    // Custom sorts with gaps: the slot's index, then the rows without a value in name order.
    { text: '', filters: [], sortKey: 'deals', sortOrder: 'desc' },
    { text: '', filters: [], sortKey: 'deals', sortOrder: 'asc' },
    { text: '', filters: [f('deals', [['not_equals', 4]])], keep: (r) => dealsOf(r) !== 4, sortKey: 'deals', sortOrder: 'asc' },
    {
      text: '',
      filters: [f('name', [['contains', 'a']])],
      keep: (r) => r.name.toLowerCase().includes('a'),
      sortKey: 'deals',
      sortOrder: 'desc',
    },
    // The key contact: texts (ties by name), then the companies without one by name.
    { text: '', filters: [], sortKey: 'keyContact', sortOrder: 'asc' },
    { text: '', filters: [], sortKey: 'keyContact', sortOrder: 'desc' },
    { text: 'summit', filters: [], sortKey: 'keyContact', sortOrder: 'desc' },
    {
      text: '',
      filters: [f('deals', [['greater_than', 3]])],
      keep: (r) => (dealsOf(r) ?? -1) > 3,
      sortKey: 'keyContact',
      sortOrder: 'asc',
    },
    // The owner: by name, then owner, then name; the companies without one last.
    { text: '', filters: [], sortKey: 'owner', sortOrder: 'asc' },
    { text: '', filters: [], sortKey: 'owner', sortOrder: 'desc' },
    { text: 'o', filters: [], sortKey: 'owner', sortOrder: 'desc' },
    { text: '', filters: [f('deals', [['greater_than', 3]])], keep: (r) => (dealsOf(r) ?? -1) > 3, sortKey: 'owner', sortOrder: 'asc' },
  ];

  /** The order the table promises: values (ties by id), then the rows without one by name (ties by id), all in the sort's direction. */
  function inMemory(matching: Row[], sortKey: string | undefined, desc: boolean): string[] {
    const cmp = (x: string | number, y: string | number) => (x === y ? 0 : x < y ? -1 : 1);
    const keyText = (r: Row) => (r.keyContact ? `${r.keyContact.firstName} ${r.keyContact.lastName}`.toLowerCase() : null);
    const ownerText = (r: Row) => (r.owner ? `${r.owner.firstName} ${r.owner.lastName}`.toLowerCase() : null);
    const key = (r: Row): string | number | null =>
      sortKey === 'deals'
        ? dealsOf(r)
        : sortKey === 'keyContact'
          ? keyText(r)
          : sortKey === 'owner'
            ? ownerText(r)
            : sortKey === 'domain'
              ? r.domain
              : r.name.toLowerCase();
    return [...matching]
      .sort((a, b) => {
        const ka = key(a);
        const kb = key(b);
        if (ka === null && kb !== null) return 1;
        if (kb === null && ka !== null) return -1;
        const byName = cmp(a.name.toLowerCase(), b.name.toLowerCase());
        const byOwner = sortKey === 'owner' && ka !== null ? cmp(a.owner!.id, b.owner!.id) : 0;
        const c0 = ka === null ? byName : cmp(ka, kb!) || byOwner || (sortKey === 'keyContact' || sortKey === 'owner' ? byName : 0);
        const c1 = c0 || cmp(a.id, b.id);
        return desc ? -c1 : c1;
      })
      .map((r) => r.id);
  }

  for (const k of cases) {
    it(
      `search '${k.text}'${k.filters.length ? ' + filter' : ''}, ` +
        `sort ${k.sortKey ?? 'default'} ${k.sortOrder ?? ''}: collected, walked and in-memory agree on every page`,
      async () => {
        const qctx = await loadQueryContext(ctx.em(), org, 'company');
        const where = whereSql(qctx, { text: k.text, filters: k.filters as never });
        const order = orderSql(qctx, k.sortKey ?? null, k.sortOrder ?? null);
        const size = 4;
        const read = async (collectMax?: number) => {
          const first = await pageIds(ctx.em(), qctx, where, order, 0, size, { collectMax });
          const ids = [...first.ids];
          for (let p = 1; p * size < first.total + size; p++) {
            const page = await pageIds(ctx.em(), qctx, where, order, p, size, { collectMax });
            expect(page.total).toBe(first.total);
            ids.push(...page.ids);
          }
          return { total: first.total, ids };
        };
        const collected = await read();
        const walked = await read(1);
        const needle = k.text.toLowerCase();
        const matching = rows.filter((r) => `${r.name} ${r.domain}`.toLowerCase().includes(needle) && (k.keep ?? (() => true))(r));
        expect(collected.total).toBe(
          (await c.post('/api/v1/company/get-companies', { text: k.text, filters: k.filters, pageSize: 1000 })).json().totalRecords,
        );
        expect(collected.total).toBe(matching.length);
        expect(collected.total).toBeGreaterThan(1);
        expect(collected.ids).toHaveLength(collected.total);
        expect(new Set(collected.ids).size).toBe(collected.total);
        expect(walked).toEqual(collected);
        if (!k.sortKey || ['deals', 'name', 'domain', 'keyContact', 'owner'].includes(k.sortKey))
          expect(collected.ids).toEqual(inMemory(matching, k.sortKey, k.sortOrder === 'desc'));
        if (k.sortKey === 'deals') {
          // The same values through field_value (a field without a slot) give the same pages.
          const viaValues = await pageIds(
            ctx.em(),
            qctx,
            whereSql(qctx, { text: k.text, filters: k.filters.map((x) => (x.key === 'deals' ? { ...x, key: plain.key } : x)) as never }),
            orderSql(qctx, plain.key, k.sortOrder ?? null),
            0,
            1000,
          );
          expect(viaValues).toEqual(collected);
        }
      },
    );
  }
});
