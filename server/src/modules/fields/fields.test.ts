import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newCompany, newContact, newField, uniq, type FieldLike } from '../../../test/records';
import { OFFERED_FIELD_TYPES } from '@dealscout/shared/domain';

const BUILT_INS = {
  company: [
    ['id', 'id'],
    ['name', 'string'],
    ['website', 'url'],
    ['domain', 'string'],
    ['owner', 'reference'],
    ['created_at', 'date'],
  ],
  contact: [
    ['id', 'id'],
    ['first_name', 'string'],
    ['last_name', 'string'],
    ['email', 'email'],
    ['owner', 'reference'],
    ['created_at', 'date'],
  ],
} as const;

interface FieldDto extends FieldLike {
  isMandatory: boolean;
  isPseudo: boolean;
  builtIn: boolean;
  namespace: string;
  config: { reconciliation: string; refreshSchedule: string };
}

describe('custom fields', () => {
  let ctx: TestContext;
  let a: TestClient;
  let b: TestClient;

  beforeAll(async () => {
    ctx = await createTestApp();
    const orgA = await createOrg(ctx, { name: 'Alpha' });
    const orgB = await createOrg(ctx, { name: 'Beta' });
    a = await signedIn(ctx, orgA.admin.email, '10.31.0.1');
    b = await signedIn(ctx, orgB.admin.email, '10.31.0.2');
  });
  afterAll(async () => {
    await ctx.close();
  });

  const fields = async (c: TestClient, query = ''): Promise<FieldDto[]> => {
    const res = await c.get(`/api/v1/entity/fields${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().fields;
  };

  describe('GET /api/v1/entity/fields', () => {
    it('every new organization has the mandatory built-in fields of companies and contacts', async () => {
      // A brand-new organization, untouched by the other tests.
      const fresh = await createOrg(ctx, { name: 'Fresh' });
      const c = await signedIn(ctx, fresh.admin.email, '10.31.0.9');
      const all = await fields(c);
      for (const entityType of ['company', 'contact'] as const) {
        const mine = all.filter((x) => x.entityType === entityType);
        expect(mine.map((x) => [x.key, x.dataType]).sort()).toEqual([...BUILT_INS[entityType]].map((x) => [...x]).sort());
        for (const x of mine) {
          expect(x).toMatchObject({
            isMandatory: true,
            builtIn: true,
            namespace: entityType,
            config: { reconciliation: 'use_latest', refreshSchedule: 'never' },
            assignedEnrichments: [],
          });
        }
      }
      expect(all.find((x) => x.entityType === 'company' && x.key === 'domain')!.isPseudo).toBe(true);
      expect(all.find((x) => x.entityType === 'company' && x.key === 'name')!.isPseudo).toBe(false);
    });

    it('filters by entity type and lists custom fields after the built-in ones', async () => {
      const custom = await newField(a, 'company', 'int', `Employees ${uniq()}`);
      const company = await fields(a, '?entityType=company');
      expect(company.every((x) => x.entityType === 'company')).toBe(true);
      const idx = company.findIndex((x) => x.id === custom.id);
      expect(idx).toBeGreaterThanOrEqual(BUILT_INS.company.length);
      expect(company[idx]).toMatchObject({
        isMandatory: false,
        builtIn: false,
        isPseudo: false,
        dataType: 'int',
        entityType: 'company',
        namespace: 'company',
      });
      expect((await fields(a, '?entityType=contact')).some((x) => x.id === custom.id)).toBe(false);
    });

    it('never shows another organization’s custom fields', async () => {
      const mine = await newField(a, 'contact', 'string', `Secret ${uniq()}`);
      expect((await fields(b)).some((x) => x.id === mine.id || x.label === mine.label)).toBe(false);
    });

    it('400 for an unknown entity type; 401 without a session', async () => {
      expect((await a.get('/api/v1/entity/fields?entityType=idea')).statusCode).toBe(400);
      const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/entity/fields' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, message: 'Unauthorized: please sign in' });
    });
  });

  describe('GET /api/v1/entity/filters-fields', () => {
    it('lists the filterable fields with the conditions of each type (no id; the owner is picked from a list)', async () => {
      const types = ['string', 'url', 'int', 'double', 'boolean', 'address', 'date', 'time', 'currency', 'email', 'object', 'phone'];
      const made = new Map<string, string>();
      for (const t of types) made.set((await newField(a, 'company', t, `Filter ${t} ${uniq()}`)).key, t);
      const res = await a.get('/api/v1/entity/filters-fields?entityType=company');
      expect(res.statusCode).toBe(200);
      const list: { key: string; dataType: string; conditions: string[]; entityType: string; label: string }[] = res.json().fields;
      expect(list.some((x) => x.key === 'id')).toBe(false);
      const byKey = new Map(list.map((x) => [x.key, x]));
      const NUMBER_SET = ['equals', 'not_equals', 'less_than', 'greater_than', 'less_than_or_equal', 'greater_than_or_equal', 'between'];
      const STRING_SET = ['equals', 'not_equals', 'contains', 'not_contains', 'starts_with'];
      expect(byKey.get('name')).toEqual({ key: 'name', label: 'Name', dataType: 'string', entityType: 'company', conditions: STRING_SET });
      expect(byKey.get('website')!.conditions).toEqual(STRING_SET);
      expect(byKey.get('owner')).toMatchObject({ dataType: 'uuid', conditions: ['in'] });
      expect(byKey.get('created_at')).toMatchObject({ dataType: 'date', conditions: NUMBER_SET });
      const expected: Record<string, string[]> = {
        string: STRING_SET,
        url: STRING_SET,
        email: STRING_SET,
        phone: STRING_SET,
        address: STRING_SET,
        object: STRING_SET,
        int: NUMBER_SET,
        double: NUMBER_SET,
        currency: NUMBER_SET,
        date: NUMBER_SET,
        time: NUMBER_SET,
        boolean: ['equals', 'not_equals'],
      };
      for (const [key, t] of made) expect(byKey.get(key), key).toMatchObject({ dataType: t, conditions: expected[t] });
    });

    it('contacts: their own fields only', async () => {
      const list: { key: string; entityType: string }[] = (await a.get('/api/v1/entity/filters-fields?entityType=contact')).json().fields;
      expect(list.every((x) => x.entityType === 'contact')).toBe(true);
      expect(list.map((x) => x.key)).toEqual(expect.arrayContaining(['first_name', 'last_name', 'email', 'owner', 'created_at']));
    });
  });

  describe('POST /api/v1/entity/field', () => {
    it.each(OFFERED_FIELD_TYPES.map((t) => [t.label, t.dataType]))('accepts the offered type %s (%s)', async (_label, dataType) => {
      const label = `Type ${dataType} ${uniq()}`;
      const res = await a.post('/api/v1/entity/field', { label, dataType, entityType: 'contact' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        success: true,
        message: 'Field created successfully',
        field: {
          label,
          dataType,
          entityType: 'contact',
          namespace: 'contact',
          isMandatory: false,
          isPseudo: false,
          builtIn: false,
          config: { reconciliation: 'use_latest', refreshSchedule: 'never' },
        },
      });
    });

    it.each(['id', 'reference', 'uuid', 'array', 'number', 'text', ''])('refuses the type %j', async (dataType) => {
      const label = `Internal ${uniq()}`;
      const res = await a.post('/api/v1/entity/field', { label, dataType, entityType: 'company' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: 'Please pick a data type' });
      expect((await fields(a)).some((x) => x.label === label)).toBe(false);
    });

    it('name length: 1 to 50 characters with the spec’s messages', async () => {
      for (const label of ['', '   ']) {
        const res = await a.post('/api/v1/entity/field', { label, dataType: 'string', entityType: 'company' });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ success: false, message: 'Field name must be at least 1 characters long' });
      }
      const missing = await a.post('/api/v1/entity/field', { dataType: 'string', entityType: 'company' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toBe('Field name must be at least 1 characters long');
      const long = await a.post('/api/v1/entity/field', { label: 'x'.repeat(51), dataType: 'string', entityType: 'company' });
      expect(long.statusCode).toBe(400);
      expect(long.json()).toMatchObject({ success: false, message: 'Field name must be at most 50 characters long' });
      const fifty = `${uniq()}${'y'.repeat(50)}`.slice(0, 50);
      const ok = await a.post('/api/v1/entity/field', { label: fifty, dataType: 'string', entityType: 'company' });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json().field.label).toBe(fifty);
    });

    it('400 for a missing or unknown entity type', async () => {
      expect((await a.post('/api/v1/entity/field', { label: `L ${uniq()}`, dataType: 'string' })).statusCode).toBe(400);
      expect((await a.post('/api/v1/entity/field', { label: `L ${uniq()}`, dataType: 'string', entityType: 'list' })).statusCode).toBe(400);
    });

    it('key: lowercased with every non-alphanumeric character an underscore; the label is trimmed', async () => {
      const u = uniq();
      const res = await a.post('/api/v1/entity/field', { label: `  ARR ($M) ${u}-x.y  `, dataType: 'currency', entityType: 'company' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().field).toMatchObject({ label: `ARR ($M) ${u}-x.y`, key: `arr___m__${u}_x_y` });
    });

    it('two labels that format to the same key get distinct keys', async () => {
      const u = uniq();
      const first = await newField(a, 'company', 'string', `Deal-Size ${u}`);
      const second = await newField(a, 'company', 'string', `Deal Size ${u}`);
      expect(first.key).toBe(`deal_size_${u}`);
      expect(second.key).toBe(`deal_size_${u}_2`);
      // A label whose key is a built-in key does not take it over.
      const created = await newField(a, 'contact', 'date', 'Created At');
      expect(created.key).not.toBe('created_at');
      expect(created.key).toBe('created_at_2');
    });

    it("409 'A field with this name already exists' for the same label (ignoring case) on the same entity type", async () => {
      const label = `Sector ${uniq()}`;
      await newField(a, 'company', 'string', label);
      for (const again of [label, label.toUpperCase(), `  ${label.toLowerCase()} `]) {
        const res = await a.post('/api/v1/entity/field', { label: again, dataType: 'int', entityType: 'company' });
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ success: false, message: 'A field with this name already exists' });
      }
      // A built-in label is taken too.
      expect((await a.post('/api/v1/entity/field', { label: 'website', dataType: 'url', entityType: 'company' })).statusCode).toBe(409);
      // The same label on the other entity type, or in another organization, is fine.
      expect((await a.post('/api/v1/entity/field', { label, dataType: 'string', entityType: 'contact' })).statusCode).toBe(201);
      expect((await b.post('/api/v1/entity/field', { label, dataType: 'string', entityType: 'company' })).statusCode).toBe(201);
    });

    it('LIKE wildcards in a label are plain characters for the duplicate check', async () => {
      const u = uniq();
      await newField(a, 'company', 'string', `Growth ab ${u}`);
      const res = await a.post('/api/v1/entity/field', { label: `Growth __ ${u}`, dataType: 'string', entityType: 'company' });
      expect(res.statusCode, res.body).toBe(201);
      expect((await a.post('/api/v1/entity/field', { label: `Growth % ${u}`, dataType: 'string', entityType: 'company' })).statusCode).toBe(
        201,
      );
    });

    it('takes an initial config', async () => {
      const res = await a.post('/api/v1/entity/field', {
        label: `Conf ${uniq()}`,
        dataType: 'string',
        entityType: 'company',
        config: { reconciliation: 'keep_existing', refreshSchedule: 'weekly' },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().field.config).toEqual({ reconciliation: 'keep_existing', refreshSchedule: 'weekly', currency: null });
    });

    it('CSRF: refused without the header', async () => {
      a.sendCsrf = false;
      try {
        const label = `No csrf ${uniq()}`;
        const res = await a.post('/api/v1/entity/field', { label, dataType: 'string', entityType: 'company' });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ success: false, message: 'Invalid or missing CSRF token' });
        expect((await fields(a)).some((x) => x.label === label)).toBe(false);
      } finally {
        a.sendCsrf = true;
      }
    });
  });

  describe('PUT /api/v1/entity/set-config', () => {
    it('sets reconciliation and refresh schedule, each alone or both', async () => {
      const field = await newField(a, 'company', 'string');
      let res = await a.put('/api/v1/entity/set-config', { fieldId: field.id, config: { reconciliation: 'keep_existing' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        field: { id: field.id, config: { reconciliation: 'keep_existing', refreshSchedule: 'never' } },
      });
      for (const refreshSchedule of ['never', 'daily', 'weekly', 'monthly', 'quarterly', 'yearly']) {
        res = await a.put('/api/v1/entity/set-config', { fieldId: field.id, config: { refreshSchedule } });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().field.config).toEqual({ reconciliation: 'keep_existing', refreshSchedule, currency: null });
      }
      res = await a.put('/api/v1/entity/set-config', {
        fieldId: field.id,
        config: { reconciliation: 'use_latest', refreshSchedule: 'daily' },
      });
      expect(res.json().field.config).toEqual({ reconciliation: 'use_latest', refreshSchedule: 'daily', currency: null });
      const stored = (await fields(a)).find((x) => x.id === field.id)!;
      expect(stored.config).toEqual({ reconciliation: 'use_latest', refreshSchedule: 'daily', currency: null });
    });

    it('refuses unknown values', async () => {
      const field = await newField(a, 'company', 'string');
      expect((await a.put('/api/v1/entity/set-config', { fieldId: field.id, config: { reconciliation: 'merge' } })).statusCode).toBe(400);
      expect((await a.put('/api/v1/entity/set-config', { fieldId: field.id, config: { refreshSchedule: 'hourly' } })).statusCode).toBe(400);
      expect((await a.put('/api/v1/entity/set-config', { fieldId: 'nope', config: {} })).statusCode).toBe(400);
    });

    it('built-in fields cannot be changed', async () => {
      const name = (await fields(a, '?entityType=company')).find((x) => x.key === 'name')!;
      const res = await a.put('/api/v1/entity/set-config', { fieldId: name.id, config: { refreshSchedule: 'daily' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'Built-in fields cannot be changed' });
      expect((await fields(a)).find((x) => x.id === name.id)!.config.refreshSchedule).toBe('never');
    });

    it('404 for another organization’s field or an unknown id', async () => {
      const theirs = await newField(b, 'company', 'string');
      for (const fieldId of [theirs.id, randomUUID()]) {
        const res = await a.put('/api/v1/entity/set-config', { fieldId, config: { refreshSchedule: 'daily' } });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ success: false, message: 'Field not found' });
      }
      expect((await fields(b)).find((x) => x.id === theirs.id)!.config.refreshSchedule).toBe('never');
    });
  });

  describe('PUT /api/v1/entity/company/field and /contact/field', () => {
    const valueOf = async (c: TestClient, entityType: 'company' | 'contact', id: string, fieldId: string) => {
      const res = await c.get(`/api/v1/${entityType}/details/${id}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json()[entityType].fields[fieldId]?.value;
    };

    it.each([
      ['int', '42', 42],
      ['int', -3, -3],
      ['double', '12.5', 12.5],
      ['currency', 1000, 1000],
      ['boolean', 'yes', true],
      ['boolean', false, false],
      ['date', '2024-02-29', '2024-02-29'],
      ['time', '09:30', '09:30'],
      ['string', 'Hello', 'Hello'],
      ['url', 'acme.com', 'acme.com'],
      ['email', 'x@acme.com', 'x@acme.com'],
      ['phone', '+1 555 0100', '+1 555 0100'],
      ['address', '1 Main St', '1 Main St'],
      ['object', '{"a":[1,2]}', { a: [1, 2] }],
    ])('%s: %j is stored as %j', async (dataType, input, stored) => {
      const field = await newField(a, 'company', dataType);
      const company = await newCompany(a);
      const res = await a.put('/api/v1/entity/company/field', {
        entityType: 'company',
        entityId: company.id,
        fieldId: field.id,
        value: input,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        message: 'Value saved',
        value: { fieldId: field.id, value: stored, status: 'completed', statusMessage: null },
      });
      expect(await valueOf(a, 'company', company.id, field.id)).toEqual(stored);
    });

    it.each([
      ['int', '12.5', 'Please enter a whole number'],
      ['int', 'abc', 'Please enter a whole number'],
      ['double', 'twelve', 'Please enter a number'],
      ['currency', '1,000', 'Please enter a number'],
      ['boolean', 'maybe', 'Please enter true or false'],
      ['date', '2024-02-30', 'Please enter a date (YYYY-MM-DD)'],
      ['date', '31/12/2024', 'Please enter a date (YYYY-MM-DD)'],
      ['time', '25:00', 'Please enter a time (HH:MM)'],
    ])('%s: %j is refused with %j and the old value stays', async (dataType, input, message) => {
      const field = await newField(a, 'contact', dataType);
      const contact = await newContact(a);
      const good = { int: 7, double: 1.5, currency: 2, boolean: true, date: '2020-01-01', time: '10:00' }[dataType];
      await a.put('/api/v1/entity/contact/field', { entityId: contact.id, fieldId: field.id, value: good });
      const res = await a.put('/api/v1/entity/contact/field', { entityId: contact.id, fieldId: field.id, value: input });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message });
      expect(await valueOf(a, 'contact', contact.id, field.id)).toEqual(good);
    });

    it('overwrites, and an empty value clears', async () => {
      const field = await newField(a, 'contact', 'string');
      const contact = await newContact(a);
      await a.put('/api/v1/entity/contact/field', { entityId: contact.id, fieldId: field.id, value: 'one' });
      await a.put('/api/v1/entity/contact/field', { entityId: contact.id, fieldId: field.id, value: 'two' });
      expect(await valueOf(a, 'contact', contact.id, field.id)).toBe('two');
      for (const empty of ['', null]) {
        await a.put('/api/v1/entity/contact/field', { entityId: contact.id, fieldId: field.id, value: 'again' });
        const res = await a.put('/api/v1/entity/contact/field', { entityId: contact.id, fieldId: field.id, value: empty });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({ success: true, message: 'Value saved', value: null });
        expect(await valueOf(a, 'contact', contact.id, field.id)).toBeUndefined();
      }
    });

    it('blank input clears a number field (it is not stored as 0)', async () => {
      const field = await newField(a, 'company', 'int');
      const company = await newCompany(a);
      await a.put('/api/v1/entity/company/field', { entityId: company.id, fieldId: field.id, value: 5 });
      const res = await a.put('/api/v1/entity/company/field', { entityId: company.id, fieldId: field.id, value: '   ' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().value).toBeNull();
      expect(await valueOf(a, 'company', company.id, field.id)).toBeUndefined();
    });

    it('built-in fields are refused', async () => {
      const company = await newCompany(a);
      const name = (await fields(a, '?entityType=company')).find((x) => x.key === 'name')!;
      const res = await a.put('/api/v1/entity/company/field', { entityId: company.id, fieldId: name.id, value: 'Renamed' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'Built-in fields cannot be changed' });
      expect((await a.get(`/api/v1/company/details/${company.id}`)).json().company.name).toBe(company.name);
    });

    it('404: unknown field, a field of the other entity type, unknown record, a record of the other entity type', async () => {
      const companyField = await newField(a, 'company', 'string');
      const company = await newCompany(a);
      const contact = await newContact(a);
      const cases: [string, Record<string, unknown>, string][] = [
        ['/api/v1/entity/company/field', { entityId: company.id, fieldId: randomUUID(), value: 'x' }, 'Field not found'],
        ['/api/v1/entity/contact/field', { entityId: contact.id, fieldId: companyField.id, value: 'x' }, 'Field not found'],
        ['/api/v1/entity/company/field', { entityId: randomUUID(), fieldId: companyField.id, value: 'x' }, 'Company not found'],
        ['/api/v1/entity/company/field', { entityId: contact.id, fieldId: companyField.id, value: 'x' }, 'Company not found'],
      ];
      for (const [url, body, message] of cases) {
        const res = await a.put(url, body);
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toEqual({ success: false, message });
      }
      const contactField = await newField(a, 'contact', 'string');
      const res = await a.put('/api/v1/entity/contact/field', { entityId: randomUUID(), fieldId: contactField.id, value: 'x' });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Contact not found');
    });

    it('404 for another organization’s record or field; nothing is written', async () => {
      const mineField = await newField(a, 'company', 'string');
      const mine = await newCompany(a);
      const theirField = await newField(b, 'company', 'string');
      const theirs = await newCompany(b);
      const r1 = await a.put('/api/v1/entity/company/field', { entityId: theirs.id, fieldId: mineField.id, value: 'x' });
      expect(r1.statusCode).toBe(404);
      expect(r1.json().message).toBe('Company not found');
      const r2 = await a.put('/api/v1/entity/company/field', { entityId: mine.id, fieldId: theirField.id, value: 'x' });
      expect(r2.statusCode).toBe(404);
      expect(r2.json().message).toBe('Field not found');
      const r3 = await a.put('/api/v1/entity/company/field', { entityId: theirs.id, fieldId: theirField.id, value: 'x' });
      expect(r3.statusCode).toBe(404);
      expect(await valueOf(b, 'company', theirs.id, theirField.id)).toBeUndefined();
      const [{ n }] = await ctx
        .em()
        .getConnection()
        .execute<{ n: number }[]>('select count(*)::int as n from field_value where entity_id in (?, ?)', [theirs.id, mine.id]);
      expect(n).toBe(0);
    });

    it('400 for malformed ids; 401 without a session; 403 without the CSRF header', async () => {
      expect((await a.put('/api/v1/entity/company/field', { entityId: 'x', fieldId: randomUUID(), value: 1 })).statusCode).toBe(400);
      const field = await newField(a, 'company', 'string');
      const company = await newCompany(a);
      const anon = await ctx.app.inject({
        method: 'PUT',
        url: '/api/v1/entity/company/field',
        payload: { entityId: company.id, fieldId: field.id, value: 'x' },
      });
      expect(anon.statusCode).toBe(401);
      const res = await a.put(
        '/api/v1/entity/company/field',
        { entityId: company.id, fieldId: field.id, value: 'x' },
        { 'x-csrf-token': 'wrong' },
      );
      expect(res.statusCode).toBe(403);
      expect(await valueOf(a, 'company', company.id, field.id)).toBeUndefined();
    });
  });
});
