// A CSV upload into a list (issue 21; spec 002 §7 `POST /list-company/source`). One pass over the
// upload: the bytes are checked as UTF-8 (a wrong encoding is a clear 400, not mojibake), parsed as
// a stream by csv-parse (byte-order mark, quoted separators and newlines; the separator — comma,
// semicolon or tab — is read from the header line), each record mapped (name and website required,
// the website normalized to a domain, the other mapped columns kept as the idea's data) and COPYed
// into a temporary table. Then set-based statements, in the same transaction: duplicates within
// the file are rejected with the line they repeat, the rest inserted (a domain already in the list
// gains this source instead of a second idea), every rejected row stored with its reason for the
// downloadable report, and the list's and source's totals updated. Memory stays flat: nothing holds
// more than a COPY buffer of rows.
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { parse } from 'csv-parse';
import { companyProblems, normalizeDomain } from '@dealscout/shared/domain';
import { badRequest } from '../../lib/errors';
import { tenantCopyClient } from '../../db/sql';

export const CSV_MESSAGES = {
  notUtf8: 'The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.',
  empty: 'The file has no header row.',
  noRows: 'The file has no rows below its header.',
  mapping: 'Please map the name and website columns.',
  missingColumn: (c: string) => `The file has no column '${c}'.`,
  parse: (line: number, message: string) => `The file could not be read as CSV near line ${line}: ${message}`,
  nameRequired: 'Company name is required',
  duplicateInFile: (line: number) => `Duplicate domain in the file (first on line ${line})`,
  nul: 'The row contains a NUL character',
} as const;

export interface CsvMapping {
  /** Header of the name column. */
  name: string;
  /** Header of the website column. */
  website: string;
  /** Other headers kept as the idea's data (absent: every other column). */
  columns?: string[];
}

export interface ImportResult { rows: number; inserted: number; merged: number; rejected: number; ms: number }

const COPY_SPECIAL = /[\\\t\n\r]/;
const copyText = (v: string | null) => (v === null ? '\\N' : !COPY_SPECIAL.test(v) ? v : v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r'));

/**
 * The first 28 hex digits of an import's idea ids, in the layout of a UUID version 7: 48 bits of
 * milliseconds, the version, 42 random bits (the variant in between); the file's line fills the last
 * 8 digits. Ids of one import ascend with the line, and later imports sort after earlier ones.
 */
export function orderedIdPrefix(now = Date.now()): string {
  const ts = now.toString(16).padStart(12, '0');
  const r = randomBytes(6).toString('hex');
  return `${ts.slice(0, 8)}-${ts.slice(8, 12)}-7${r.slice(0, 3)}-${(8 + (parseInt(r[3], 16) & 3)).toString(16)}${r.slice(4, 7)}-${r.slice(7, 11)}`;
}

/**
 * Checks that the bytes are UTF-8 (a byte sequence that is not fails the upload with a clear
 * message) and passes them on as they are: csv-parse reads bytes, so decoding to a string here only
 * to encode it again cost a copy of the whole file. A character split between two chunks waits for
 * the next one (its lead byte says how long it is).
 */
export function utf8(): Transform {
  let tail: Buffer = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      const buf = tail.length ? Buffer.concat([tail, chunk]) : chunk;
      let end = buf.length;
      let i = buf.length - 1;
      while (i >= 0 && buf.length - i <= 3 && (buf[i] & 0xc0) === 0x80) i--;
      if (i >= 0 && buf[i] >= 0xc0) {
        const need = buf[i] >= 0xf0 ? 4 : buf[i] >= 0xe0 ? 3 : 2;
        if (buf.length - i < need) end = i;
      }
      const body = buf.subarray(0, end);
      tail = Buffer.from(buf.subarray(end));
      if (!isUtf8(body)) return cb(badRequest(CSV_MESSAGES.notUtf8));
      cb(null, body);
    },
    flush(cb) {
      if (tail.length && !isUtf8(tail)) return cb(badRequest(CSV_MESSAGES.notUtf8));
      cb(null, tail.length ? tail : undefined);
    },
  });
}

/**
 * The file without its UTF-8 byte-order mark. Removed here rather than by csv-parse's `bom` option:
 * when csv-parse meets a mark it normalizes its options again from the ones it was built with, which
 * drops the separator picked below (a semicolon file with a mark was read as one column).
 */
const noBom = (b: Buffer): Buffer => (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b);

/** Holds the bytes back until the header line is complete, then picks the separator it uses most (the byte-order mark removed). */
function sniffDelimiter(onDelimiter: (d: string) => void): Transform {
  let head: Buffer = Buffer.alloc(0);
  let decided = false;
  const decide = (line: string) => {
    const counts = [',', ';', '\t'].map((d) => ({ d, n: line.split(d).length - 1 })).sort((x, y) => y.n - x.n);
    onDelimiter(counts[0].n > 0 ? counts[0].d : ',');
    decided = true;
  };
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (decided) return cb(null, chunk);
      head = head.length ? Buffer.concat([head, chunk]) : chunk;
      const nl = head.indexOf(0x0a);
      if (nl < 0 && head.length < 1_000_000) return cb();
      head = noBom(head);
      decide(head.subarray(0, nl < 0 ? head.length : nl).toString('utf8'));
      cb(null, head);
    },
    flush(cb) {
      if (!decided) {
        head = noBom(head);
        decide(head.toString('utf8'));
        return cb(null, head.length ? head : undefined);
      }
      cb();
    },
  });
}

/**
 * Imports one uploaded CSV into a list as the given source, in one transaction of its own
 * connection (COPY needs the client itself). The caller has created the source; `onProgress` is
 * told the rows read now and then.
 */
export async function importCsv(opts: {
  connectionString: string;
  organizationId: string;
  listId: string;
  sourceId: string;
  file: Readable;
  mapping: CsvMapping;
  onProgress?: (rows: number) => void;
}): Promise<ImportResult> {
  const started = Date.now();
  const { organizationId, listId, sourceId, mapping } = opts;
  if (!mapping.name?.trim() || !mapping.website?.trim()) throw badRequest(CSV_MESSAGES.mapping);
  const client = await tenantCopyClient(opts.connectionString, organizationId, 'dealscout-import');
  try {
    // Memory for this connection's work: the temporary table of a million rows stays in local
    // buffers instead of temp files, and the dedupe's hash aggregate does not spill to disk.
    await client.local(`set temp_buffers = '256MB'`);
    await client.local('begin');
    await client.local(`set local work_mem = '128MB'`);
    // The list row first: writers of one list queue here (lists.service.ts lockList).
    await client.query('select 1 from list_company where organization_id = $1 and id = $2 for update', [organizationId, listId]);
    await client.temp('import_row', 'line int not null, name text, website text, domain text, data jsonb, reason text');

    let headers: string[] | null = null;
    let nameAt = -1;
    let siteAt = -1;
    let keep: { key: string; at: number }[] = [];
    let rows = 0;
    const parser = parse({ bom: false, relax_column_count: true, skip_empty_lines: true, info: true, delimiter: [','] });
    const toCopy = new Transform({
      writableObjectMode: true,
      transform(rec: { record: string[]; info: { lines: number } }, _enc, cb) {
        const r = rec.record;
        if (!headers) {
          headers = r.map((h) => h.trim());
          nameAt = headers.indexOf(mapping.name.trim());
          siteAt = headers.indexOf(mapping.website.trim());
          if (nameAt < 0) return cb(badRequest(CSV_MESSAGES.missingColumn(mapping.name)));
          if (siteAt < 0) return cb(badRequest(CSV_MESSAGES.missingColumn(mapping.website)));
          const wanted = mapping.columns ?? headers.filter((_, i) => i !== nameAt && i !== siteAt);
          keep = wanted.map((key) => ({ key, at: headers!.indexOf(key) })).filter((k) => k.at >= 0 && k.at !== nameAt && k.at !== siteAt).slice(0, 50);
          return cb();
        }
        rows++;
        if (rows % 50_000 === 0) opts.onProgress?.(rows);
        const line = rec.info.lines;
        const name = (r[nameAt] ?? '').trim();
        const website = (r[siteAt] ?? '').trim();
        const p = companyProblems({ name, website });
        const reason: string | null = r.some((c) => c.includes('\u0000')) ? CSV_MESSAGES.nul : p.name ?? p.website ?? null;
        const data: Record<string, string> = {};
        for (const k of keep) data[k.key] = r[k.at] ?? '';
        const clean = (s: string) => s.split('\u0000').join('');
        cb(null, [line, copyText(clean(name).slice(0, 255)), copyText(clean(website).slice(0, 255)), reason ? '\\N' : copyText(normalizeDomain(website)),
          reason ? '\\N' : copyText(JSON.stringify(data)), reason === null ? '\\N' : copyText(reason)].join('\t') + '\n');
      },
    });
    const copy = client.copyInto('import_row', ['line', 'name', 'website', 'domain', 'data', 'reason']);
    try {
      await pipeline(opts.file, utf8(), sniffDelimiter((d) => { parser.options.delimiter = [Buffer.from(d)]; }), parser, toCopy, copy);
    } catch (e) {
      if (e && typeof e === 'object' && 'code' in e && String((e as { code: unknown }).code).startsWith('CSV_')) {
        const err = e as unknown as { lines?: number; message: string };
        throw badRequest(CSV_MESSAGES.parse(err.lines ?? 0, err.message));
      }
      throw e;
    }
    const tCopied = Date.now();
    if (!headers) throw badRequest(CSV_MESSAGES.empty);
    if (rows === 0) throw badRequest(CSV_MESSAGES.noRows);

    // The planner knows nothing of a temporary table until it is analyzed (autovacuum never does).
    await client.local('analyze import_row');
    // Duplicates within the file: the first row of a domain wins.
    await client.local(`update import_row r set reason = 'Duplicate domain in the file (first on line ' || f.first || ')', domain = null
                          from (select domain, min(line) as first from import_row where reason is null group by domain having count(*) > 1) f
                         where r.domain = f.domain and r.reason is null and r.line > f.first`);
    // A domain already in the list gains this source (the list is locked: no other writer of its
    // ideas runs meanwhile, so an update and an anti-join insert are exact — and much cheaper than
    // ON CONFLICT's speculative insertion of every row).
    const mer = await client.query<{ merged: number; merged_short: number }>(
      `with m as (update idea i set source_ids = i.source_ids || array[$3::text], updated_at = now() from import_row r
                   where i.organization_id = $1 and i.list_id = $2 and r.reason is null and i.domain = r.domain and not (i.source_ids @> array[$3::text])
                  returning i.short_listed)
       select count(*)::int as merged, (count(*) filter (where short_listed))::int as merged_short from m`,
      [organizationId, listId, sourceId]);
    // New ideas. Their ids are time-ordered (one random prefix per import, then the file's line), so
    // the primary key and the (organization_id, id) index grow at their right edge instead of at a
    // random place per row.
    const ins = await client.query<{ inserted: number }>(
      `with ins as (insert into idea (id, organization_id, list_id, name, website, domain, source_ids, data, created_at, updated_at)
                    select ($4 || lpad(to_hex(r.line), 8, '0'))::uuid, $1, $2, r.name, r.website, r.domain, array[$3::text], r.data, now(), now()
                      from import_row r
                     where r.reason is null and not exists (select 1 from idea i where i.organization_id = $1 and i.list_id = $2 and i.domain = r.domain)
                    returning 1)
       select count(*)::int as inserted from ins`,
      [organizationId, listId, sourceId, orderedIdPrefix()]);
    const rej = await client.query(`insert into list_source_rejection (organization_id, source_id, line, reason, name, website)
                                    select $1, $2, line, reason, name, website from import_row where reason is not null`, [organizationId, sourceId]);
    const { inserted } = ins.rows[0];
    const { merged, merged_short: mergedShort } = mer.rows[0];
    if (process.env.DS_IMPORT_TRACE) console.log(`import: parse+copy ${tCopied - started} ms, dedupe+insert+rejections ${Date.now() - tCopied} ms`);
    const rejected = rej.rowCount;
    await client.query(`update list_source set total = total + $1, shortlisted = shortlisted + $2, status = 'completed',
                          status_severity = case when $3::int > 0 then 'warning' else null end,
                          status_reason = case when $3::int > 0 then $3::int || ' row' || case when $3::int = 1 then '' else 's' end || ' rejected' else null end,
                          parameters = parameters || jsonb_build_object('rows', $4::int, 'inserted', $5::int, 'merged', $6::int, 'rejected', $3::int), updated_at = now()
                        where organization_id = $7 and id = $8`,
      [inserted + merged, mergedShort, rejected, rows, inserted, merged, organizationId, sourceId]);
    await client.query(`update list_company set total_ideas = total_ideas + $1, updated_at = now() where organization_id = $2 and id = $3`, [inserted, organizationId, listId]);
    await client.local('commit');
    // A large upload changes the table's statistics a lot: the planner sees the new list at once
    // instead of after autovacuum's next pass (a sample of 30,000 rows: a fraction of a second).
    if (inserted > 10_000) await client.local('analyze idea').catch(() => {});
    return { rows, inserted, merged, rejected, ms: Date.now() - started };
  } catch (e) {
    await client.local('rollback').catch(() => {});
    throw e;
  } finally {
    await client.end().catch(() => {});
  }
}
