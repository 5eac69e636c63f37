// writeFieldValue keeps the typed copy of a custom value on the record row (projection.ts) in step
// with field_value, and record_count's per-slot rows in step with the filled slots: after every
// kind of write (set, overwrite, clear, enrichment outcome without a value, concurrent writes,
// record deletes) the slot column equals the projection of the stored value and the maintained
// count equals a real count. Fields past the 16 slots of their family work through field_value.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newCompany, newField, setValue, f, type FieldLike } from '../../../test/records';
import { type FieldDataType } from '@dealscout/shared/domain';
import { FieldDefinition } from './field.entity';
import { writeFieldValue } from './field-values';
import { familySlots, projectionOf, slotColumn, NUM_SLOTS, TEXT_SLOTS } from './projection';
import { slotTotal } from '../records/table-query';

describe('custom values and their typed copies on the record row', () => {
  let ctx: TestContext;
  let c: TestClient;
  let org: string;
  const fields = new Map<string, FieldLike & { slot: number }>();
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => ctx.em().getConnection().execute<T[]>(text, params);

  beforeAll(async () => {
    ctx = await createTestApp();
    const o = await createOrg(ctx, { name: 'Slots' });
    org = o.organization.id;
    c = await signedIn(ctx, o.admin.email, '10.63.0.1');
    for (const t of ['int', 'double', 'boolean', 'string', 'date', 'object', 'email'] as const) {
      const field = await newField(c, 'company', t, `S ${t}`);
      const [row] = await sql<{ slot: number | null }>(`select slot from field_definition where id = ?`, [field.id]);
      fields.set(t, { ...field, slot: row.slot! });
    }
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** Every slot column of the organization's companies equals the projection of its field_value, and every count is right. */
  async function expectInStep(): Promise<void> {
    for (const [type, field] of fields) {
      const col = slotColumn(field.slot);
      const rows = await sql<{ id: string; slot: unknown; value: unknown }>(
        `select r.id, r.${col} as slot, v.value from company r left join field_value v on v.field_id = ? and v.entity_id = r.id where r.organization_id = ?`,
        [field.id, org],
      );
      for (const r of rows) expect(r.slot, `${type} ${r.id}`).toEqual(projectionOf(type as FieldDataType, r.value ?? null));
      const filled = rows.filter((r) => r.slot !== null).length;
      expect(await slotTotal(ctx.em(), org, 'company', field.slot), `${type} count`).toBe(filled);
    }
  }

  it('custom fields get the lowest free slot of their family: numbers and booleans numeric, the rest text', () => {
    const num = familySlots('num');
    const txt = familySlots('txt');
    expect([fields.get('int')!.slot, fields.get('double')!.slot, fields.get('boolean')!.slot]).toEqual(num.slice(0, 3));
    expect([fields.get('string')!.slot, fields.get('date')!.slot, fields.get('object')!.slot, fields.get('email')!.slot]).toEqual(
      txt.slice(0, 4),
    );
    expect(slotColumn(num[0])).toBe('num_1');
    expect(slotColumn(txt[0])).toBe(`txt_1`);
  });

  it('set, overwrite and clear through the API keep the slot and the counts in step', async () => {
    const a = await newCompany(c);
    const b = await newCompany(c);
    const values: [string, unknown, unknown][] = [
      ['int', 7, '12'],
      ['double', 2.5, 0],
      ['boolean', true, 'no'],
      ['string', 'MiXeD Case', 'other'],
      ['date', '2024-02-29', '2023-01-01'],
      ['object', { A: 1 }, '[1,"X"]'],
      ['email', 'Pat@Example.COM', 'x@y.z'],
    ];
    for (const [t, v] of values) await setValue(c, 'company', a.id, fields.get(t)!.id, v);
    for (const [t, , w] of values) await setValue(c, 'company', b.id, fields.get(t)!.id, w);
    await expectInStep();
    const [row] = await sql<Record<string, unknown>>(
      `select ${[...fields.values()].map((x) => slotColumn(x.slot)).join(', ')}, filled_mask::text as mask from company where id = ?`,
      [a.id],
    );
    expect(row[slotColumn(fields.get('string')!.slot)]).toBe('mixed case');
    expect(row[slotColumn(fields.get('boolean')!.slot)]).toBe(1);
    expect(row[slotColumn(fields.get('date')!.slot)]).toBe('2024-02-29');
    expect(row[slotColumn(fields.get('object')!.slot)]).toBe('{"a":1}');
    const bits = [...fields.values()].reduce((m, x) => m | (1n << BigInt(x.slot - 1)), 0n);
    expect(BigInt(row.mask as string)).toBe(bits);
    // Overwrite, then clear with an empty value.
    await setValue(c, 'company', a.id, fields.get('int')!.id, 8);
    await setValue(c, 'company', a.id, fields.get('string')!.id, '');
    await setValue(c, 'company', b.id, fields.get('boolean')!.id, null);
    await expectInStep();
  });

  it('a refused value changes neither copy', async () => {
    const a = await newCompany(c);
    await setValue(c, 'company', a.id, fields.get('int')!.id, 3);
    const res = await c.put('/api/v1/entity/company/field', { entityId: a.id, fieldId: fields.get('int')!.id, value: 'three' });
    expect(res.statusCode).toBe(400);
    await expectInStep();
    const [row] = await sql<{ v: number }>(`select ${slotColumn(fields.get('int')!.slot)} as v from company where id = ?`, [a.id]);
    expect(row.v).toBe(3);
  });

  it("an enrichment's outcome without a value keeps the cell, empties the slot; with a value sets both", async () => {
    const a = await newCompany(c);
    const field = await ctx.em().findOneOrFail(FieldDefinition, { id: fields.get('double')!.id }, { filters: false });
    await setValue(c, 'company', a.id, field.id, 4.5);
    const em = ctx.em();
    const failed = await writeFieldValue(em, {
      organizationId: org,
      entityType: 'company',
      entityId: a.id,
      field,
      value: null,
      meta: { status: 'failed', statusMessage: 'No data found' },
    });
    expect(failed).toMatchObject({ value: null, status: 'failed', statusMessage: 'No data found' });
    await expectInStep();
    const done = await writeFieldValue(em, {
      organizationId: org,
      entityType: 'company',
      entityId: a.id,
      field,
      value: '9.25',
      meta: { status: 'completed', infoValue: { source: 'x' }, details: { why: 'y' } },
    });
    expect(done).toMatchObject({ value: 9.25, status: 'completed', infoValue: { source: 'x' }, details: { why: 'y' } });
    // A manual edit afterwards keeps the enrichment's info value and details.
    await setValue(c, 'company', a.id, field.id, 1);
    const [cell] = await sql<{ info_value: unknown; details: unknown; status: string }>(
      `select info_value, details, status from field_value where field_id = ? and entity_id = ?`,
      [field.id, a.id],
    );
    expect(cell).toEqual({ info_value: { source: 'x' }, details: { why: 'y' }, status: 'completed' });
    await expectInStep();
  });

  it("another organization's record is 404 and nothing is written", async () => {
    const o2 = await createOrg(ctx, { name: 'Slots other' });
    const c2 = await signedIn(ctx, o2.admin.email, '10.63.0.2');
    const theirs = await newCompany(c2);
    const field = await ctx.em().findOneOrFail(FieldDefinition, { id: fields.get('int')!.id }, { filters: false });
    await expect(
      writeFieldValue(ctx.em(), { organizationId: org, entityType: 'company', entityId: theirs.id, field, value: 5 }),
    ).rejects.toMatchObject({ statusCode: 404 });
    expect(await sql(`select 1 from field_value where entity_id = ?`, [theirs.id])).toHaveLength(0);
    expect((await c.put('/api/v1/entity/company/field', { entityId: theirs.id, fieldId: field.id, value: 5 })).statusCode).toBe(404);
  });

  it('concurrent writes to one cell end with both copies from the same write', async () => {
    const a = await newCompany(c);
    const field = fields.get('int')!;
    for (let round = 0; round < 5; round++) {
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          c.put('/api/v1/entity/company/field', { entityId: a.id, fieldId: field.id, value: i % 3 === 0 ? '' : round * 10 + i }),
        ),
      );
      await expectInStep();
    }
  });

  it('deleting records (one, and all selected by a slot filter) takes their values out of the counts', async () => {
    const made = await Promise.all(Array.from({ length: 6 }, () => newCompany(c)));
    for (const [i, r] of made.entries()) await setValue(c, 'company', r.id, fields.get('double')!.id, 100 + i);
    expect((await c.del(`/api/v1/company/delete/${made[0].id}`)).statusCode).toBe(200);
    const res = await c.post('/api/v1/company/bulk-delete', {
      selection: { allSelected: true, filters: [f(fields.get('double')!.key, [['greater_than_or_equal', 103]])] },
    });
    expect(res.json().count).toBe(3);
    await expectInStep();
  });

  it('fields created at the same time get different slots', async () => {
    const made = await Promise.all(Array.from({ length: 4 }, (_, i) => newField(c, 'company', 'double', `Together ${i}`)));
    const slots = await sql<{ slot: number | null }>(
      `select slot from field_definition where id in (${made.map(() => '?').join(', ')})`,
      made.map((x) => x.id),
    );
    expect(slots.every((x) => x.slot !== null)).toBe(true);
    expect(new Set(slots.map((x) => x.slot)).size).toBe(4);
  });

  it('a field past the 16 slots of its family has none and still filters and sorts (through field_value)', async () => {
    const extra: FieldLike[] = [];
    const [{ n: taken }] = await sql<{ n: number }>(
      `select count(*)::int as n from field_definition where organization_id = ? and entity_type = 'company' and slot <= ?`,
      [org, NUM_SLOTS],
    );
    for (let i = taken; i < NUM_SLOTS + 1; i++) extra.push(await newField(c, 'company', 'int', `Extra ${i}`));
    const slots = await sql<{ id: string; slot: number | null }>(
      `select id, slot from field_definition where id in (${extra.map(() => '?').join(', ')})`,
      extra.map((x) => x.id),
    );
    const last = extra[extra.length - 1];
    expect(slots.find((x) => x.id === last.id)!.slot).toBeNull();
    expect(slots.filter((x) => x.slot !== null)).toHaveLength(extra.length - 1);
    expect(TEXT_SLOTS).toBe(16);
    const rs = await Promise.all([
      newCompany(c, { name: 'Zz past slots' }),
      newCompany(c, { name: 'Aa past slots' }),
      newCompany(c, { name: 'Mm past slots' }),
    ]);
    await setValue(c, 'company', rs[0].id, last.id, 5);
    await setValue(c, 'company', rs[1].id, last.id, 9);
    const page = await c.post('/api/v1/company/get-companies', { text: 'past slots', sortKey: last.key, sortOrder: 'desc', pageSize: 10 });
    expect(page.json().rows.map((r: { id: string }) => r.id)).toEqual([rs[1].id, rs[0].id, rs[2].id]);
    const filtered = await c.post('/api/v1/company/get-companies', { filters: [f(last.key, [['less_than', 7]])], pageSize: 10 });
    expect(filtered.json().rows.map((r: { id: string }) => r.id)).toEqual([rs[0].id]);
  });
});
