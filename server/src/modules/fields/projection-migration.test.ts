// Migration20261122172000 on a database that already has custom values: rolled back and applied
// again on data written through the API, it gives the existing fields slots (per organization,
// entity type and family, in creation order) and copies their values onto the records, with the
// filled counts — the same state writeFieldValue keeps.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newCompany, newContact, newField, setValue, type FieldLike } from '../../../test/records';
import type { FieldDataType } from '@dealscout/shared/domain';
import { familySlots, projectionOf, slotColumn } from './projection';
import { slotTotal } from '../records/table-query';

const MIGRATION = 'Migration20261122172000';

describe(`${MIGRATION} backfills the slots of existing values`, () => {
  let ctx: TestContext;
  let c: TestClient;
  let org: string;
  const fields: (FieldLike & { entity: 'company' | 'contact' })[] = [];
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => ctx.orm.em.getConnection().execute<T[]>(text, params);

  beforeAll(async () => {
    ctx = await createTestApp();
    const o = await createOrg(ctx, { name: 'Backfill' });
    org = o.organization.id;
    c = await signedIn(ctx, o.admin.email, '10.64.0.1');
    const specs: ['company' | 'contact', string][] = [
      ['company', 'double'],
      ['company', 'string'],
      ['company', 'boolean'],
      ['company', 'date'],
      ['contact', 'int'],
      ['contact', 'email'],
    ];
    for (const [entity, type] of specs) fields.push({ ...(await newField(c, entity, type)), entity });
    const values: Record<string, unknown[]> = {
      double: [1.5, 700, null],
      string: ['Mixed CASE', null, 'x'],
      boolean: [false, true, null],
      date: ['2024-01-31', null, '2020-12-01'],
      int: [3, null, 0],
      email: ['A@B.co', 'c@d.e', null],
    };
    for (let i = 0; i < 3; i++) {
      const company = await newCompany(c);
      const contact = await newContact(c);
      for (const fl of fields) {
        const v = values[fl.dataType][i];
        if (v !== null) await setValue(c, fl.entity, fl.entity === 'company' ? company.id : contact.id, fl.id, v);
      }
    }
    await ctx.orm.migrator.down({ migrations: [MIGRATION] });
    const cols = await sql(`select 1 from information_schema.columns where table_name = 'company' and column_name = 'num_1'`);
    expect(cols).toHaveLength(0);
    await ctx.orm.migrator.up({ migrations: [MIGRATION] });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('gives the fields slots in creation order, per family and entity type', async () => {
    const rows = await sql<{ id: string; slot: number }>(
      `select id, slot from field_definition where organization_id = ? and built_in_column is null`,
      [org],
    );
    const slotOf = (i: number) => rows.find((r) => r.id === fields[i].id)!.slot;
    const [num, txt] = [familySlots('num'), familySlots('txt')];
    expect([slotOf(0), slotOf(1), slotOf(2), slotOf(3), slotOf(4), slotOf(5)]).toEqual([num[0], txt[0], num[1], txt[1], num[0], txt[0]]);
  });

  it('copies every value onto its record and counts the filled slots', async () => {
    for (const fl of fields) {
      const [{ slot }] = await sql<{ slot: number }>(`select slot from field_definition where id = ?`, [fl.id]);
      const rows = await sql<{ id: string; slot: unknown; value: unknown }>(
        `select r.id, r.${slotColumn(slot)} as slot, v.value from ${fl.entity} r left join field_value v on v.field_id = ? and
          v.entity_id = r.id where r.organization_id = ?`,
        [fl.id, org],
      );
      expect(rows).toHaveLength(3);
      for (const r of rows) expect(r.slot, `${fl.dataType} ${r.id}`).toEqual(projectionOf(fl.dataType as FieldDataType, r.value ?? null));
      expect(await slotTotal(ctx.em(), org, fl.entity, slot)).toBe(rows.filter((r) => r.value !== null).length);
    }
  });

  it('the tables filter and sort on the copied values', async () => {
    const revenue = fields[0];
    const res = await c.post('/api/v1/company/get-companies', {
      sortKey: revenue.key,
      sortOrder: 'desc',
      filters: [{ key: revenue.key, items: [{ id: '1', condition: 'greater_than', data: 1 }] }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rows.map((r: { fields: Record<string, { value: unknown }> }) => r.fields[revenue.id].value)).toEqual([700, 1.5]);
  });
});
