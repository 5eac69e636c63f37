// A CSV upload into a list (spec 002 §7 `POST /list-company/source`). One pass over the
// upload, and PostgreSQL parses the CSV: Node checks the bytes as UTF-8 (a wrong encoding is a clear
// 400, not mojibake), removes the byte-order mark, reads the header record and its separator (comma,
// semicolon or tab), and reshapes the rest byte by byte (CsvReshaper: the quote state and field
// count only — every record gets the staging table's columns, its file line and a NUL flag) into
// `COPY … (format csv)` of a temporary table of text columns. Then set-based statements, in the
// same transaction: the company rules (name and website required, the website a URL, normalized to
// a domain, the other mapped columns kept as the idea's data), duplicates within the file rejected
// with the line they repeat, the rest inserted (a domain already in the list gains this source
// instead of a second idea), every rejected row stored with its reason for the downloadable report,
// and the list's and source's totals updated. Memory stays flat: nothing holds more than a chunk.
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { parse as parseSync } from 'csv-parse/sync';
import { COMPANY_MESSAGES, COMPANY_NAME_MAX, URL_MAX } from '@dealscout/shared/domain';
import { badRequest } from '../../lib/errors';
import { tenantCopyClient, type CopyCsvDelimiter } from '../../db/sql';
import { keepGenerated } from '../records/idea-query';

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
  tooManyColumns: 'The mapped columns must be among the first 1,500 columns of the file.',
  tooManyFileColumns: 'The file has more than 10,000 columns. Remove the columns you do not need and upload it again.',
  headerTooLong: 'The header row is longer than 256 KB. Shorten the column names or remove columns and upload the file again.',
  headerNul: (column: number) =>
    `The name of column ${column.toLocaleString('en-US')} contains a NUL character. Remove it and upload the file again.`,
  mappingShape: 'The mapping must give the name and website columns as text, and the other columns as a list of text.',
  /** A failed source's reason (statusReason) and the upload's answer. */
  failed: 'The import failed; please upload the file again.',
  connectionLost: 'The import was interrupted (the database connection was lost); please upload the file again.',
  serverStopped: 'The import was interrupted (the server stopped); please upload the file again.',
} as const;

/** The lease (advisory lock) an import's connection holds while it runs (import-sweep.job.ts reads it). */
export const importLeaseKey = (sourceId: string) => `list-import:${sourceId}`;

/** The staging table's columns at most (PostgreSQL's limit is 1,600 a table). */
export const CSV_MAX_COLUMNS = 1500;
/** The columns a file's header may have (only the first CSV_MAX_COLUMNS can be mapped). */
export const CSV_MAX_FILE_COLUMNS = 10_000;
/** The bytes a file's header record may have. */
export const CSV_MAX_HEADER_BYTES = 256 * 1024;

export interface CsvMapping {
  /** Header of the name column. */
  name: string;
  /** Header of the website column. */
  website: string;
  /** Other headers kept as the idea's data (absent: every other column). */
  columns?: string[];
}

export interface ImportResult {
  rows: number;
  inserted: number;
  merged: number;
  rejected: number;
  ms: number;
}

/**
 * shared/src/domain/records.ts URL_RE for PostgreSQL, its `i` flag spelled out ([a-zA-Z]) and `\S`
 * for `[^\s]` — but without the bounds `{2,63}` of the top-level domain and `{1,5}` of the port:
 * PostgreSQL unrolls a bounded repetition into as many automaton states, and that made the check
 * 5–6 times slower (18 µs a row). The import checks both lengths on the host with string functions.
 */
export const SQL_URL_RE =
  '^([hH][tT][tT][pP][sS]?://)?([a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?\\.)+[a-zA-Z][a-zA-Z]+(:[0-9]+)?([/?#]\\S*)?$';
/** The characters JavaScript's String.prototype.trim() removes (WhiteSpace and LineTerminator). */
const JS_WHITESPACE =
  ' \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';

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

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;

/** The file without its UTF-8 byte-order mark. */
const noBom = (b: Buffer): Buffer => (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b);

/**
 * The separator the header's first line (up to its first line feed) uses most: comma, semicolon or
 * tab, a comma on a tie or when it has none. One pass over the bytes, nothing allocated.
 */
export function sniffDelimiter(header: Buffer): CopyCsvDelimiter {
  let comma = 0;
  let semicolon = 0;
  let tab = 0;
  for (let i = 0; i < header.length; i++) {
    const c = header[i];
    if (c === LF) break;
    if (c === 0x2c) comma++;
    else if (c === 0x3b) semicolon++;
    else if (c === 0x09) tab++;
  }
  if (comma >= semicolon && comma >= tab) return ',';
  return semicolon >= tab ? ';' : '\t';
}

/** The line breaks in `b` (CRLF counts once), quoted or not. */
function lineBreaks(b: Buffer): number {
  let n = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c === CR || (c === LF && (i === 0 || b[i - 1] !== CR))) n++;
  }
  return n;
}

/** Lets the event loop run (other requests, /health) between two steps of CPU work. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A pacer for a loop over chunks: `await pace()` after each chunk lets the event loop run once
 * `ms` have passed since it last did. Chunks already buffered arrive by promise (microtasks) and
 * would otherwise be worked through back to back, holding the loop for a whole fast upload.
 */
export function pacer(ms = 10): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < ms) return;
    await yieldToLoop();
    since = performance.now();
  };
}

/**
 * The end of the first CSV record of `b`, scanning from `state.at` on (the index of its unquoted
 * line break, -1 when the record is not complete yet; `state` then holds where the scan stopped and
 * the quote state, so the next chunk continues the scan instead of repeating it). Quotes toggle, as
 * in PostgreSQL's CSV reader.
 */
function recordEnd(b: Buffer, state: { at: number; quoted: boolean }): number {
  let q = state.quoted;
  for (let i = state.at; i < b.length; i++) {
    const c = b[i];
    if (c === QUOTE) q = !q;
    else if (!q && (c === LF || c === CR)) return i;
  }
  state.at = b.length;
  state.quoted = q;
  return -1;
}

/** The fields of one CSV record (its separators outside quotes, plus one). */
export function countFields(record: Buffer, delimiter: number): number {
  let q = false;
  let n = 1;
  for (let i = 0; i < record.length; i++) {
    const c = record[i];
    if (c === QUOTE) q = !q;
    else if (!q && c === delimiter) n++;
  }
  return n;
}

/**
 * Where each mapped column is, looked up in one map of the header (the first column of a name wins),
 * so a header of many columns costs one pass instead of a search per column. Throws the 400s of a
 * missing name or website column.
 */
export function locateColumns(
  headers: readonly string[],
  mapping: CsvMapping,
): { nameAt: number; siteAt: number; keep: { key: string; at: number }[] } {
  const index = new Map<string, number>();
  for (let i = 0; i < headers.length; i++) if (!index.has(headers[i])) index.set(headers[i], i);
  const nameAt = index.get(mapping.name.trim()) ?? -1;
  const siteAt = index.get(mapping.website.trim()) ?? -1;
  if (nameAt < 0) throw badRequest(CSV_MESSAGES.missingColumn(mapping.name));
  if (siteAt < 0) throw badRequest(CSV_MESSAGES.missingColumn(mapping.website));
  const keep: { key: string; at: number }[] = [];
  const wanted = mapping.columns ?? headers;
  for (let i = 0; i < wanted.length && keep.length < 50; i++) {
    const at = index.get(wanted[i]) ?? -1;
    if (at >= 0 && at !== nameAt && at !== siteAt) keep.push({ key: wanted[i], at });
  }
  return { nameAt, siteAt, keep };
}

/**
 * Reshapes the body of a CSV file (below its header) into what PostgreSQL's `COPY … (format csv)`
 * reads into a staging table of `columns` text columns plus the file line and a NUL flag, without
 * parsing a field in JavaScript: one pass over the bytes keeps the quote state and the field count.
 * Every record gets exactly `columns` fields (a short record is padded with empty fields, the
 * fields beyond are cut off — csv-parse's `relax_column_count`), then `;<line>;<t if it had a NUL
 * byte>` and a line feed; empty lines are skipped, NUL bytes dropped (PostgreSQL text cannot hold
 * them; the row is rejected with its reason), line breaks outside quotes (LF, CRLF, CR) become LF.
 * A quote in the middle of an unquoted field, data after a closing quote and a quote left open at
 * the end are refused like csv-parse refuses them (its messages, the line), so a stray quote never
 * swallows the rows after it. `line` is the file's line a record ends on (csv-parse's `info.lines`).
 */
export class CsvReshaper {
  private inQuote = false;
  private afterClose = false;
  private fieldHasData = false;
  private field = 0;
  private recordEmpty = true;
  private nul = false;
  private prevCR = false;
  /** The last byte ended a record with CR: a LF right after it belongs to the same line break. */
  private endedOnCR = false;
  /** Inside quotes: 1 at the start of a line, 2 after a backslash there, 3 after `\.`; else 0. */
  private quotedLine = 0;
  private out: Buffer = Buffer.allocUnsafe(1 << 17);
  private pos = 0;
  rows = 0;

  constructor(
    private readonly delimiter: number,
    private readonly columns: number,
    public line: number,
    private readonly onRow?: (rows: number) => void,
  ) {}

  private ensure(n: number): void {
    if (this.pos + n <= this.out.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.pos + n));
    this.out.copy(bigger, 0, 0, this.pos);
    this.out = bigger;
  }

  private emit(b: Buffer, from: number, to: number): void {
    if (to <= from) return;
    this.ensure(to - from);
    b.copy(this.out, this.pos, from, to);
    this.pos += to - from;
  }

  private endRecord(): void {
    if (this.recordEmpty) return;
    const d = String.fromCharCode(this.delimiter);
    const pad = this.field + 1 < this.columns ? d.repeat(this.columns - this.field - 1) : '';
    const tail = `${pad}${d}${this.line}${d}${this.nul ? 't' : ''}\n`;
    this.ensure(tail.length);
    this.pos += this.out.write(tail, this.pos, 'latin1');
    this.rows++;
    if (this.rows % 50_000 === 0) this.onRow?.(this.rows);
  }

  private reset(): void {
    this.field = 0;
    this.fieldHasData = false;
    this.afterClose = false;
    this.recordEmpty = true;
    this.nul = false;
  }

  private fail(message: string): never {
    const e = new Error(message) as Error & { code: string; lines: number };
    e.code = 'CSV_RESHAPE';
    e.lines = this.line;
    throw e;
  }

  /** The reshaped bytes of one chunk (a record may continue in the next). */
  push(b: Buffer): Buffer {
    const D = this.delimiter;
    this.pos = 0;
    // Bytes from `start` on are copied through when the record ends or the chunk does; -1 while the
    // fields beyond `columns` are being cut off (also when that began in an earlier chunk).
    let start = this.field >= this.columns ? -1 : 0;
    for (let i = 0; i < b.length; i++) {
      const c = b[i];
      if (this.inQuote) {
        // PostgreSQL (15) ends the COPY at a line of only `\.` even inside a quoted field.
        const dot = this.quotedLine;
        this.quotedLine = dot === 1 && c === 0x5c ? 2 : dot === 2 && c === 0x2e ? 3 : 0;
        if (c === QUOTE) {
          this.inQuote = false;
          this.afterClose = true;
        } else if (c === LF || c === CR) {
          if (dot === 3) this.fail('a line of only "\\." inside a quoted field cannot be read');
          if (c === CR || !this.prevCR) this.line++;
          this.quotedLine = 1;
        } else if (c === NUL) {
          this.nul = true;
          if (start >= 0) {
            this.emit(b, start, i);
            start = i + 1;
          }
        }
        this.prevCR = c === CR;
        continue;
      }
      const wasCR = this.endedOnCR;
      this.endedOnCR = false;
      this.prevCR = c === CR;
      if (c === D) {
        this.recordEmpty = false;
        this.afterClose = false;
        this.fieldHasData = false;
        this.field++;
        if (this.field === this.columns && start >= 0) {
          this.emit(b, start, i);
          start = -1;
        }
      } else if (c === LF || c === CR) {
        if (c === LF && wasCR) {
          start = start >= 0 ? i + 1 : start;
          continue;
        }
        if (start >= 0) this.emit(b, start, i);
        this.endRecord();
        this.reset();
        this.line++;
        this.endedOnCR = c === CR;
        start = i + 1;
      } else if (c === QUOTE) {
        this.recordEmpty = false;
        if (this.afterClose) {
          this.inQuote = true;
          this.afterClose = false;
        } else if (this.fieldHasData) this.fail(`Invalid Opening Quote: a quote is found on field ${this.field} at line ${this.line}`);
        else this.inQuote = true;
      } else {
        if (this.afterClose)
          this.fail(`Invalid Closing Quote: got "${String.fromCharCode(c)}" at line ${this.line} instead of delimiter, record delimiter`);
        this.recordEmpty = false;
        this.fieldHasData = true;
        if (c === NUL) {
          this.nul = true;
          if (start >= 0) {
            this.emit(b, start, i);
            start = i + 1;
          }
        }
      }
    }
    if (start >= 0) this.emit(b, start, b.length);
    return Buffer.from(this.out.subarray(0, this.pos));
  }

  /** The last record, when the file does not end with a line break. */
  end(): Buffer {
    if (this.inQuote) this.fail(`Quote Not Closed: the parsing is finished with an opening quote at line ${this.line}`);
    this.pos = 0;
    this.endRecord();
    this.reset();
    return Buffer.from(this.out.subarray(0, this.pos));
  }
}

/**
 * Reads a CSV upload's header record from its chunks: leading empty lines skipped (counted in
 * `line`, the file line the header starts on), the byte-order mark removed. Each chunk is scanned
 * once (the scan state carries over) and held; the held chunks are joined once, when the header's
 * end is found, so a long header costs one pass. A header beyond CSV_MAX_HEADER_BYTES is refused as
 * soon as it is. `rest` is the rest of the last chunk read, from the header's own line break on.
 */
export async function readHeader(it: AsyncIterator<Buffer>): Promise<{ header: Buffer; line: number; rest: Buffer }> {
  let buf: Buffer = Buffer.alloc(0);
  let bom = false;
  let line = 1;
  let at = 0;
  let end = -1;
  // The last empty line ended with CR (a LF right after it, also in the next chunk, is the same line break).
  let afterCR = false;
  const scan = { at: 0, quoted: false };
  const pace = pacer();
  const held: Buffer[] = [];
  let heldBytes = 0;
  for (;;) {
    if (!held.length) {
      if (!bom && buf.length >= 3) {
        const nb = noBom(buf);
        bom = true;
        if (nb !== buf) {
          buf = nb;
          at = 0;
        }
      }
      while (at < buf.length && (buf[at] === LF || buf[at] === CR)) {
        if (buf[at] === CR || !afterCR) line++;
        afterCR = buf[at] === CR;
        at++;
        bom = true;
      }
      // The header starts here (once a byte-order mark can no longer be on its way).
      if (at < buf.length && bom) {
        scan.at = at;
        scan.quoted = false;
        end = recordEnd(buf, scan);
        if (end >= 0) break;
        held.push(buf.subarray(at));
        heldBytes = buf.length - at;
      }
    } else {
      end = recordEnd(buf, scan);
      if (end >= 0) break;
      held.push(buf);
      heldBytes += buf.length;
    }
    if (heldBytes > CSV_MAX_HEADER_BYTES) {
      // Too long because of too many columns: that is the answer that helps.
      const part = Buffer.concat(held);
      throw badRequest(
        countFields(part, sniffDelimiter(part).charCodeAt(0)) > CSV_MAX_FILE_COLUMNS
          ? CSV_MESSAGES.tooManyFileColumns
          : CSV_MESSAGES.headerTooLong,
      );
    }
    await pace();
    const n = await it.next();
    if (n.done) break;
    if (held.length) {
      buf = n.value;
      scan.at = 0;
    } else {
      buf = at < buf.length ? Buffer.concat([buf.subarray(at), n.value]) : n.value;
      at = 0;
    }
  }
  // The header's bytes; the body starts in `buf` at `end` (the header's line break).
  const headerBytes = !held.length
    ? buf.subarray(at, end >= 0 ? end : buf.length)
    : Buffer.concat(end >= 0 ? [...held, buf.subarray(0, end)] : held);
  return { header: headerBytes, line, rest: end < 0 ? Buffer.alloc(0) : buf.subarray(end) };
}

/**
 * Imports one uploaded CSV into a list as the given source, in one transaction of its own
 * connection (COPY needs the client itself). That connection first takes the import's lease
 * (`importLeaseKey`), then `register` creates the source (inProgress): a source in progress whose
 * lease nobody holds is an import that stopped (import-sweep.job.ts). `onProgress` is told the rows
 * read now and then.
 */
export async function importCsv(opts: {
  connectionString: string;
  organizationId: string;
  listId: string;
  sourceId: string;
  register: () => Promise<void>;
  file: Readable;
  mapping: CsvMapping;
  onProgress?: (rows: number) => void;
}): Promise<ImportResult> {
  const started = Date.now();
  const { organizationId, listId, sourceId, mapping } = opts;
  if (!mapping.name?.trim() || !mapping.website?.trim()) throw badRequest(CSV_MESSAGES.mapping);
  const client = await tenantCopyClient(opts.connectionString, organizationId, 'dealscout-import');
  try {
    if (!(await client.lease(importLeaseKey(sourceId)))) throw new Error(`the lease of import ${sourceId} is held by another connection`);
    await opts.register();
    // Memory for this connection's work: the temporary table of a million rows stays in local
    // buffers instead of temp files, and the dedupe's hash aggregate does not spill to disk.
    await client.local(`set temp_buffers = '256MB'`);
    await client.local('begin');
    await client.local(`set local work_mem = '128MB'`);
    // The list row first: writers of one list queue here (lists.service.ts lockList).
    await client.query('select 1 from list_company where organization_id = $1 and id = $2 for update', [organizationId, listId]);
    await client.temp('import_row', 'line int not null, name text, website text, domain text, data jsonb, reason text');

    const { head, rows } = await copyFile(client, opts.file, mapping, opts.onProgress);
    const tCopied = Date.now();
    if (!head) throw badRequest(CSV_MESSAGES.empty);
    if (rows === 0) throw badRequest(CSV_MESSAGES.noRows);
    await applyCompanyRules(client, head);
    const tRules = Date.now();
    const { inserted, merged, mergedShort, rejected, tDup, tMerged, tInserted } = await dedupeAndInsert(client, opts);
    if (process.env.DS_IMPORT_TRACE)
      console.log(
        `import: ${rows} rows; reshape + COPY (format csv) ${tCopied - started} ms, company rules in ` +
          `SQL ${tRules - tCopied} ms, dedupe+insert+rejections ${Date.now() - tRules} ms (analyze + ` +
          `duplicates ${tDup - tRules}, merge ${tMerged - tDup}, insert ${tInserted - tMerged}, ` +
          `rejections ${Date.now() - tInserted})`,
      );
    await completeSource(client, opts, { rows, inserted, merged, mergedShort, rejected });
    await client.local('commit');
    await afterLargeImport(client, inserted);
    return { rows, inserted, merged, rejected, ms: Date.now() - started };
  } catch (e) {
    await client.local('rollback').catch(() => {});
    throw e;
  } finally {
    await client.end().catch(() => {});
  }
}

type CopyClient = Awaited<ReturnType<typeof tenantCopyClient>>;
/** The file's header and where the mapped columns are in it. */
type CsvHead = { headers: string[]; nameAt: number; siteAt: number; keep: { key: string; at: number }[] };

/** Node reads the header and reshapes the bytes; PostgreSQL parses the CSV (COPY … format csv) into import_raw. */
async function copyFile(
  client: CopyClient,
  file: Readable,
  mapping: CsvMapping,
  onProgress?: (rows: number) => void,
): Promise<{ head: CsvHead | null; rows: number }> {
  let loaded: { head: CsvHead | null; rows: number } = { head: null, rows: 0 };
  try {
    await pipeline(file, utf8(), async (source: AsyncIterable<Buffer>) => {
      loaded = await loadCsv(client, source, mapping, onProgress);
    });
  } catch (e) {
    const code = e && typeof e === 'object' && 'code' in e ? String((e as { code: unknown }).code) : '';
    if (code.startsWith('CSV_')) {
      const err = e as unknown as { lines?: number; message: string };
      throw badRequest(CSV_MESSAGES.parse(err.lines ?? 0, err.message));
    }
    // PostgreSQL's CSV reader (its line is the record's, counted from the first one below the header).
    if (code.startsWith('22')) throw badRequest(CSV_MESSAGES.parse(0, (e as Error).message));
    throw e;
  }
  return loaded;
}

/** Reads the header, then COPYs the reshaped records into import_raw: the header found (null for an empty file) and the rows. */
async function loadCsv(
  client: CopyClient,
  source: AsyncIterable<Buffer>,
  mapping: CsvMapping,
  onProgress?: (rows: number) => void,
): Promise<{ head: CsvHead | null; rows: number }> {
  const it = source[Symbol.asyncIterator]();
  const parsed = await parseHeader(it);
  if (!parsed) return { head: null, rows: 0 };
  const { headers, delimiter, line, body } = parsed;
  const { nameAt, siteAt, keep } = locateColumns(headers, mapping);
  const head = { headers, nameAt, siteAt, keep };
  const columns = Math.max(nameAt, siteAt, ...keep.map((k) => k.at)) + 1;
  // The staging table has a text column up to the last needed one (PostgreSQL allows 1,600 a table).
  if (columns > CSV_MAX_COLUMNS) throw badRequest(CSV_MESSAGES.tooManyColumns);
  const cols = Array.from({ length: columns }, (_, i) => `c${i}`);
  await client.temp('import_raw', `${cols.map((c) => `${c} text`).join(', ')}, line int not null, nul boolean`);
  // `body` starts at the header's own line break: the reshaper reads it as the end of an empty record.
  const reshaper = new CsvReshaper(delimiter.charCodeAt(0), columns, line, onProgress);
  async function* reshaped() {
    const pace = pacer();
    yield reshaper.push(body);
    for (let n = await it.next(); !n.done; n = await it.next()) {
      yield reshaper.push(n.value);
      await pace();
    }
    yield reshaper.end();
  }
  await pipeline(Readable.from(reshaped()), client.copyInto('import_raw', [...cols, 'line', 'nul'], { delimiter }));
  return { head, rows: reshaper.rows };
}

/** The header's column names (checked: size, columns, NUL), its delimiter, and the body that follows it; null when the file is empty. */
async function parseHeader(
  it: AsyncIterator<Buffer>,
): Promise<{ headers: string[]; delimiter: CopyCsvDelimiter; line: number; body: Buffer } | null> {
  const { header: headerBytes, rest: body, line: startLine } = await readHeader(it);
  let line = startLine;
  if (headerBytes.length === 0) return null;
  if (headerBytes.length > CSV_MAX_HEADER_BYTES) throw badRequest(CSV_MESSAGES.headerTooLong);
  // A header with a quoted line break spans more than one line.
  line += lineBreaks(headerBytes);
  const delimiter = sniffDelimiter(headerBytes);
  // Counted before anything parses the header: a hostile header of 100,000 columns stops here.
  if (countFields(headerBytes, delimiter.charCodeAt(0)) > CSV_MAX_FILE_COLUMNS) throw badRequest(CSV_MESSAGES.tooManyFileColumns);
  await yieldToLoop();
  let headers: string[];
  try {
    // The record delimiters given: csv-parse otherwise looks for one at every byte of the first
    // record, allocating three buffers each time (a 1 MB header: 3 million buffers).
    headers = (
      (
        parseSync(headerBytes, {
          delimiter,
          record_delimiter: ['\r\n', '\n', '\r'],
          relax_column_count: true,
          bom: false,
        }) as string[][]
      )[0] ?? []
    ).map((h) => h.trim());
  } catch (e) {
    throw badRequest(CSV_MESSAGES.parse(line, (e as Error).message));
  }
  // PostgreSQL text cannot hold NUL: a column name with one could never be a key of the data.
  await yieldToLoop();
  const nulAt = headers.findIndex((h) => h.includes('\u0000'));
  if (nulAt >= 0) throw badRequest(CSV_MESSAGES.headerNul(nulAt + 1));
  return { headers, delimiter, line, body };
}

/**
 * The company rules of shared/src/domain/records.ts (companyProblems, isValidUrl, normalizeDomain),
 * set-based. Name and website are trimmed of the whitespace JavaScript's trim() removes; a valid
 * website's host is its domain (lowercased, without www.) — the same as normalizeDomain gives for
 * anything URL_RE accepts. csv-import.test.ts compares both on a table of websites. `offset 0`
 * keeps each level a subquery of its own: flattened, every use of n, w and hp repeated the
 * functions behind it (3.8 s instead of 1.3 s for 200,000 rows).
 */
async function applyCompanyRules(client: CopyClient, head: CsvHead): Promise<void> {
  const { nameAt, siteAt, keep } = head;
  const dataArgs = keep.map((k, i) => `$${i + 9}::text, coalesce(c${k.at}, '')`).join(', ');
  await client.local(
    `insert into import_row (line, name, website, domain, data, reason)
     select line, left(n, ${COMPANY_NAME_MAX}), left(w, ${URL_MAX}), case when reason is null then case when left(d, 4) = 'www.' then
       substr(d, 5) else d end end,
            case when reason is null then jsonb_build_object(${dataArgs}) end, reason
       from (select line, n, w, lower(split_part(hp, ':', 1)) as d, ${keep.map((k) => `c${k.at}, `).join('')}
                    case when nul then $1 when n = '' then $2 when length(n) > ${COMPANY_NAME_MAX} then $3
                         when w = '' then $4 when length(w) > ${URL_MAX} then $5
                         when w !~ $6 or length(reverse(split_part(reverse(split_part(hp, ':', 1)), '.', 1))) > 63 or
                           length(split_part(hp, ':', 2)) > 5 then $7 end as reason
               from (select *, split_part(split_part(split_part(case lower(left(w, 8)) when 'https://' then substr(w, 9) else case
                 lower(left(w, 7)) when 'http://' then substr(w, 8) else w end end, '/', 1), '?', 1), '#', 1) as hp
                       from (select *, btrim(coalesce(c${nameAt}, ''), $8) as n, btrim(coalesce(c${siteAt}, ''), $8) as w from
                         import_raw offset 0) t offset 0) h offset 0) v`,
    [
      CSV_MESSAGES.nul,
      COMPANY_MESSAGES.nameRequired,
      COMPANY_MESSAGES.nameMax,
      COMPANY_MESSAGES.websiteRequired,
      COMPANY_MESSAGES.urlMax,
      SQL_URL_RE,
      COMPANY_MESSAGES.invalidUrl,
      JS_WHITESPACE,
      ...keep.map((k) => k.key),
    ],
  );
}

/** Duplicates in the file rejected, domains already in the list merged, new ideas inserted, rejections kept. */
async function dedupeAndInsert(
  client: CopyClient,
  ids: { organizationId: string; listId: string; sourceId: string },
): Promise<{ inserted: number; merged: number; mergedShort: number; rejected: number; tDup: number; tMerged: number; tInserted: number }> {
  const { organizationId, listId, sourceId } = ids;
  // The planner knows nothing of a temporary table until it is analyzed (autovacuum never does).
  await client.local('analyze import_row');
  // Duplicates within the file: the first row of a domain wins.
  await client.local(`update import_row r set reason = 'Duplicate domain in the file (first on line ' || f.first || ')', domain = null
                        from (select domain, min(line) as first from import_row where reason is null group by domain having count(*) > 1) f
                       where r.domain = f.domain and r.reason is null and r.line > f.first`);
  // A domain already in the list gains this source (the list is locked: no other writer of its
  // ideas runs meanwhile, so an update and an anti-join insert are exact — and much cheaper than
  // ON CONFLICT's speculative insertion of every row).
  const tDup = Date.now();
  const mer = await client.query<{ merged: number; merged_short: number }>(
    `with m as (update idea i set source_ids = i.source_ids || array[$3::text], updated_at = now(), ${keepGenerated('i')} from import_row r
                 where i.organization_id = $1 and i.list_id = $2 and r.reason is null and i.domain = r.domain and not (i.source_ids @> array[$3::text])
                returning i.short_listed)
     select count(*)::int as merged, (count(*) filter (where short_listed))::int as merged_short from m`,
    [organizationId, listId, sourceId],
  );
  // New ideas. Their ids are time-ordered (one random prefix per import, then the file's line), so
  // the primary key and the (organization_id, id) index grow at their right edge instead of at a
  // random place per row. The rows go in in domain order: the list's unique domain index then
  // takes its entries one after the other (each leaf page written once while it is in memory)
  // instead of at a random place per row, which beyond shared_buffers cost a page read and write
  // per row; names follow their domains closely enough that the name index mostly does the same.
  const tMerged = Date.now();
  const ins = await client.query(
    `insert into idea (id, organization_id, list_id, name, website, domain, source_ids, data, created_at, updated_at)
     select ($4 || lpad(to_hex(r.line), 8, '0'))::uuid, $1, $2, r.name, r.website, r.domain, array[$3::text], r.data, now(), now()
       from import_row r
      where r.reason is null and not exists (select 1 from idea i where i.organization_id = $1 and i.list_id = $2 and i.domain = r.domain)
      order by r.domain`,
    [organizationId, listId, sourceId, orderedIdPrefix()],
  );
  const tInserted = Date.now();
  const rej = await client.query(
    `insert into list_source_rejection (organization_id, source_id, line, reason, name, website)
                                  select $1, $2, line, reason, name, website from import_row where reason is not null`,
    [organizationId, sourceId],
  );
  const { merged, merged_short: mergedShort } = mer.rows[0];
  return { inserted: ins.rowCount, merged, mergedShort, rejected: rej.rowCount, tDup, tMerged, tInserted };
}

/** The source completed with its counts (a warning when rows were rejected), and the list's total. */
async function completeSource(
  client: CopyClient,
  ids: { organizationId: string; listId: string; sourceId: string },
  counts: { rows: number; inserted: number; merged: number; mergedShort: number; rejected: number },
): Promise<void> {
  const { organizationId, listId, sourceId } = ids;
  const { rows, inserted, merged, mergedShort, rejected } = counts;
  await client.query(
    `update list_source set total = total + $1, shortlisted = shortlisted + $2, status = 'completed',
                        status_severity = case when $3::int > 0 then 'warning' else null end,
                        status_reason = case when $3::int > 0 then $3::int || ' row' || case when $3::int = 1 then '' else 's' end ||
                          ' rejected' else null end,
                        parameters = parameters || jsonb_build_object('rows', $4::int, 'inserted', $5::int, 'merged', $6::int,
                          'rejected', $3::int), updated_at = now()
                      where organization_id = $7 and id = $8`,
    [inserted + merged, mergedShort, rejected, rows, inserted, merged, organizationId, sourceId],
  );
  await client.query(`update list_company set total_ideas = total_ideas + $1, updated_at = now() where organization_id = $2 and id = $3`, [
    inserted,
    organizationId,
    listId,
  ]);
}

/** After the commit of a large upload (more than 10,000 new ideas): the idea table analyzed and vacuumed. */
async function afterLargeImport(client: CopyClient, inserted: number): Promise<void> {
  // A large upload changes the table's statistics a lot: the planner sees the new list at once
  // instead of after autovacuum's next pass (a sample of 30,000 rows: a fraction of a second).
  if (inserted > 10_000) {
    await client.local('analyze idea').catch(() => {});
    // The new ideas' pages marked all-visible, so the list's pages and its page-boundary map are
    // read from the paging indexes alone (an index-only scan that otherwise visits the row of every
    // index entry it walks: 0.3–0.9 s for a page in the middle of a million ideas). It reads only
    // the pages not yet all-visible; no index pass (index_cleanup off) and no truncation (which
    // would lock the table), both left to autovacuum.
    await client.local('vacuum (index_cleanup off, truncate off) idea').catch(() => {});
  }
}
