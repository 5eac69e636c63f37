// The companies and contacts tables: zero-based paging (late pages are read from the end in
// reverse), sorts on built-in and custom keys in both directions with empty values last, search,
// and filter validation with the filter editor's messages. Every page is compared with a plain
// in-memory sort of the same ~60 rows.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newField, setValue, f, type FieldLike } from '../../../test/records';
import { ROWS_PER_PAGE_CHOICES } from '@dealscout/shared/domain';

interface Row {
  id: string;
  name: string;
  website: string;
  domain: string;
  createdAt: string;
  owner: { id: string; firstName: string; lastName: string } | null;
  fields: Record<string, { value: unknown }>;
}
interface ContactRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  createdAt: string;
  owner: unknown;
  fields: Record<string, { value: unknown }>;
}

/** A small deterministic generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

type Key = string | number | boolean | null;
/** Ascending or descending on `key`, empty values last either way, then the id in the same direction. */
/**
 * The reference order: by `key`, ties by id, rows without a key last; `emptyKey` orders the rows
 * without a key among themselves (custom field sorts: the table's default order, the name).
 */
/**
 * Rows sorted by `key` (empty keys last in either direction), ties by `tie` (the owner sort: the
 * owner, then the name), then the rows without a key by `emptyKey`, then by id.
 */
function sortRows<T extends { id: string }>(
  rows: T[],
  key: (r: T) => Key,
  desc: boolean,
  emptyKey?: (r: T) => Key,
  tie?: (r: T) => Key[],
): T[] {
  const cmp = (x: Key, y: Key) => (x === y ? 0 : (x as string | number) < (y as string | number) ? -1 : 1);
  const cmpAll = (x: Key[], y: Key[]) => x.reduce<number>((c, k, i) => c || cmp(k, y[i]), 0);
  return [...rows].sort((r1, r2) => {
    const k1 = key(r1);
    const k2 = key(r2);
    if (k1 === null && k2 !== null) return 1;
    if (k2 === null && k1 !== null) return -1;
    const c =
      cmp(k1, k2) ||
      (k1 !== null && tie ? cmpAll(tie(r1), tie(r2)) : 0) ||
      (k1 === null && emptyKey ? cmp(emptyKey(r1), emptyKey(r2)) : 0) ||
      cmp(r1.id, r2.id);
    return desc ? -c : c;
  });
}

const byName = (r: { name: string }) => r.name.toLowerCase();

async function runPool<T>(items: T[], size: number, fn: (x: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

describe('tables: get-companies and get-contacts', () => {
  let ctx: TestContext;
  let c: TestClient;
  let other: TestClient;
  let rows: Row[] = [];
  let contacts: ContactRow[] = [];
  let fInt: FieldLike;
  let fText: FieldLike;
  let fDate: FieldLike;
  let fBool: FieldLike;
  let ownerId: string;
  const N = 60;

  beforeAll(async () => {
    ctx = await createTestApp();
    const org = await createOrg(ctx, { name: 'Tables' });
    const foreign = await createOrg(ctx, { name: 'Elsewhere' });
    c = await signedIn(ctx, org.admin.email, '10.34.0.1');
    other = await signedIn(ctx, foreign.admin.email, '10.34.0.2');
    const member = await createUser(ctx, org.organization.id, { firstName: 'Bob', lastName: 'Builder' });
    ownerId = member.id;
    const owners = [null, org.admin.id, member.id];
    fInt = await newField(c, 'company', 'int', 'Deals');
    fText = await newField(c, 'company', 'string', 'Sector');
    fDate = await newField(c, 'company', 'date', 'Founded');
    fBool = await newField(c, 'company', 'boolean', 'Public');
    const rand = rng(7);
    const words = ['acme', 'Acme', 'ACME', 'beta', 'Gamma', 'delta', 'Omega', 'zeta', 'Kappa', 'lambda', 'sigma', 'Tau'];
    const sectors = ['Software', 'software', 'Health', 'energy', 'Retail', 'banking'];
    const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
    const specs = Array.from({ length: N }, (_, i) => ({
      name: `${pick(words)}${pick(['', 'x', 'Y'])}`,
      website: `${pick(['https://www.', 'http://', ''])}${pick(words).toLowerCase()}${String(i).padStart(2, '0')}.com`,
      owner: pick(owners),
      deals: rand() < 0.25 ? null : Math.floor(rand() * 20),
      sector: rand() < 0.25 ? null : pick(sectors),
      founded: rand() < 0.25 ? null : `${1990 + Math.floor(rand() * 30)}-0${1 + Math.floor(rand() * 9)}-1${Math.floor(rand() * 9)}`,
      isPublic: rand() < 0.3 ? null : rand() < 0.5,
    }));
    await runPool(specs, 5, async (s) => {
      const res = await c.post('/api/v1/entity/create', {
        entityType: 'company',
        data: { name: s.name, website: s.website, accountOwnerId: s.owner },
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().companyId;
      if (s.deals !== null) await setValue(c, 'company', id, fInt.id, s.deals);
      if (s.sector !== null) await setValue(c, 'company', id, fText.id, s.sector);
      if (s.founded !== null) await setValue(c, 'company', id, fDate.id, s.founded);
      if (s.isPublic !== null) await setValue(c, 'company', id, fBool.id, s.isPublic);
    });
    // Another organization's rows never show.
    for (let i = 0; i < 3; i++)
      await other.post('/api/v1/entity/create', { entityType: 'company', data: { name: `acme other ${i}`, website: `other${i}.com` } });
    const all = await c.post('/api/v1/company/get-companies', { pageSize: 1000 });
    rows = all.json().rows;
    expect(rows).toHaveLength(N);

    const firsts = ['ann', 'Ann', 'Bea', 'carl', 'Dora'];
    const lasts = ['Lee', 'lee', 'Smith', 'adams', 'Young', 'Zimmer'];
    await runPool(
      Array.from({ length: 25 }, (_, i) => i),
      5,
      async (i) => {
        const res = await c.post('/api/v1/entity/create', {
          entityType: 'contact',
          data: { firstName: pick(firsts), lastName: pick(lasts), email: `p${String(i).padStart(2, '0')}${pick(['a', 'b'])}@example.com` },
        });
        expect(res.statusCode, res.body).toBe(201);
      },
    );
    contacts = (await c.post('/api/v1/contact/get-contacts', { pageSize: 1000 })).json().rows;
    expect(contacts).toHaveLength(25);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const page = async (body: Record<string, unknown>, url = '/api/v1/company/get-companies') => {
    const res = await c.post(url, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** Every page of a query, one request per page. */
  const allPages = async (body: Record<string, unknown>, pageSize: number, url?: string) => {
    const first = await page({ ...body, pageIndex: 0, pageSize }, url);
    const out = [...first.rows];
    for (let p = 1; p < first.totalPages; p++) {
      const res = await page({ ...body, pageIndex: p, pageSize }, url);
      expect(res.pageIndex).toBe(p);
      expect(res.rows.length, `page ${p}`).toBe(Math.min(pageSize, first.totalRecords - p * pageSize));
      out.push(...res.rows);
    }
    return { first, ids: out.map((r: { id: string }) => r.id) };
  };
  const ids = (xs: { id: string }[]) => xs.map((x) => x.id);
  const val = (r: Row, field: FieldLike) => (r.fields[field.id]?.value ?? null) as Key;

  describe('paging', () => {
    it('defaults: first page of 10, companies sorted by name ascending (ignoring case, then id)', async () => {
      const res = await page({});
      expect(res).toMatchObject({ success: true, totalRecords: N, totalPages: 6, hasRecords: true, pageIndex: 0, pageSize: 10 });
      const expected = sortRows(rows, (r) => r.name.toLowerCase(), false);
      expect(ids(res.rows)).toEqual(ids(expected.slice(0, 10)));
    });

    it('pageIndex is zero-based; every page, including pages past the middle and the short last page, has the right rows', async () => {
      const expected = ids(sortRows(rows, (r) => r.name.toLowerCase(), false));
      for (const size of [7, 13]) {
        const { first, ids: got } = await allPages({}, size);
        expect(first.totalPages).toBe(Math.ceil(N / size));
        expect(got).toEqual(expected);
      }
    });

    it('the last page alone, and a page just past the middle', async () => {
      const expected = ids(sortRows(rows, (r) => r.name.toLowerCase(), false));
      const last = await page({ pageIndex: 8, pageSize: 7 });
      expect(ids(last.rows)).toEqual(expected.slice(56, 60));
      const pastMiddle = await page({ pageIndex: 5, pageSize: 7 });
      expect(ids(pastMiddle.rows)).toEqual(expected.slice(35, 42));
      const middle = await page({ pageIndex: 4, pageSize: 7 });
      expect(ids(middle.rows)).toEqual(expected.slice(28, 35));
    });

    it.each([...ROWS_PER_PAGE_CHOICES])('rows-per-page choice %i', async (size) => {
      const expected = ids(sortRows(rows, (r) => r.name.toLowerCase(), true));
      const { first, ids: got } = await allPages({ sortKey: 'name', sortOrder: 'desc' }, size);
      expect(first).toMatchObject({ totalRecords: N, totalPages: Math.ceil(N / size), pageSize: size });
      expect(got).toEqual(expected);
    });

    it('a page past the end is empty but still counts', async () => {
      const res = await page({ pageIndex: 6, pageSize: 10 });
      expect(res).toMatchObject({ rows: [], totalRecords: N, totalPages: 6, hasRecords: true, pageIndex: 6 });
      expect((await page({ pageIndex: 500, pageSize: 20 })).rows).toEqual([]);
    });

    it('an empty result: one page, no records', async () => {
      const res = await page({ text: 'no-such-company-anywhere' });
      expect(res).toMatchObject({ rows: [], totalRecords: 0, totalPages: 1, hasRecords: false });
    });

    it('refuses a negative page, a page size out of 1..1000, and non-integers', async () => {
      for (const body of [{ pageIndex: -1 }, { pageSize: 0 }, { pageSize: 1001 }, { pageIndex: 1.5 }, { pageSize: '10' }]) {
        expect((await c.post('/api/v1/company/get-companies', body)).statusCode, JSON.stringify(body)).toBe(400);
      }
    });

    it('never shows another organization’s rows', async () => {
      const res = await page({ text: 'other', pageSize: 100 });
      expect(res.rows.every((r: Row) => rows.some((x) => x.id === r.id))).toBe(true);
      const theirs = await other.post('/api/v1/company/get-companies', { pageSize: 100 });
      expect(theirs.json().totalRecords).toBe(3);
    });
  });

  describe('sorting', () => {
    const builtIn: [string, (r: Row) => Key][] = [
      ['name', (r) => r.name.toLowerCase()],
      ['website', (r) => r.website.toLowerCase()],
      ['domain', (r) => r.domain],
      ['created_at', (r) => r.createdAt],
      ['owner', (r) => (r.owner ? `${r.owner.firstName} ${r.owner.lastName}`.toLowerCase() : null)],
    ];
    for (const [key, get] of builtIn) {
      for (const order of ['asc', 'desc'] as const) {
        it(`built-in ${key} ${order} (every page)`, async () => {
          const { ids: got } = await allPages({ sortKey: key, sortOrder: order }, 13);
          // The owner sort: owners by name, then by owner (users may share a name), each owner's
          // companies by name; the companies without an owner by name.
          const owner = key === 'owner';
          expect(got).toEqual(
            ids(sortRows(rows, get, order === 'desc', owner ? byName : undefined, owner ? (r) => [r.owner!.id, byName(r)] : undefined)),
          );
        });
      }
    }

    for (const which of ['int', 'string', 'date', 'boolean'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        it(`custom ${which} field ${order}, rows without a value last (every page)`, async () => {
          const field = { int: fInt, string: fText, date: fDate, boolean: fBool }[which];
          const get = (r: Row) => {
            const v = val(r, field);
            return typeof v === 'string' && which === 'string' ? v.toLowerCase() : v;
          };
          const { ids: got } = await allPages({ sortKey: field.key, sortOrder: order }, 13);
          const expected = sortRows(rows, get, order === 'desc', byName);
          expect(got).toEqual(ids(expected));
          // And the empty ones really are at the end.
          const firstEmpty = expected.findIndex((r) => val(r, field) === null);
          expect(firstEmpty).toBeGreaterThan(0);
          expect(expected.slice(firstEmpty).every((r) => val(r, field) === null)).toBe(true);
        });
      }
    }

    it('a custom field can be named by its id too', async () => {
      const res = await page({ sortKey: fInt.id, sortOrder: 'asc', pageSize: 1000 });
      expect(ids(res.rows)).toEqual(ids(sortRows(rows, (r) => val(r, fInt), false, byName)));
    });

    it('sortKey without sortOrder (or with none) keeps the default order', async () => {
      const expected = ids(sortRows(rows, (r) => r.name.toLowerCase(), false));
      expect(ids((await page({ sortKey: 'website', pageSize: 1000 })).rows)).toEqual(expected);
      expect(ids((await page({ sortKey: 'website', sortOrder: null, pageSize: 1000 })).rows)).toEqual(expected);
    });

    it("an unknown sort key is 400 'Unknown sort column'", async () => {
      const res = await c.post('/api/v1/company/get-companies', { sortKey: 'nope', sortOrder: 'asc' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'Unknown sort column' });
    });

    it('a custom field whose key looks like a built-in sort alias sorts by the field', async () => {
      const updated = await newField(c, 'company', 'int', 'Updated at');
      expect(updated.key).toBe('updated_at');
      // Values that run against creation (and update) order.
      const byCreation = sortRows(rows, (r) => r.createdAt, false);
      await runPool(
        byCreation.map((r, i) => [r, i] as const),
        5,
        async ([r, i]) => setValue(c, 'company', r.id, updated.id, N - i),
      );
      const res = await page({ sortKey: 'updated_at', sortOrder: 'asc', pageSize: 1000 });
      expect(ids(res.rows)).toEqual(ids([...byCreation].reverse()));
    });
  });

  describe('search and filters', () => {
    it('text search matches name or domain, ignoring case, with paging', async () => {
      const match = (r: Row) => `${r.name} ${r.domain}`.toLowerCase().includes('acme');
      const expected = ids(sortRows(rows.filter(match), (r) => r.name.toLowerCase(), false));
      expect(expected.length).toBeGreaterThan(5);
      const { first, ids: got } = await allPages({ text: 'ACME' }, 4);
      expect(first.totalRecords).toBe(expected.length);
      expect(got).toEqual(expected);
      const byDomain = await page({ text: rows[0].domain, pageSize: 100 });
      expect(ids(byDomain.rows)).toContain(rows[0].id);
    });

    it('search, a filter, a sort and a late page together', async () => {
      const match = (r: Row) =>
        `${r.name} ${r.domain}`.toLowerCase().includes('a') && val(r, fInt) !== null && (val(r, fInt) as number) >= 5;
      const expected = ids(sortRows(rows.filter(match), (r) => val(r, fDate), true, byName));
      const { first, ids: got } = await allPages(
        { text: 'a', filters: [f(fInt.key, [['greater_than_or_equal', 5]])], sortKey: fDate.key, sortOrder: 'desc' },
        3,
      );
      expect(first.totalRecords).toBe(expected.length);
      expect(got).toEqual(expected);
    });

    it('built-in filters: name, owner (in), created date', async () => {
      const byName = await page({ filters: [f('name', [['starts_with', 'ACM']])], pageSize: 1000 });
      expect(ids(byName.rows).sort()).toEqual(ids(rows.filter((r) => r.name.toLowerCase().startsWith('acm'))).sort());
      const byOwner = await page({ filters: [f('owner', [['in', [ownerId]]])], pageSize: 1000 });
      expect(ids(byOwner.rows).sort()).toEqual(ids(rows.filter((r) => r.owner?.id === ownerId)).sort());
      expect((await page({ filters: [f('created_at', [['less_than', '2000-01-01']])] })).totalRecords).toBe(0);
      expect((await page({ filters: [f('created_at', [['between', ['2000-01-01', '2999-12-31']]])] })).totalRecords).toBe(N);
    });

    const bad: [string, unknown, string][] = [
      ['an empty value', [f('name', [['contains', '']])], 'Please fill in all condition values before saving.'],
      ['a blank value', [f('name', [['contains', '   ']])], 'Please fill in all condition values before saving.'],
      ['between with one end', [f('deals', [['between', [1]]])], 'Please fill in all condition values before saving.'],
      ['between with an empty end', [f('deals', [['between', [1, '']]])], 'Please fill in all condition values before saving.'],
      ['a filter without conditions', [{ key: 'name', items: [] }], 'Please fill in all condition values before saving.'],
      ['an owner filter without ids', [f('owner', [['in', []]])], 'Please fill in all condition values before saving.'],
      [
        'an owner filter with something else than ids',
        [f('owner', [['in', ['bob']]])],
        'Please fill in all condition values before saving.',
      ],
      ['a non-numeric number', [f('deals', [['equals', 'ten']])], 'Please fill in all condition values before saving.'],
      ['a negative number', [f('deals', [['greater_than', -1]])], 'Negative numbers are not allowed.'],
      ['a negative end of between', [f('deals', [['between', [0, '-5']]])], 'Negative numbers are not allowed.'],
      [
        'more than 5 conditions',
        [
          f('name', [
            ['contains', 'a'],
            ['contains', 'b'],
            ['contains', 'c'],
            ['contains', 'd'],
            ['contains', 'e'],
            ['contains', 'f'],
          ]),
        ],
        'A filter can have at most 5 conditions.',
      ],
      [
        'two conditions on the owner',
        [
          f('owner', [
            ['in', ['5b3a3c1e-8d4f-4c1a-9f2e-1a2b3c4d5e6f']],
            ['in', ['5b3a3c1e-8d4f-4c1a-9f2e-1a2b3c4d5e6f']],
          ]),
        ],
        'A filter can have at most 5 conditions.',
      ],
      ['greater than on text', [f('sector', [['greater_than', 'a']])], 'This condition is not supported for this field type.'],
      ['contains on a number', [f('deals', [['contains', '1']])], 'This condition is not supported for this field type.'],
      ['ends_with (not offered for strings)', [f('sector', [['ends_with', 'x']])], 'This condition is not supported for this field type.'],
      ['less than on a boolean', [f('public', [['less_than', true]])], 'This condition is not supported for this field type.'],
      ['an unknown field key', [f('no_such_field', [['equals', 'x']])], 'Unknown filter field'],
      ['another entity’s field key', [f('first_name', [['equals', 'x']])], 'Unknown filter field'],
    ];
    it.each(bad)('400 for %s, with the filter editor’s message', async (_what, filters, message) => {
      for (const url of ['/api/v1/company/get-companies', '/api/v1/company/export', '/api/v1/company/bulk-delete']) {
        const body = url.endsWith('get-companies') ? { filters } : { selection: { allSelected: true, filters } };
        const res = await c.post(url, body);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().message, url).toBe(message);
      }
      expect((await page({})).totalRecords).toBe(N);
    });

    it('the filter keys used above are the fields’ keys', () => {
      expect([fInt.key, fText.key, fBool.key]).toEqual(['deals', 'sector', 'public']);
    });
  });

  describe('contacts table', () => {
    const byName = (r: ContactRow) => `${r.lastName.toLowerCase()}\u0000${r.firstName.toLowerCase()}`;

    it('default order: last name, then first name, ascending (ignoring case); every page', async () => {
      const { first, ids: got } = await allPages({}, 4, '/api/v1/contact/get-contacts');
      expect(first).toMatchObject({ totalRecords: 25, totalPages: 7, hasRecords: true, pageSize: 4 });
      expect(got).toEqual(ids(sortRows(contacts, byName, false)));
    });

    for (const [key, get] of [
      ['first_name', (r: ContactRow) => r.firstName.toLowerCase()],
      ['last_name', (r: ContactRow) => r.lastName.toLowerCase()],
      ['email', (r: ContactRow) => r.email],
      ['created_at', (r: ContactRow) => r.createdAt],
    ] as const) {
      for (const order of ['asc', 'desc'] as const) {
        it(`${key} ${order}`, async () => {
          const { ids: got } = await allPages({ sortKey: key, sortOrder: order }, 6, '/api/v1/contact/get-contacts');
          expect(got).toEqual(ids(sortRows(contacts, get, order === 'desc')));
        });
      }
    }

    it('search by name or email; filters with the same validation', async () => {
      const res = await page({ text: 'LEE', pageSize: 100 }, '/api/v1/contact/get-contacts');
      expect(ids(res.rows)).toEqual(
        ids(
          sortRows(
            contacts.filter((r) => `${r.firstName} ${r.lastName} ${r.email}`.toLowerCase().includes('lee')),
            byName,
            false,
          ),
        ),
      );
      const email = await page({ filters: [f('email', [['starts_with', 'P0']])], pageSize: 100 }, '/api/v1/contact/get-contacts');
      expect(email.totalRecords).toBe(10);
      const badRes = await c.post('/api/v1/contact/get-contacts', { filters: [f('first_name', [['between', ['a', 'b']]])] });
      expect(badRes.statusCode).toBe(400);
      expect(badRes.json().message).toBe('This condition is not supported for this field type.');
      const unknown = await c.post('/api/v1/contact/get-contacts', { filters: [f('website', [['equals', 'x']])] });
      expect(unknown.json().message).toBe('Unknown filter field');
    });

    it('a custom contact field named "Name" sorts by its own values, not by last name', async () => {
      const field = await newField(c, 'contact', 'string', 'Name');
      expect(field.key).toBe('name');
      const sorted = sortRows(contacts, byName, false);
      // Values in the reverse of the last-name order.
      await runPool(
        sorted.map((r, i) => [r, i] as const),
        5,
        async ([r, i]) => setValue(c, 'contact', r.id, field.id, `v${String(100 - i).padStart(3, '0')}`),
      );
      const res = await page({ sortKey: 'name', sortOrder: 'asc', pageSize: 1000 }, '/api/v1/contact/get-contacts');
      expect(ids(res.rows)).toEqual(ids([...sorted].reverse()));
      // Filtering on the key uses the same field.
      const filtered = await page({ filters: [f('name', [['equals', 'V100']])] }, '/api/v1/contact/get-contacts');
      expect(ids(filtered.rows)).toEqual([sorted[0].id]);
    });
  });
});
