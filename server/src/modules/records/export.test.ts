// CSV export: attachment headers, the selected or filtered rows only, cells safe against
// spreadsheet formula injection, RFC 4180 quoting, and a streamed export that crosses a keyset
// batch without losing or repeating rows.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, createOrg, createUser, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { newCompany, newContact, newField, setValue, link, uniq, f, type CompanyLike } from '../../../test/records';

/** RFC 4180: fields separated by commas, records by CRLF, quoted fields with doubled quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

const COMPANY_HEADER = ['Name', 'Website', 'Domain', 'Account Owner', 'Key Contact', 'Key Contact Email', 'Created'];
const CONTACT_HEADER = ['First name', 'Last name', 'Email', 'Account Owner', 'Primary Company', 'Created'];

describe('CSV export', () => {
  let ctx: TestContext;
  let a: TestClient;
  let b: TestClient;
  let orgA: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    const oa = await createOrg(ctx, { name: 'Exporter' });
    const ob = await createOrg(ctx, { name: 'Other' });
    orgA = oa.organization.id;
    a = await signedIn(ctx, oa.admin.email, '10.35.0.1');
    b = await signedIn(ctx, ob.admin.email, '10.35.0.2');
  });
  afterAll(async () => {
    await ctx.close();
  });

  const exportCsv = async (c: TestClient, body: Record<string, unknown>, entity: 'company' | 'contact' = 'company') => {
    const res = await c.post(`/api/v1/${entity}/export`, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(res.body.slice(1));
    return { res, header: rows[0], data: rows.slice(1) };
  };

  it('is a text/csv attachment with a header row', async () => {
    const u = uniq();
    const c = await newCompany(a, { name: `Head${u}` });
    const { res, header, data } = await exportCsv(a, { selection: { ids: [c.id] } });
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="companies-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(header.slice(0, COMPANY_HEADER.length)).toEqual(COMPANY_HEADER);
    expect(data).toHaveLength(1);
    expect(data[0].slice(0, 3)).toEqual([`Head${u}`, c.website, c.domain]);
    expect(new Date(data[0][6]).toISOString()).toBe(data[0][6]);
    expect(res.body.endsWith('\r\n')).toBe(true);
  });

  it('custom fields are columns after the built-in ones, sorted by label; columns picks some of them', async () => {
    const fresh = await createOrg(ctx, { name: 'Columns' });
    const c = await signedIn(ctx, fresh.admin.email, '10.35.0.9');
    const zeta = await newField(c, 'company', 'string', 'Zeta notes');
    const alpha = await newField(c, 'company', 'int', 'Alpha count');
    const company = await newCompany(c);
    await setValue(c, 'company', company.id, zeta.id, 'z');
    await setValue(c, 'company', company.id, alpha.id, 3);
    const all = await exportCsv(c, { selection: { allSelected: true } });
    expect(all.header).toEqual([...COMPANY_HEADER, 'Alpha count', 'Zeta notes']);
    expect(all.data[0].slice(-2)).toEqual(['3', 'z']);
    const some = await exportCsv(c, { selection: { allSelected: true }, columns: [zeta.key] });
    expect(some.header).toEqual([...COMPANY_HEADER, 'Zeta notes']);
    expect(some.data[0].slice(-1)).toEqual(['z']);
  });

  it('values are written by the rules the tables show them with: several fields labelled (never JSON), lists joined, numbers plain', async () => {
    const fresh = await createOrg(ctx, { name: 'Values' });
    const c = await signedIn(ctx, fresh.admin.email, '10.35.0.10');
    const profile = await newField(c, 'company', 'object', 'Profile');
    const listed = await newField(c, 'company', 'object', 'Industries');
    const revenue = await newField(c, 'company', 'currency', 'Revenue');
    const founded = await newField(c, 'company', 'date', 'Founded');
    const company = await newCompany(c);
    await setValue(c, 'company', company.id, profile.id, { employees: 4400, hq_city: 'Boston' });
    await setValue(c, 'company', company.id, listed.id, ['Robotics', 'Automation']);
    await setValue(c, 'company', company.id, revenue.id, 1250000);
    await setValue(c, 'company', company.id, founded.id, '2011-03-01');
    const { header, data } = await exportCsv(c, { selection: { allSelected: true } });
    const cell = (label: string) => data[0][header.indexOf(label)];
    // (jsonb keeps an object's keys in its own order: a field's value has no schema to order them by.)
    expect(cell('Profile').split('; ').sort()).toEqual(['Employees: 4400', 'Hq city: Boston']);
    expect(cell('Industries')).toBe('Robotics, Automation');
    expect(cell('Revenue')).toBe('1250000');
    expect(cell('Founded')).toBe('2011-03-01');
  });

  it('exports only the selected ids, never another organization’s', async () => {
    const [c1, c2, c3] = [await newCompany(a), await newCompany(a), await newCompany(a)];
    const theirs = await newCompany(b);
    const { data } = await exportCsv(a, { selection: { ids: [c1.id, c3.id, theirs.id] } });
    expect(data.map((r) => r[2]).sort()).toEqual([c1.domain, c3.domain].sort());
    expect(data.map((r) => r[2])).not.toContain(c2.domain);
    const none = await exportCsv(a, { selection: { ids: [theirs.id] } });
    expect(none.data).toEqual([]);
  });

  it('all selected: the rows the search and filters select, minus the exclusions, in the table’s default order', async () => {
    const u = uniq();
    const field = await newField(a, 'company', 'double', `Margin ${u}`);
    const made: CompanyLike[] = [];
    for (const [i, margin] of [
      [0, 1.5],
      [1, 9],
      [2, null],
      [3, 12.25],
      [4, 30],
    ] as const) {
      const c = await newCompany(a, { name: `Exp${u} ${String.fromCharCode(69 - i)}` });
      if (margin !== null) await setValue(a, 'company', c.id, field.id, margin);
      made.push(c);
    }
    const { data } = await exportCsv(a, {
      selection: {
        allSelected: true,
        text: `exp${u}`,
        filters: [f(field.key, [['between', [5, 20]]]), f('name', [['not_contains', 'zzz']])],
        excludeIds: [],
      },
    });
    // Names descend with i, so the default (name ascending) order is 3, 1.
    expect(data.map((r) => r[0])).toEqual([`Exp${u} B`, `Exp${u} D`]);
    const excluded = await exportCsv(a, { selection: { allSelected: true, text: `exp${u}`, excludeIds: [made[0].id, made[2].id] } });
    expect(excluded.data.map((r) => r[0])).toEqual([`Exp${u} A`, `Exp${u} B`, `Exp${u} D`]);
    const header = excluded.header;
    const col = header.indexOf(`Margin ${u}`);
    expect(excluded.data.map((r) => r[col])).toEqual(['30', '12.25', '9']);
  });

  it('neutralises formula injection in every kind of cell; plain negative numbers stay numbers', async () => {
    const u = uniq();
    const owner = await createUser(ctx, orgA, { firstName: '@owner', lastName: 'Evil' });
    const note = await newField(a, 'company', 'string', `Note ${u}`);
    const delta = await newField(a, 'company', 'int', `Delta ${u}`);
    const ratio = await newField(a, 'company', 'double', `Ratio ${u}`);
    const cases: [string, string][] = [
      [`=1+1 Inj${u}`, `'=1+1 Inj${u}`],
      [`+cmd Inj${u}`, `'+cmd Inj${u}`],
      [`-2+3 Inj${u}`, `'-2+3 Inj${u}`],
      [`@SUM(A1) Inj${u}`, `'@SUM(A1) Inj${u}`],
      [`=HYPERLINK("http://evil","x") Inj${u}`, `'=HYPERLINK("http://evil","x") Inj${u}`],
    ];
    const ids: string[] = [];
    for (const [name] of cases) {
      const c = await newCompany(a, { name, accountOwnerId: owner.id });
      ids.push(c.id);
    }
    const keyContact = await newContact(a, { firstName: '=cmd|', lastName: `'/C calc'!A0`, email: `inj-${u}@x.com` });
    await link(a, ids[0], keyContact.id);
    await setValue(a, 'company', ids[0], note.id, '=IMPORTXML(A1)');
    await setValue(a, 'company', ids[0], delta.id, -12);
    await setValue(a, 'company', ids[0], ratio.id, '-0.5');
    await setValue(a, 'company', ids[1], note.id, '-');
    await setValue(a, 'company', ids[2], note.id, '\tcmd');
    await setValue(a, 'company', ids[3], note.id, '\r=1+1');
    const { header, data } = await exportCsv(a, { selection: { ids } });
    const byName = new Map(data.map((r) => [r[0], r]));
    for (const [, expected] of cases) expect(byName.has(expected), expected).toBe(true);
    const first = byName.get(cases[0][1])!;
    expect(first[header.indexOf('Account Owner')]).toBe("'@owner Evil");
    expect(first[header.indexOf('Key Contact')]).toBe(`'=cmd| '/C calc'!A0`);
    expect(first[header.indexOf(`Note ${u}`)]).toBe("'=IMPORTXML(A1)");
    expect(first[header.indexOf(`Delta ${u}`)]).toBe('-12');
    expect(first[header.indexOf(`Ratio ${u}`)]).toBe('-0.5');
    expect(byName.get(cases[1][1])![header.indexOf(`Note ${u}`)]).toBe("'-");
    expect(byName.get(cases[2][1])![header.indexOf(`Note ${u}`)]).toBe("'\tcmd");
    expect(byName.get(cases[3][1])![header.indexOf(`Note ${u}`)]).toBe("'\r=1+1");
    // No cell that a spreadsheet would evaluate remains.
    for (const row of data)
      for (const cell of row) expect(/^[=+@\t\r]/.test(cell) || (/^-/.test(cell) && !/^-\d+(\.\d+)?$/.test(cell)), cell).toBe(false);
  });

  it('quotes commas, quotes and line breaks (RFC 4180)', async () => {
    const u = uniq();
    const name = `Smith, "Jr" & Sons${u}\nSecond line\r\nThird`;
    const c = await newCompany(a, { name });
    const notes = await newField(a, 'company', 'address', `Address ${u}`);
    await setValue(a, 'company', c.id, notes.id, '1 Main St, Suite "B"');
    const { res, header, data } = await exportCsv(a, { selection: { ids: [c.id] } });
    expect(data).toHaveLength(1);
    expect(data[0][0]).toBe(name);
    expect(data[0][header.indexOf(`Address ${u}`)]).toBe('1 Main St, Suite "B"');
    expect(res.body).toContain(`"Smith, ""Jr"" & Sons${u}\nSecond line\r\nThird"`);
    expect(data[0]).toHaveLength(header.length);
  });

  it('contacts: header, primary company, filters', async () => {
    const u = uniq();
    const company = await newCompany(a, { name: `Primary${u}` });
    const p1 = await newContact(a, { firstName: 'Exa', lastName: `Port${u}`, email: `exa-${u}@x.com` });
    await newContact(a, { firstName: 'Other', lastName: `Port${u}`, email: `other-${u}@x.com` });
    await link(a, company.id, p1.id);
    const { res, header, data } = await exportCsv(
      a,
      { selection: { allSelected: true, text: `port${u}`, filters: [f('first_name', [['equals', 'EXA']])] } },
      'contact',
    );
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="contacts-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(header.slice(0, CONTACT_HEADER.length)).toEqual(CONTACT_HEADER);
    expect(data).toHaveLength(1);
    expect(data[0].slice(0, 5)).toEqual(['Exa', `Port${u}`, `exa-${u}@x.com`, '', `Primary${u}`]);
  });

  it('400 for a malformed selection', async () => {
    for (const selection of [{}, { ids: [] }, { ids: ['nope'] }, { allSelected: false }]) {
      expect((await a.post('/api/v1/company/export', { selection })).statusCode, JSON.stringify(selection)).toBe(400);
    }
    expect((await a.post('/api/v1/company/export', { selection: { ids: [randomUUID()] }, columns: 'name' })).statusCode).toBe(400);
  });

  it('more than 2000 rows (two keyset batches, ties on the name across the boundary): complete, no duplicates, in order', async () => {
    const big = await createOrg(ctx, { name: 'Big' });
    const c = await signedIn(ctx, big.admin.email, '10.35.0.10');
    const total = 2345;
    // Few distinct names (differing only in case), so the batch boundary falls inside a tie.
    await ctx
      .em()
      .getConnection()
      .execute(
        `insert into company (id, organization_id, name, website, domain, created_at, updated_at)
       select gen_random_uuid(), ?, (array['Same', 'same', 'SAME', 'Zed'])[1 + (i % 4)], 'https://d' || i || '.example.com', 'd' || i ||
         '.example.com', now(), now()
         from generate_series(1, ?) as i`,
        [big.organization.id, total],
      );
    const { data } = await exportCsv(c, { selection: { allSelected: true } });
    expect(data).toHaveLength(total);
    const domains = data.map((r) => r[2]);
    expect(new Set(domains).size).toBe(total);
    expect(new Set(domains)).toEqual(new Set(Array.from({ length: total }, (_, i) => `d${i + 1}.example.com`)));
    // Name ascending ignoring case: every 'same' before every 'Zed'.
    const firstZed = data.findIndex((r) => r[0] === 'Zed');
    expect(firstZed).toBe(total - Math.floor(total / 4));
    expect(data.slice(firstZed).every((r) => r[0] === 'Zed')).toBe(true);
    // The same rows as the table.
    const table = await c.post('/api/v1/company/get-companies', { pageSize: 1000, pageIndex: 2 });
    expect(table.json().rows.map((r: { domain: string }) => r.domain)).toEqual(domains.slice(2000, 2345));
    // A filtered export over the big set.
    const filtered = await exportCsv(c, {
      selection: { allSelected: true, filters: [f('domain', [['starts_with', 'd1']])], excludeIds: [] },
    });
    const expected = Array.from({ length: total }, (_, i) => `d${i + 1}.example.com`).filter((d) => d.startsWith('d1'));
    expect(filtered.data.map((r) => r[2]).sort()).toEqual(expected.sort());
  });
});
