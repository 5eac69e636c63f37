// Property: for any valid filter set, get-companies returns exactly the rows that the reference
// evaluation `matchesFilters` (shared/src/domain/filters.ts) selects in memory over the same data;
// sorted by a custom field, in exactly the reference order, page after page.
// The data (40 companies, custom fields of six types — double, int, string, date, boolean, object — with some values missing) is generated once
// from a fixed seed; the filter sets are random on every run (fast-check prints the seed of a
// failure so it can be replayed with `seed`).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fc from 'fast-check';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newField, setValue, type FieldLike } from '../../../test/records';
import {
  conditionsFor,
  coerceFieldValue,
  matchesFilters,
  type FieldDataType,
  type FilterCondition,
  type TableFilter,
} from '@dealscout/shared/domain';

type Custom = 'double' | 'int' | 'string' | 'date' | 'boolean' | 'object';
const TYPES: Custom[] = ['double', 'int', 'string', 'date', 'boolean', 'object'];
const COMPANIES = 40;
/** The keys filtered on: the built-in name and the custom fields (labels 'P double'… give 'p_double'…). */
const KEYS = ['name', ...TYPES.map((t) => `p_${t}`)];

// Text from a small alphabet so that filters hit: mixed case, an accented letter in both cases,
// a space and the LIKE wildcards and escape character, which must match only themselves.
const ALPHABET = ['a', 'A', 'b', 'B', 'c', 'é', 'É', ' ', '%', '_', '\\', 'z'];
const textArb = (minLength: number, maxLength: number) =>
  fc.array(fc.constantFrom(...ALPHABET), { minLength, maxLength }).map((cs) => cs.join(''));
const DOUBLES = [0, 0.5, 1.25, 2, 3.75, 10, 12.5];
const doubleArb = fc.oneof(fc.constantFrom(...DOUBLES, -1.5, -3), fc.double({ min: -20, max: 20, noNaN: true, noDefaultInfinity: true }));
const intArb = fc.integer({ min: -5, max: 15 });
const dateArb = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2021-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const valueArb: Record<Custom, fc.Arbitrary<unknown>> = {
  double: doubleArb,
  int: intArb,
  string: textArb(0, 6),
  date: dateArb,
  boolean: fc.boolean(),
  // Objects (filtered on as their JSON text), and text that is not JSON.
  object: fc.oneof(
    fc.dictionary(textArb(1, 2), fc.oneof(textArb(0, 3), fc.integer({ min: 0, max: 9 })), { maxKeys: 2, noNullPrototype: true }),
    textArb(1, 4),
  ),
};
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { freq: 5, nil: null });

describe('filter → SQL translation matches the reference evaluation (property)', () => {
  let ctx: TestContext;
  let c: TestClient;
  const fields = new Map<Custom, FieldLike>();
  /** The stored values, as the reference sees them: company id → key → value. */
  const data = new Map<string, Record<string, unknown>>();
  const typeOfKey = new Map<string, FieldDataType>();
  /** Values present in the data, per key, so that filters often hit (equals, between ends). */
  const seen = new Map<string, unknown[]>();

  beforeAll(async () => {
    ctx = await createTestApp();
    const org = await createOrg(ctx, { name: 'Property' });
    c = await signedIn(ctx, org.admin.email, '10.37.0.1');
    for (const t of TYPES) {
      const field = await newField(c, 'company', t, `P ${t}`);
      fields.set(t, field);
      typeOfKey.set(field.key, t);
    }
    typeOfKey.set('name', 'string');
    const rowArb = fc.record({
      name: textArb(1, 6).filter((s) => s.trim().length > 0),
      values: fc.record(Object.fromEntries(TYPES.map((t) => [t, maybe(valueArb[t])])) as Record<Custom, fc.Arbitrary<unknown>>),
    });
    const rows = fc.sample(rowArb, { seed: 20261122, numRuns: COMPANIES });
    const created: { id: string; values: Record<Custom, unknown> }[] = [];
    for (let i = 0; i < rows.length; i++) {
      const res = await c.post('/api/v1/entity/create', {
        entityType: 'company',
        data: { name: rows[i].name, website: `p${i}.example.com` },
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().companyId as string;
      created.push({ id, values: rows[i].values });
      data.set(id, { name: rows[i].name.trim() });
    }
    const writes = created.flatMap(({ id, values }) => TYPES.filter((t) => values[t] !== null).map((t) => ({ id, t, v: values[t] })));
    for (let i = 0; i < writes.length; i += 5) {
      await Promise.all(writes.slice(i, i + 5).map(({ id, t, v }) => setValue(c, 'company', id, fields.get(t)!.id, v)));
    }
    for (const { id, t, v } of writes) {
      const coerced = coerceFieldValue(t, v);
      if (!coerced.ok) throw new Error(`generated an invalid ${t}: ${String(v)}`);
      if (coerced.value !== null) data.get(id)![fields.get(t)!.key] = coerced.value;
    }
    // The server holds what the reference will read.
    const all = (await c.post('/api/v1/company/get-companies', { pageSize: 1000 })).json().rows as {
      id: string;
      name: string;
      fields: Record<string, { value: unknown }>;
    }[];
    expect(all).toHaveLength(COMPANIES);
    for (const row of all) {
      const mine = data.get(row.id)!;
      expect(row.name).toBe(mine.name);
      for (const t of TYPES)
        expect(row.fields[fields.get(t)!.id]?.value ?? null, `${row.id} ${t}`).toEqual(mine[fields.get(t)!.key] ?? null);
    }
    for (const key of typeOfKey.keys())
      seen.set(
        key,
        [...data.values()].map((r) => r[key]).filter((v) => v !== undefined && v !== null && v !== ''),
      );
    // The data has gaps in every field (negative conditions must include them).
    for (const t of TYPES) expect(seen.get(fields.get(t)!.key)!.length).toBeLessThan(COMPANIES);
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** A valid value for a condition on `key`: non-negative numbers, filled text, real dates, booleans. */
  const filterValueArb = (key: string): fc.Arbitrary<unknown> => {
    const t = typeOfKey.get(key)!;
    // Values are typed as text in the editor (an object as its JSON); blank text is refused there.
    const asText = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : v);
    const present = seen
      .get(key)!
      .map(asText)
      .filter((v) => typeof v !== 'string' || v.trim().length > 0);
    const fromData = present.length ? [fc.constantFrom(...present)] : [];
    switch (t) {
      case 'double':
        return fc.oneof(
          ...fromData.map((a) => a.map((v) => Math.abs(v as number))),
          fc.constantFrom(...DOUBLES),
          fc.double({ min: 0, max: 20, noNaN: true, noDefaultInfinity: true }),
          fc.constantFrom('2.5', '10'),
        );
      case 'int':
        return fc.oneof(
          ...fromData.map((a) => a.map((v) => Math.abs(v as number))),
          fc.integer({ min: 0, max: 16 }),
          fc.constantFrom('3', '0'),
        );
      case 'date':
        return fc.oneof(...fromData, dateArb);
      case 'boolean':
        return fc.boolean();
      default: {
        const text = textArb(1, 3).filter((s) => s.trim().length > 0);
        // Whole values (equals), and pieces of values (contains, starts with), in any case.
        const piece = fromData.length
          ? fromData[0]
              .chain((v) =>
                fc.tuple(fc.nat(), fc.nat(), fc.boolean()).map(([i, j, upper]) => {
                  const s = String(v);
                  const from = i % s.length;
                  const cut = s.slice(from, from + 1 + (j % (s.length - from)));
                  return upper ? cut.toUpperCase() : cut;
                }),
              )
              .filter((s) => s.trim().length > 0)
          : text;
        return fc.oneof(
          ...fromData.map((arbitrary) => ({ arbitrary, weight: 2 })),
          { arbitrary: piece, weight: 3 },
          { arbitrary: text, weight: 1 },
        );
      }
    }
  };

  const itemArb = (key: string) =>
    fc.constantFrom(...conditionsFor(typeOfKey.get(key)!)).chain((condition: FilterCondition) => {
      const v = filterValueArb(key);
      const value = condition === 'between' || condition === 'not_between' ? fc.tuple(v, v) : v;
      return value.map((d) => ({ condition, data: d as unknown }));
    });

  const filterArb = fc.constantFrom(...KEYS).chain((key) =>
    fc
      .record({
        key: fc.constant(key),
        operator: fc.constantFrom<'and' | 'or' | undefined>('or', 'or', 'and', undefined),
        items: fc.array(itemArb(key), { minLength: 1, maxLength: 3 }),
      })
      .map((f0) => ({ ...f0, items: f0.items.map((it, i) => ({ id: String(i + 1), ...it })) }) as TableFilter),
  );

  it('the field keys are the ones the generator uses', () => {
    expect([...typeOfKey.keys()].sort()).toEqual([...KEYS].sort());
  });

  it('get-companies returns exactly the rows matchesFilters selects', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(filterArb, { minLength: 1, maxLength: 3 }), async (filters) => {
        const res = await c.post('/api/v1/company/get-companies', { filters, pageSize: 1000 });
        expect(res.statusCode, res.body).toBe(200);
        const got = (res.json().rows as { id: string }[]).map((r) => r.id).sort();
        const expected = [...data.entries()]
          .filter(([, row]) =>
            matchesFilters(
              (k) => row[k] ?? null,
              filters,
              (k) => typeOfKey.get(k)!,
            ),
          )
          .map(([id]) => id)
          .sort();
        expect(got).toEqual(expected);
        expect(res.json().totalRecords).toBe(expected.length);
      }),
      { numRuns: 100 },
    );
  });

  // Sorting by a custom field (the slot's index, then the rows without a value in name order),
  // paged in pages of 7 so that pages straddle the seam: every page together gives exactly the
  // reference order — value (text ignoring case), ties by id; rows without a value last, by name
  // then id; everything in the sort's direction.
  it('a custom sort on a filtered set gives the reference order on every page', async () => {
    const SORTED: Custom[] = ['double', 'int', 'string', 'date', 'boolean'];
    const cmp = (x: unknown, y: unknown) => (x === y ? 0 : (x as string | number) < (y as string | number) ? -1 : 1);
    await fc.assert(
      fc.asyncProperty(
        fc.array(filterArb, { minLength: 0, maxLength: 2 }),
        fc.constantFrom(...SORTED),
        fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
        async (filters, type, sortOrder) => {
          const key = fields.get(type)!.key;
          const got: string[] = [];
          let total = -1;
          for (let pageIndex = 0; total < 0 || pageIndex * 7 < total; pageIndex++) {
            const res = await c.post('/api/v1/company/get-companies', { filters, sortKey: key, sortOrder, pageIndex, pageSize: 7 });
            expect(res.statusCode, res.body).toBe(200);
            total = res.json().totalRecords;
            got.push(...(res.json().rows as { id: string }[]).map((r) => r.id));
          }
          const sortValue = (v: unknown) =>
            typeof v === 'string' && type === 'string' ? v.toLowerCase() : v === true ? 1 : v === false ? 0 : v;
          const expected = [...data.entries()]
            .filter(([, row]) =>
              matchesFilters(
                (k) => row[k] ?? null,
                filters,
                (k) => typeOfKey.get(k)!,
              ),
            )
            .sort(([ia, a], [ib, b]) => {
              const va = a[key] ?? null;
              const vb = b[key] ?? null;
              if (va === null && vb !== null) return 1;
              if (vb === null && va !== null) return -1;
              const c0 = va === null ? cmp(String(a.name).toLowerCase(), String(b.name).toLowerCase()) : cmp(sortValue(va), sortValue(vb));
              const c1 = c0 || cmp(ia, ib);
              return sortOrder === 'desc' ? -c1 : c1;
            })
            .map(([id]) => id);
          expect(total).toBe(expected.length);
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  });
});
