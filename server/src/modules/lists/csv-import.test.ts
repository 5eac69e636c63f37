import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  utf8,
  CSV_MESSAGES,
  CSV_MAX_HEADER_BYTES,
  CsvReshaper,
  countFields,
  locateColumns,
  readHeader,
  sniffDelimiter,
} from './csv-import';
import { companyProblems, normalizeDomain } from '@dealscout/shared/domain';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';

/** A multipart body with the form fields first, then the file. */
export function multipartBody(
  fields: Record<string, string>,
  file: { name: string; content: Buffer | string; type?: string } | null,
): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----ds${randomUUID().replace(/-/g, '')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'text/csv'}\r\n\r\n`,
      ),
    );
    parts.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('CSV upload into a list (POST /list-company/source)', () => {
  let ctx: TestContext;
  let a: TestClient;
  let b: TestClient;

  beforeAll(async () => {
    ctx = await createTestApp();
    const oa = await createOrg(ctx, { name: 'Alpha' });
    const ob = await createOrg(ctx, { name: 'Beta' });
    a = await signedIn(ctx, oa.admin.email, '10.42.0.1');
    b = await signedIn(ctx, ob.admin.email, '10.42.0.2');
  });
  afterAll(async () => {
    await ctx.close();
  });

  const newList = async () =>
    (await a.post('/api/v1/list-company', { name: `Upload ${randomUUID().slice(0, 6)}` })).json().list as { id: string };
  const upload = (
    c: TestClient,
    listId: string,
    content: Buffer | string,
    mapping: Record<string, unknown> = { name: 'Company', website: 'Website' },
  ) => {
    const { body, headers } = multipartBody(
      { listCompanyId: listId, intentionSourceId: 'csv', source: JSON.stringify({ mapping }) },
      { name: 'ideas.csv', content },
    );
    return c.request('POST', '/api/v1/list-company/source', body, headers);
  };
  const ideas = async (listId: string) =>
    (await a.post('/api/v1/list-company/idea/list', { listCompanyId: listId, pageSize: 1000, sortKey: 'name', sortOrder: 'asc' })).json()
      .listCompanyIdeas as { name: string; domain: string; data: Record<string, string>; sourceIds: string[] }[];
  const rejected = async (sourceId: string) =>
    (await a.get(`/api/v1/list-company/source/${sourceId}/rejected`)).body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');

  it('reads a byte-order mark, maps the columns, keeps the others as data, rejects bad rows with their reasons and duplicates within the file', async () => {
    const list = await newList();
    const csv =
      '\uFEFFCompany,Website,Country,Employees\r\n' +
      'Acme,https://www.acme.example.com,DE,120\r\n' +
      'Beta GmbH,beta.example.com,AT,15\r\n' +
      ',nameless.example.com,DE,1\r\n' +
      'Broken,not a url,DE,2\r\n' +
      'Acme Again,acme.example.com/about,DE,3\r\n';
    const res = await upload(a, list.id, csv);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      success: true,
      rows: 5,
      inserted: 2,
      merged: 0,
      rejected: 3,
      message: '2 ideas added, 0 already in the list, 3 rows rejected',
    });
    const got = await ideas(list.id);
    expect(got.map((i) => [i.name, i.domain, i.data])).toEqual([
      ['Acme', 'acme.example.com', { Country: 'DE', Employees: '120' }],
      ['Beta GmbH', 'beta.example.com', { Country: 'AT', Employees: '15' }],
    ]);
    const l = res.json().list;
    expect(l).toMatchObject({ totalIdeas: 2 });
    expect(l.sources[0]).toMatchObject({
      type: 'csv',
      status: 'completed',
      total: 2,
      statusSeverity: 'warning',
      statusReason: '3 rows rejected',
    });
    expect(await rejected(res.json().sourceId)).toEqual([
      'Line,Name,Website,Reason',
      '4,,nameless.example.com,Company name is required',
      '5,Broken,not a url,Invalid URL',
      '6,Acme Again,acme.example.com/about,Duplicate domain in the file (first on line 2)',
    ]);
    expect((await b.get(`/api/v1/list-company/source/${res.json().sourceId}/rejected`)).statusCode).toBe(404);
  });

  it('reads semicolon separators, quoted separators and quoted newlines; a domain already in the list gains the source', async () => {
    const list = await newList();
    await a.post('/api/v1/list-company/idea', { id: list.id, companyName: 'Gamma', website: 'gamma.example.com' });
    const csv =
      'Website;Company;Notes\n' +
      'gamma.example.com;Gamma AG;"first; with a semicolon"\n' +
      'delta.example.com;"Delta ""D"" Ltd";"two\nlines"\n';
    const res = await upload(a, list.id, csv);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ rows: 2, inserted: 1, merged: 1, rejected: 0 });
    const got = await ideas(list.id);
    expect(got.map((i) => i.name)).toEqual(['Delta "D" Ltd', 'Gamma']);
    expect(got[0].data).toEqual({ Notes: 'two\nlines' });
    expect(got[1].sourceIds).toHaveLength(2);
    const l = (await a.get(`/api/v1/list-company/${list.id}`)).json().list;
    expect(l.totalIdeas).toBe(2);
    expect(l.sources.map((s: { type: string; total: number }) => [s.type, s.total])).toEqual([
      ['manual', 1],
      ['csv', 2],
    ]);

    // Excel's "CSV UTF-8" in a semicolon locale: a byte-order mark and semicolons together.
    const marked = await newList();
    const res2 = await upload(a, marked.id, '\uFEFFWebsite;Company;Notes\nomega.example.com;Omega;"x; y"\n');
    expect(res2.statusCode, res2.body).toBe(201);
    expect(res2.json()).toMatchObject({ rows: 1, inserted: 1, rejected: 0 });
    expect((await ideas(marked.id)).map((i) => [i.name, i.data])).toEqual([['Omega', { Notes: 'x; y' }]]);
  });

  it('keeps formula cells as text and the export neutralizes them', async () => {
    const list = await newList();
    const res = await upload(a, list.id, 'Company,Website,Note\n"=HYPERLINK(""http://evil"")",evil.example.com,+1+2\n');
    expect(res.statusCode, res.body).toBe(201);
    expect((await ideas(list.id))[0]).toMatchObject({ name: '=HYPERLINK("http://evil")', data: { Note: '+1+2' } });
    const csv = (await a.post('/api/v1/list-company/idea/export', { listCompanyId: list.id })).body;
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(csv).toContain(`'+1+2`);
  });

  it("refuses a file that is not UTF-8, a missing column, a missing mapping and another organization's list, changing nothing", async () => {
    const list = await newList();
    const latin1 = Buffer.from('Company,Website\nM\xfcller GmbH,mueller.example.com\n', 'latin1');
    const bad = await upload(a, list.id, latin1);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.');
    const missing = await upload(a, list.id, 'Name,URL\nX,x.example.com\n');
    expect(missing.json()).toMatchObject({ success: false, message: "The file has no column 'Company'." });
    expect((await upload(a, list.id, 'Company,Website\nX,x.example.com\n', {})).json().message).toBe(
      'Please map the name and website columns.',
    );
    expect((await upload(a, list.id, 'Company,Website\n')).json().message).toBe('The file has no rows below its header.');
    expect((await upload(b, list.id, 'Company,Website\nX,x.example.com\n')).statusCode).toBe(404);
    const wide = Array.from({ length: 1600 }, (_, i) => `h${i}`).join(',');
    const tooWide = await upload(a, list.id, `${wide},Company,Website\n${'x,'.repeat(1600)}A,a.example.com\n`);
    expect(tooWide.statusCode).toBe(400);
    expect(tooWide.json().message).toBe(CSV_MESSAGES.tooManyColumns);
    const l = (await a.get(`/api/v1/list-company/${list.id}`)).json().list;
    expect(l).toMatchObject({ totalIdeas: 0, totalSources: 0 });
  });

  it(
    'reads ragged rows, empty lines, CRLF line breaks (also inside quotes), tabs and NUL bytes as csv-parse did; ' +
      'the line is where a record ends',
    async () => {
      const list = await newList();
      const csv =
        'Company\tWebsite\tCity\r\n' +
        '\r\n' +
        'Short\tshort.example.com\r\n' +
        'Long\tlong.example.com\tParis\textra\t"more\tstuff"\r\n' +
        'Multi\tmulti.example.com\t"two\r\nlines"\r\n' +
        'Nul\u0000\tnul.example.com\tX\r\n' +
        'Last\tlast.example.com\tRome';
      const res = await upload(a, list.id, csv);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ rows: 5, inserted: 4, rejected: 1 });
      expect((await ideas(list.id)).map((i) => [i.name, i.domain, i.data])).toEqual([
        ['Last', 'last.example.com', { City: 'Rome' }],
        ['Long', 'long.example.com', { City: 'Paris' }],
        ['Multi', 'multi.example.com', { City: 'two\r\nlines' }],
        ['Short', 'short.example.com', { City: '' }],
      ]);
      expect(await rejected(res.json().sourceId)).toEqual([
        'Line,Name,Website,Reason',
        '7,Nul,nul.example.com,The row contains a NUL character',
      ]);
    },
  );

  it('refuses a stray quote and a quote left open with the line, changing nothing', async () => {
    const list = await newList();
    const stray = await upload(a, list.id, 'Company,Website\nOk,ok.example.com\nAcme 5" screen,acme.example.com\nB,b.example.com\n');
    expect(stray.statusCode).toBe(400);
    expect(stray.json().message).toMatch(/^The file could not be read as CSV near line 3: Invalid Opening Quote/);
    const open = await upload(a, list.id, 'Company,Website\n"Acme,acme.example.com\nB,b.example.com\n');
    expect(open.statusCode).toBe(400);
    expect(open.json().message).toMatch(/^The file could not be read as CSV near line 4: Quote Not Closed/);
    const after = await upload(a, list.id, 'Company,Website\n"Acme"x,acme.example.com\n');
    expect(after.json().message).toMatch(/near line 2: Invalid Closing Quote/);
    expect((await a.get(`/api/v1/list-company/${list.id}`)).json().list).toMatchObject({ totalIdeas: 0, totalSources: 0 });
  });

  it('judges names and websites in SQL exactly as companyProblems and normalizeDomain do', async () => {
    const list = await newList();
    const sites = [
      'https://www.acme.example.com',
      'HTTP://WWW.Upper.Example.COM/Path?q=1#x',
      'www.www.double.example.com',
      'www.com',
      'x.example.com:8080/a',
      'https://port.example.com:123456',
      'not a url',
      'acme',
      'a-.example.com',
      '-a.example.com',
      'ftp://ftp.example.com',
      'http://sp ace.example.com',
      'http://x.example.com/ü?é',
      'user@mail.example.com',
      'trail.example.com.',
      'x.c',
      'x.' + 'a'.repeat(63),
      'x.' + 'a'.repeat(64),
      '\u00a0nbsp.example.com\u3000',
      'tab.example.com/a\tb',
      `${'l'.repeat(250)}.com`,
      `${'l'.repeat(252)}.com`,
      '',
      '   ',
      'colon.example.com:',
      'five.example.com:12345',
      'HTTPS://upper.example.cc:99999/x',
      `https://${'a'.repeat(70)}.example.com`,
      'http://http://x.example.com',
      'frag.example.com#x',
      'query.example.com?q',
      'httpS://mixed.example.com',
      'https://tld.example.' + 'b'.repeat(63) + ':80/p',
      'https://www.',
      'https://www.example',
      'https:/one.example.com',
    ];
    const names = ['Ok', '', '  ', '\u00a0Spaced\u2003', 'n'.repeat(255), 'n'.repeat(256)];
    const rowsIn = sites.flatMap((w, i) => names.map((n, j) => ({ n, w, k: `${i}-${j}` })));
    const cell = (v: string) => `"${v.replace(/"/g, '""')}"`;
    const csv = 'Company,Website,Key\n' + rowsIn.map((r, i) => `${cell(r.n)},${cell(r.w)},${cell(String(i))}`).join('\n') + '\n';
    const res = await upload(a, list.id, csv);
    expect(res.statusCode, res.body).toBe(201);
    const page = (await a.post('/api/v1/list-company/idea/list', { listCompanyId: list.id, pageSize: 1000 })).json().listCompanyIdeas as {
      data: Record<string, string>;
      domain: string;
    }[];
    const got = new Map(page.map((i) => [Number(i.data.Key), i.domain]));
    const report = await rejected(res.json().sourceId);
    const reasons = new Map(report.slice(1).map((l) => [Number(l.split(',')[0]) - 2, l.slice(l.lastIndexOf(',') + 1)]));
    expect(got.size + reasons.size).toBe(rowsIn.length);
    const seen = new Set<string>();
    rowsIn.forEach((r, i) => {
      const p = companyProblems({ name: r.n, website: r.w });
      const want = p.name ?? p.website;
      if (want) {
        expect(reasons.get(i), JSON.stringify(r)).toBe(want);
        return;
      }
      const d = normalizeDomain(r.w);
      if (seen.has(d)) {
        expect(reasons.get(i), JSON.stringify(r)).toMatch(/^Duplicate domain in the file/);
        return;
      }
      seen.add(d);
      expect(got.get(i), JSON.stringify(r)).toBe(d);
    });
  });

  it('counts the lines of a header with a quoted line break', async () => {
    const list = await newList();
    const res = await upload(a, list.id, 'Company,"Web\nsite"\nA,a.example.com\nB,\n', { name: 'Company', website: 'Web\nsite' });
    expect(res.statusCode, res.body).toBe(201);
    expect(await rejected(res.json().sourceId)).toEqual(['Line,Name,Website,Reason', '4,B,,Company website is required']);
  });

  it('takes a 50 MB file', { timeout: 120_000 }, async () => {
    const list = await newList();
    const pad = 'x'.repeat(1000);
    const lines = ['Company,Website,Description'];
    for (let i = 0; i < 52_000; i++) lines.push(`Company ${i},https://c${i}.big.example.com,${pad}`);
    const content = Buffer.from(lines.join('\n') + '\n');
    expect(content.length).toBeGreaterThan(50 * 1024 * 1024);
    const res = await upload(a, list.id, content);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
    expect(res.json()).toMatchObject({ rows: 52_000, inserted: 52_000, rejected: 0 });
    expect((await a.get(`/api/v1/list-company/${list.id}`)).json().list.totalIdeas).toBe(52_000);
  });
});

describe('the reshaping of a CSV body for PostgreSQL (csv-import.ts CsvReshaper)', () => {
  const run = (text: string, columns: number, d: string) => {
    const r = new CsvReshaper(d.charCodeAt(0), columns, 1);
    return Buffer.concat([r.push(Buffer.from(text)), r.end()]).toString();
  };
  it('gives every record the columns, its line and the NUL flag, across chunk boundaries at every byte', () => {
    const text = '\na,"b\r\n""c"""\r\n\r\nd\r\ne,f,g,"h,i"\nj\u0000,k';
    const want = 'a,"b\r\n""c""",3,\nd,,5,\ne,f,6,\nj,k,7,t\n';
    expect(run(text, 2, ',')).toBe(want);
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const r = new CsvReshaper(0x2c, 2, 1);
      expect(Buffer.concat([r.push(bytes.subarray(0, cut)), r.push(bytes.subarray(cut)), r.end()]).toString(), `cut ${cut}`).toBe(want);
    }
  });
  it('refuses a line of only \\. inside quotes (PostgreSQL would end the COPY there), keeps \\.x', () => {
    expect(() => run('\na,"x\n\\.\r\ny"\n', 2, ',')).toThrow(expect.objectContaining({ code: 'CSV_RESHAPE', lines: 3 }));
    expect(run('\na,"x\n\\.x\n\\"\n', 2, ',')).toBe('a,"x\n\\.x\n\\",4,\n');
  });
  it('a lone CR ends a record too; semicolons and tabs separate', () => {
    expect(run('\ra;b\rc;d', 2, ';')).toBe('a;b;2;\nc;d;3;\n');
    expect(run('\na\tb\tc\n', 1, '\t')).toBe('a\t2\t\n');
  });
});

describe('the UTF-8 check of an upload (csv-import.ts utf8)', () => {
  const through = async (chunks: Buffer[]) => {
    const out: Buffer[] = [];
    await pipeline(
      Readable.from(chunks),
      utf8(),
      new Writable({
        write(c: Buffer, _e, cb) {
          out.push(c);
          cb();
        },
      }),
    );
    return Buffer.concat(out).toString('utf8');
  };
  it('passes the bytes on unchanged, also a character split between chunks at every byte', async () => {
    const text = 'Zürich,€,𝄞 Musik\n';
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await through([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(text);
    }
    expect(await through(Array.from(bytes, (b) => Buffer.from([b])))).toBe(text);
  });
  it('refuses bytes that are not UTF-8 (Latin-1), also at the very end of the file', async () => {
    await expect(through([Buffer.from('M\xfcnchen,ok\n', 'latin1')])).rejects.toThrow(CSV_MESSAGES.notUtf8);
    await expect(through([Buffer.from('ok\n'), Buffer.from([0xc3])])).rejects.toThrow(CSV_MESSAGES.notUtf8);
  });
});

describe('the header of an upload (csv-import.ts readHeader, locateColumns)', () => {
  const read = async (chunks: Buffer[]) => {
    const it = (async function* () {
      for (const c of chunks) yield c;
    })();
    const { header, line, rest } = await readHeader(it);
    const tail: Buffer[] = [rest];
    for (let n = await it.next(); !n.done; n = await it.next()) tail.push(n.value);
    return { header: header.toString(), line, rest: Buffer.concat(tail).toString() };
  };
  it('skips the byte-order mark and leading empty lines, keeps a quoted line break, across chunk boundaries at every byte', async () => {
    for (const [text, want] of [
      ['\uFEFF\r\n\nCompany,"Web\nsite"\r\nA,b\n', { header: 'Company,"Web\nsite"', line: 3, rest: '\r\nA,b\n' }],
      ['Company,Website', { header: 'Company,Website', line: 1, rest: '' }],
      ['\uFEFFa\rb', { header: 'a', line: 1, rest: '\rb' }],
      ['\n\n', { header: '', line: 3, rest: '' }],
    ] as const) {
      const bytes = Buffer.from(text);
      expect(await read([bytes]), text).toEqual(want);
      for (let cut = 1; cut < bytes.length; cut++) {
        expect(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), `${JSON.stringify(text)} cut ${cut}`).toEqual(want);
      }
      expect(await read(Array.from(bytes, (b) => Buffer.from([b]))), `${JSON.stringify(text)} byte by byte`).toEqual(want);
    }
  });
  it('refuses a header longer than the limit as soon as it has read that much', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    let served = 0;
    const it = (async function* () {
      for (;;) {
        served++;
        yield chunk;
      }
    })();
    await expect(readHeader(it)).rejects.toThrow(CSV_MESSAGES.headerTooLong);
    expect(served * chunk.length).toBeLessThanOrEqual(CSV_MAX_HEADER_BYTES + 2 * chunk.length);
  });
  it('counts fields outside quotes and finds each mapped column in one pass (the first of a repeated name wins)', () => {
    expect(countFields(Buffer.from('a,"b,c",d'), 0x2c)).toBe(3);
    expect(sniffDelimiter(Buffer.from('a;b;c,d\nx,y,z,w'))).toBe(';');
    expect(sniffDelimiter(Buffer.from('a\tb'))).toBe('\t');
    expect(sniffDelimiter(Buffer.from('a;b,c'))).toBe(',');
    const headers = ['Company', 'Note', 'Website', 'Note', 'Company', 'City'];
    expect(locateColumns(headers, { name: ' Company ', website: 'Website' })).toEqual({
      nameAt: 0,
      siteAt: 2,
      keep: [
        { key: 'Note', at: 1 },
        { key: 'Note', at: 1 },
        { key: 'City', at: 5 },
      ],
    });
    expect(locateColumns(headers, { name: 'Company', website: 'Website', columns: ['City', 'Missing', 'Company'] }).keep).toEqual([
      { key: 'City', at: 5 },
    ]);
    expect(() => locateColumns(headers, { name: 'Name', website: 'Website' })).toThrow("The file has no column 'Name'.");
    // One pass, counted rather than timed: every element read of the header and of the mapped
    // columns goes through a proxy. A search per column (indexOf) would read some 50 million.
    let reads = 0;
    const counted = (a: string[]) =>
      new Proxy(a, {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
    const wide = Array.from({ length: 10_000 }, (_, i) => `c${i}`);
    const header = counted(['Company', 'Website', ...wide]);
    expect(locateColumns(header, { name: 'Company', website: 'Website', columns: counted(wide) }).keep).toHaveLength(50);
    expect(reads).toBeGreaterThan(header.length);
    expect(reads).toBeLessThanOrEqual(3 * header.length);
  });
});
