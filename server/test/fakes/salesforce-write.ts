// The write side of the fake Salesforce (salesforce-server.ts), following Salesforce's documented
// requests and answers:
// - sObject Collections (REST API ≥ 42/46): POST /composite/sobjects (create), PATCH
//   /composite/sobjects (update by id), PATCH /composite/sobjects/{SObject}/{ExternalIdField}
//   (upsert): at most 200 records, `allOrNone` (default false; when true one failure rolls every
//   record back with ALL_OR_NONE_OPERATION_ROLLED_BACK), answers 200 with one SaveResult /
//   UpsertResult per record in request order: { id, success, errors: [{ statusCode, message,
//   fields }], created? }. Request-level faults are 400 [{ errorCode, message }] (INVALID_FIELD for an
//   unknown column, EXCEEDED_ID_LIMIT above 200 records, INVALID_TYPE) or 404 NOT_FOUND for an
//   upsert key that is not an External ID field.
// - Per-record validation as Salesforce reports it: REQUIRED_FIELD_MISSING, DUPLICATE_VALUE on a
//   unique field ("duplicate value found: F duplicates value on record with id: X"),
//   INVALID_FIELD_FOR_INSERT_UPDATE for read-only / create-only fields, INVALID_EMAIL_ADDRESS,
//   INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST, INVALID_CROSS_REFERENCE_KEY for a reference to no
//   record, DUPLICATE_EXTERNAL_ID, and any scripted rule (a validation rule, a trigger, a lock).
// - Bulk API 2.0 ingest (/jobs/ingest): create (state Open), PUT …/batches with CSV (201, once per
//   job), PATCH { state: UploadComplete | Aborted }, job info polled through UploadComplete →
//   InProgress → JobComplete (or Failed with errorMessage), then …/successfulResults (sf__Id,
//   sf__Created, the uploaded columns), …/failedResults (sf__Id, sf__Error, columns),
//   …/unprocessedrecords (columns) as CSV; DELETE a finished job. Empty CSV cells leave a field as
//   it is; #N/A sets it to null.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { FakeSfField, FakeSfRecord } from './salesforce-server';

export interface SfRecordError {
  statusCode: string;
  message: string;
  fields: string[];
}

/** A scripted write failure: matching creates / updates fail with this error. */
export interface SfRule {
  sobject: string;
  when: (values: Record<string, unknown>, existing: FakeSfRecord | null) => boolean;
  statusCode: string;
  message: string;
  fields?: string[];
}

type Reply = { status: number; body?: unknown; csv?: string };
type WriteOutcome = { id: string; created: boolean } | { errors: SfRecordError[] };

interface IngestJob {
  id: string;
  object: string;
  operation: 'insert' | 'update' | 'upsert' | 'delete';
  externalIdFieldName: string | null;
  lineEnding: string;
  columnDelimiter: string;
  state: 'Open' | 'UploadComplete' | 'InProgress' | 'JobComplete' | 'Failed' | 'Aborted';
  createdDate: string;
  systemModstamp: string;
  csv: string | null;
  polls: number;
  errorMessage: string | null;
  header: string[];
  successful: { id: string; created: boolean; row: string[] }[];
  failed: { id: string; error: string; row: string[] }[];
  unprocessed: string[][];
  version: string;
}

const PREFIX: Record<string, string> = { Account: '001', Contact: '003', Task: '00T', User: '005', Lead: '00Q', Opportunity: '006' };
const DELIMITERS: Record<string, string> = { COMMA: ',', TAB: '\t', PIPE: '|', SEMICOLON: ';', CARET: '^', BACKQUOTE: '`' };
const ROLLED_BACK: SfRecordError = {
  statusCode: 'ALL_OR_NONE_OPERATION_ROLLED_BACK',
  message: 'Record rolled back because not all records were valid and the request was using AllOrNone header',
  fields: [],
};
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function stamp(): string {
  return new Date().toISOString().replace('Z', '+0000');
}

interface Index {
  len: number;
  first: FakeSfRecord | undefined;
  last: FakeSfRecord | undefined;
  byId: Map<string, FakeSfRecord>;
  byField: Map<string, Map<string, FakeSfRecord[]>>;
}

export class SfWriteStore {
  readonly rules: SfRule[] = [];
  readonly jobs = new Map<string, IngestJob>();
  /** Bulk jobs fail (state Failed) after processing this many rows; the rest is unprocessed. */
  bulkFailAfterRows: number | null = null;
  private seq = 0;
  private readonly indexes = new Map<string, Index>();

  constructor(
    private readonly fields: Record<string, FakeSfField[]>,
    private readonly records: Record<string, FakeSfRecord[]>,
    private readonly ownerId: string,
    private readonly pollsInProgress: number,
  ) {}

  private newId(sobject: string): string {
    this.seq += 1;
    return `${PREFIX[sobject] ?? 'a00'}W${this.seq.toString(36).toUpperCase().padStart(11, '0')}AAA`;
  }

  private readonly fieldMaps = new Map<string, { list: FakeSfField[]; len: number; byName: Map<string, FakeSfField> }>();

  /** A field by name, case-insensitive (tests may add fields: the map follows the list). */
  private field(sobject: string, name: string): FakeSfField | undefined {
    const list = this.fields[sobject] ?? [];
    let m = this.fieldMaps.get(sobject);
    if (!m || m.list !== list || m.len !== list.length) {
      m = { list, len: list.length, byName: new Map(list.map((f) => [f.name.toLowerCase(), f])) };
      this.fieldMaps.set(sobject, m);
    }
    return m.byName.get(name.toLowerCase());
  }

  private indexed(sobject: string): Index {
    const all = this.records[sobject] ?? (this.records[sobject] = []);
    let ix = this.indexes.get(sobject);
    // Tests push to and truncate `records` directly: rebuild when the array is not the one indexed.
    if (!ix || ix.len !== all.length || ix.first !== all[0] || ix.last !== all[all.length - 1]) {
      ix = { len: all.length, first: all[0], last: all[all.length - 1], byId: new Map(), byField: new Map() };
      for (const f of this.fields[sobject] ?? []) if (f.externalId || f.unique) ix.byField.set(f.name, new Map());
      for (const r of all) this.addToIndex(ix, r);
      this.indexes.set(sobject, ix);
    }
    return ix;
  }

  private addToIndex(ix: Index, r: FakeSfRecord): void {
    ix.byId.set(r.Id, r);
    for (const name of ix.byField.keys()) this.addToFieldIndex(ix, r, name);
  }

  private addToFieldIndex(ix: Index, r: FakeSfRecord, name: string): void {
    const v = r[name];
    const map = ix.byField.get(name);
    if (v === null || v === undefined || v === '' || !map) return;
    const key = String(v).toLowerCase();
    const list = map.get(key);
    if (list) list.push(r);
    else map.set(key, [r]);
  }

  private removeFromFieldIndex(ix: Index, r: FakeSfRecord, name: string): void {
    const v = r[name];
    if (v === null || v === undefined || v === '') return;
    const map = ix.byField.get(name);
    const key = String(v).toLowerCase();
    const list = map?.get(key)?.filter((x) => x !== r) ?? [];
    if (list.length) map?.set(key, list);
    else map?.delete(key);
  }

  byId(sobject: string, id: string): FakeSfRecord | undefined {
    return this.indexed(sobject).byId.get(id);
  }

  byExternalId(sobject: string, field: string, value: string): FakeSfRecord[] {
    return this.indexed(sobject).byField.get(field)?.get(value.toLowerCase()) ?? [];
  }

  /**
   * Changes an indexed record in place from outside (a test's or bench's edit), keeping the
   * indexes: only the changed fields' entries move (rebuilding an sObject's indexes per edit made
   * the bench's 1,000 edits of 300,000 records take most of a minute).
   */
  changeInPlace(sobject: string, rec: FakeSfRecord, fields: Record<string, unknown>): void {
    const ix = this.indexed(sobject);
    const names = Object.keys(fields).filter((n) => ix.byField.has(n));
    for (const name of names) this.removeFromFieldIndex(ix, rec, name);
    Object.assign(rec, fields);
    for (const name of names) this.addToFieldIndex(ix, rec, name);
  }

  // ---- validation and application of one record ------------------------------------------------

  private validate(sobject: string, values: Record<string, unknown>, existing: FakeSfRecord | null): SfRecordError[] {
    const errors: SfRecordError[] = [];
    const creating = existing === null;
    const readOnly = Object.keys(values).filter((k) => {
      if (k === 'Id') return false;
      const f = this.field(sobject, k);
      return f ? !(creating ? f.createable : f.updateable) : false;
    });
    if (readOnly.length) {
      errors.push({
        statusCode: 'INVALID_FIELD_FOR_INSERT_UPDATE',
        message:
          `Unable to create/update fields: ${readOnly.join(', ')}. Please check the security settings of this field and ` +
          `verify that it is read/write for your profile or permission set.`,
        fields: readOnly,
      });
    }
    const missing = (this.fields[sobject] ?? [])
      .filter((f) => f.required && (creating ? blank(values[f.name]) : f.name in values && blank(values[f.name])))
      .map((f) => f.name);
    if (missing.length)
      errors.push({
        statusCode: 'REQUIRED_FIELD_MISSING',
        message: `Required fields are missing: [${missing.join(', ')}]`,
        fields: missing,
      });
    for (const [k, v] of Object.entries(values)) {
      const f = this.field(sobject, k);
      if (!f || v === null || v === undefined || v === '') continue;
      if (f.type === 'email' && !EMAIL.test(String(v)))
        errors.push({ statusCode: 'INVALID_EMAIL_ADDRESS', message: `${f.label}: invalid email address: ${String(v)}`, fields: [f.name] });
      if (f.picklistValues && !f.picklistValues.includes(String(v)))
        errors.push({
          statusCode: 'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST',
          message: `${f.label}: bad value for restricted picklist field: ${String(v)}`,
          fields: [f.name],
        });
      if (['int', 'double', 'currency', 'percent'].includes(f.type) && Number.isNaN(Number(v)))
        errors.push({
          statusCode: 'INVALID_TYPE_ON_FIELD_IN_RECORD',
          message: `${f.label}: value not of required type: ${String(v)}`,
          fields: [f.name],
        });
      if (f.type === 'reference' && f.referenceTo && !f.referenceTo.some((t) => this.records[t] && this.byId(t, String(v)))) {
        errors.push({
          statusCode: 'INVALID_CROSS_REFERENCE_KEY',
          message: `${f.label}: id value of incorrect type: ${String(v)}`,
          fields: [f.name],
        });
      }
      if (f.unique || f.externalId) {
        const other = this.byExternalId(sobject, f.name, String(v)).find((r) => r !== existing);
        if (other && f.unique)
          errors.push({
            statusCode: 'DUPLICATE_VALUE',
            message: `duplicate value found: ${f.name} duplicates value on record with id: ${other.Id}`,
            fields: [],
          });
      }
    }
    for (const rule of this.rules) {
      if (rule.sobject === sobject && rule.when(values, existing))
        errors.push({ statusCode: rule.statusCode, message: rule.message, fields: rule.fields ?? [] });
    }
    return errors;
  }

  /** Creates (existing null) or updates a record; returns an undo for allOrNone. */
  private apply(
    sobject: string,
    values: Record<string, unknown>,
    existing: FakeSfRecord | null,
  ): { outcome: WriteOutcome; undo: () => void } {
    const clean: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(values)) {
      if (k === 'Id' || k === 'attributes') continue;
      clean[this.field(sobject, k)?.name ?? k] = v === '' ? null : v;
    }
    const errors = this.validate(sobject, clean, existing);
    if (errors.length) return { outcome: { errors }, undo: () => undefined };
    const ix = this.indexed(sobject);
    const now = stamp();
    for (const [k, v] of Object.entries(clean)) {
      const f = this.field(sobject, k);
      if (f && ['int', 'double', 'currency', 'percent'].includes(f.type) && v !== null) clean[k] = Number(v);
      if (f?.type === 'boolean' && typeof v === 'string') clean[k] = v.toLowerCase() === 'true';
    }
    if (existing) {
      const before = { ...existing };
      for (const k of Object.keys(clean)) if (ix.byField.has(k)) this.removeFromFieldIndex(ix, existing, k);
      Object.assign(existing, clean, { LastModifiedDate: now, SystemModstamp: now });
      for (const k of Object.keys(clean)) {
        const map = ix.byField.get(k);
        const v = existing[k];
        if (map && v !== null && v !== undefined && v !== '') {
          const key = String(v).toLowerCase();
          map.set(key, [...(map.get(key) ?? []), existing]);
        }
      }
      return {
        outcome: { id: existing.Id, created: false },
        undo: () => {
          for (const k of Object.keys(existing)) delete existing[k];
          Object.assign(existing, before);
          this.indexes.delete(sobject);
        },
      };
    }
    const defaults: Record<string, unknown> = {};
    for (const f of this.fields[sobject] ?? []) if (f.defaultValue !== undefined) defaults[f.name] = f.defaultValue;
    const rec = {
      ...defaults,
      OwnerId: this.ownerId,
      ...clean,
      Id: this.newId(sobject),
      LastModifiedDate: now,
      SystemModstamp: now,
    } as FakeSfRecord;
    const all = this.records[sobject];
    all.push(rec);
    this.addToIndex(ix, rec);
    ix.len = all.length;
    ix.first = all[0];
    ix.last = rec;
    return {
      outcome: { id: rec.Id, created: true },
      undo: () => {
        const at = all.indexOf(rec);
        if (at >= 0) all.splice(at, 1);
        this.indexes.delete(sobject);
      },
    };
  }

  private upsertOne(sobject: string, extField: string, values: Record<string, unknown>): { outcome: WriteOutcome; undo: () => void } {
    const key = values[extField];
    if (blank(key))
      return {
        outcome: { errors: [{ statusCode: 'MISSING_ARGUMENT', message: `${extField} not specified`, fields: [] }] },
        undo: () => undefined,
      };
    const matches = this.byExternalId(sobject, extField, String(key));
    if (matches.length > 1) {
      return {
        outcome: {
          errors: [
            {
              statusCode: 'DUPLICATE_EXTERNAL_ID',
              message: `${extField}: more than one record found for external id field: [${matches.map((m) => m.Id).join(', ')}]`,
              fields: [extField],
            },
          ],
        },
        undo: () => undefined,
      };
    }
    return this.apply(sobject, values, matches[0] ?? null);
  }

  private updateOne(sobject: string, id: unknown, values: Record<string, unknown>): { outcome: WriteOutcome; undo: () => void } {
    const existing = typeof id === 'string' ? this.byId(sobject, id) : undefined;
    if (!existing) {
      const bad = typeof id !== 'string' || !/^[a-zA-Z0-9]{15}(?:[a-zA-Z0-9]{3})?$/.test(id);
      return {
        outcome: {
          errors: [
            bad
              ? { statusCode: 'MALFORMED_ID', message: `Record ID: id value of incorrect type: ${String(id)}`, fields: ['Id'] }
              : { statusCode: 'ENTITY_IS_DELETED', message: 'entity is deleted', fields: [] },
          ],
        },
        undo: () => undefined,
      };
    }
    return this.apply(sobject, values, existing);
  }

  // ---- HTTP ------------------------------------------------------------------------------------

  handle(method: string, rest: string, body: string, version: string, contentType: string): Reply | null {
    const path = rest.replace(/\/$/, '').split('?')[0];
    if (path === 'composite/sobjects' && (method === 'POST' || method === 'PATCH'))
      return this.collection(method === 'POST' ? 'create' : 'update', null, null, body);
    const upsert = /^composite\/sobjects\/([A-Za-z_]+)\/([A-Za-z_]+)$/.exec(path);
    if (upsert && method === 'PATCH') return this.collection('upsert', upsert[1], upsert[2], body);
    if (path === 'jobs/ingest' && method === 'POST') return this.createJob(body, version);
    const job = /^jobs\/ingest\/([A-Za-z0-9]+)(?:\/(batches|successfulResults|failedResults|unprocessedrecords))?$/.exec(path);
    if (job) return this.jobRequest(method, job[1], job[2] ?? null, body, contentType);
    return null;
  }

  private collection(kind: 'create' | 'update' | 'upsert', type: string | null, extField: string | null, body: string): Reply {
    let req: { allOrNone?: boolean; records?: Array<Record<string, unknown> & { attributes?: { type?: string } }> };
    try {
      req = JSON.parse(body) as typeof req;
    } catch {
      return { status: 400, body: [{ errorCode: 'JSON_PARSER_ERROR', message: 'Unexpected character in request body' }] };
    }
    const records = req.records;
    if (!Array.isArray(records)) return { status: 400, body: [{ errorCode: 'INVALID_FIELD', message: 'records is required' }] };
    if (records.length > 200)
      return {
        status: 400,
        body: [{ errorCode: 'EXCEEDED_ID_LIMIT', message: 'record limit reached. cannot submit more than 200 records into this call' }],
      };
    if (type && !this.fields[type])
      return { status: 400, body: [{ errorCode: 'INVALID_TYPE', message: `sObject type '${type}' is not supported.` }] };
    if (type && extField && !this.field(type, extField)?.externalId) {
      return {
        status: 404,
        body: [{ errorCode: 'NOT_FOUND', message: `Provided external ID field does not exist or is not accessible: ${extField}` }],
      };
    }
    for (const r of records) {
      const t = r.attributes?.type;
      if (!t) return { status: 400, body: [{ errorCode: 'INVALID_TYPE', message: 'Must send a concrete entity type.' }] };
      if (!this.fields[t] || (type && t !== type))
        return { status: 400, body: [{ errorCode: 'INVALID_TYPE', message: `sObject type '${t}' is not supported.` }] };
      for (const k of Object.keys(r)) {
        if (k === 'attributes' || (k === 'id' && kind === 'update')) continue;
        if (!this.field(t, k))
          return { status: 400, body: [{ errorCode: 'INVALID_FIELD', message: `No such column '${k}' on sobject of type ${t}` }] };
      }
    }
    const seen = new Map<string, number>();
    if (kind === 'upsert' && extField)
      for (const r of records)
        if (!blank(r[extField])) seen.set(String(r[extField]).toLowerCase(), (seen.get(String(r[extField]).toLowerCase()) ?? 0) + 1);
    const undo: Array<() => void> = [];
    const outcomes: WriteOutcome[] = records.map((r) => {
      const t = r.attributes?.type as string;
      const { attributes: _a, id, ...values } = r;
      let done: { outcome: WriteOutcome; undo: () => void };
      if (kind === 'create') done = this.apply(t, values, null);
      else if (kind === 'update') done = this.updateOne(t, id ?? values.Id, values);
      else {
        const key = String(values[extField as string] ?? '').toLowerCase();
        done =
          (seen.get(key) ?? 0) > 1
            ? {
                outcome: {
                  errors: [
                    {
                      statusCode: 'DUPLICATE_EXTERNAL_ID',
                      message: `Duplicate external id specified: ${String(values[extField as string])}`,
                      fields: [extField as string],
                    },
                  ],
                },
                undo: () => undefined,
              }
            : this.upsertOne(t, extField as string, values);
      }
      undo.push(done.undo);
      return done.outcome;
    });
    const failed = outcomes.some((o) => 'errors' in o);
    if (req.allOrNone && failed) {
      for (const u of undo.reverse()) u();
      return {
        status: 200,
        body: outcomes.map((o) => ({
          success: false,
          errors: 'errors' in o ? o.errors : [ROLLED_BACK],
          ...(kind === 'upsert' ? { created: false } : {}),
        })),
      };
    }
    return {
      status: 200,
      body: outcomes.map((o) =>
        'errors' in o
          ? { success: false, errors: o.errors, ...(kind === 'upsert' ? { created: false } : {}) }
          : { id: o.id, success: true, errors: [], ...(kind === 'upsert' ? { created: o.created } : {}) },
      ),
    };
  }

  private jobInfo(j: IngestJob) {
    return {
      id: j.id,
      operation: j.operation,
      object: j.object,
      createdById: this.ownerId,
      createdDate: j.createdDate,
      systemModstamp: j.systemModstamp,
      state: j.state,
      ...(j.externalIdFieldName ? { externalIdFieldName: j.externalIdFieldName } : {}),
      concurrencyMode: 'Parallel',
      contentType: 'CSV',
      apiVersion: Number(j.version),
      jobType: 'V2Ingest',
      contentUrl: `services/data/v${j.version}/jobs/ingest/${j.id}/batches`,
      lineEnding: j.lineEnding,
      columnDelimiter: j.columnDelimiter,
      numberRecordsProcessed: j.successful.length + j.failed.length,
      numberRecordsFailed: j.failed.length,
      retries: 0,
      totalProcessingTime: 0,
      apiActiveProcessingTime: 0,
      apexProcessingTime: 0,
      ...(j.errorMessage ? { errorMessage: j.errorMessage } : {}),
    };
  }

  private createJob(body: string, version: string): Reply {
    let req: {
      object?: string;
      operation?: string;
      externalIdFieldName?: string;
      contentType?: string;
      lineEnding?: string;
      columnDelimiter?: string;
    };
    try {
      req = JSON.parse(body) as typeof req;
    } catch {
      return { status: 400, body: [{ errorCode: 'JSON_PARSER_ERROR', message: 'Unexpected character in request body' }] };
    }
    const invalid = (message: string): Reply => ({ status: 400, body: [{ errorCode: 'INVALIDJOB', message }] });
    if (!req.object || !this.fields[req.object]) return invalid(`InvalidJob : Unable to find object: ${req.object ?? ''}`);
    if (!['insert', 'update', 'upsert', 'delete'].includes(req.operation ?? ''))
      return invalid(`InvalidJob : Invalid operation: ${req.operation ?? ''}`);
    if (req.contentType && req.contentType !== 'CSV') return invalid(`InvalidJob : Invalid content type: ${req.contentType}`);
    if (req.operation === 'upsert') {
      if (!req.externalIdFieldName) return invalid('InvalidJob : External ID was blank for upsert');
      if (!this.field(req.object, req.externalIdFieldName)?.externalId && req.externalIdFieldName !== 'Id')
        return invalid(
          `InvalidJob : Field name provided, ${req.externalIdFieldName} is not an External ID or indexed field for ${req.object}`,
        );
    }
    const columnDelimiter = req.columnDelimiter ?? 'COMMA';
    if (!DELIMITERS[columnDelimiter]) return invalid(`InvalidJob : Invalid column delimiter: ${columnDelimiter}`);
    this.seq += 1;
    const now = stamp();
    const job: IngestJob = {
      id: `750W${this.seq.toString(36).toUpperCase().padStart(11, '0')}AAA`,
      object: req.object,
      operation: req.operation as IngestJob['operation'],
      externalIdFieldName: req.externalIdFieldName ?? null,
      lineEnding: req.lineEnding ?? 'LF',
      columnDelimiter,
      state: 'Open',
      createdDate: now,
      systemModstamp: now,
      csv: null,
      polls: 0,
      errorMessage: null,
      header: [],
      successful: [],
      failed: [],
      unprocessed: [],
      version,
    };
    this.jobs.set(job.id, job);
    return { status: 200, body: this.jobInfo(job) };
  }

  private jobRequest(method: string, id: string, sub: string | null, body: string, contentType: string): Reply {
    const j = this.jobs.get(id);
    if (!j) return { status: 404, body: [{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }] };
    if (sub === 'batches') {
      if (method !== 'PUT')
        return {
          status: 405,
          body: [{ errorCode: 'METHOD_NOT_ALLOWED', message: `HTTP Method '${method}' not allowed. Allowed are PUT` }],
        };
      if (!/^text\/csv/i.test(contentType))
        return { status: 400, body: [{ errorCode: 'INVALIDJOB', message: `InvalidJob : Unsupported content type: ${contentType}` }] };
      if (j.state !== 'Open')
        return { status: 409, body: [{ errorCode: 'INVALIDJOBSTATE', message: `Job is not in Open state: ${j.state}` }] };
      if (j.csv !== null) {
        return {
          status: 400,
          body: [
            {
              errorCode: 'INVALIDJOBSTATE',
              message:
                `Found multiple contents for job: <${j.id}>, please 'Close' / 'Abort' / 'Delete' the current Job then create a ` +
                `new Job and make sure you only do 'PUT' once on a given Job.`,
            },
          ],
        };
      }
      j.csv = body;
      return { status: 201 };
    }
    if (sub) {
      if (method !== 'GET')
        return {
          status: 405,
          body: [{ errorCode: 'METHOD_NOT_ALLOWED', message: `HTTP Method '${method}' not allowed. Allowed are GET` }],
        };
      const cols = j.header;
      if (sub === 'successfulResults')
        return {
          status: 200,
          csv: stringify([['sf__Id', 'sf__Created', ...cols], ...j.successful.map((r) => [r.id, String(r.created), ...r.row])]),
        };
      if (sub === 'failedResults')
        return { status: 200, csv: stringify([['sf__Id', 'sf__Error', ...cols], ...j.failed.map((r) => [r.id, r.error, ...r.row])]) };
      return { status: 200, csv: stringify([cols, ...j.unprocessed]) };
    }
    if (method === 'GET') {
      if (j.state === 'UploadComplete') j.state = 'InProgress';
      else if (j.state === 'InProgress') {
        j.polls += 1;
        if (j.polls >= this.pollsInProgress) this.process(j);
      }
      return { status: 200, body: this.jobInfo(j) };
    }
    if (method === 'PATCH') {
      let req: { state?: string };
      try {
        req = JSON.parse(body) as typeof req;
      } catch {
        return { status: 400, body: [{ errorCode: 'JSON_PARSER_ERROR', message: 'Unexpected character in request body' }] };
      }
      if (req.state === 'UploadComplete') {
        if (j.state !== 'Open')
          return {
            status: 409,
            body: [{ errorCode: 'INVALIDJOBSTATE', message: `Invalid state transition from ${j.state} to UploadComplete` }],
          };
        j.state = 'UploadComplete';
        if (j.csv === null) {
          j.state = 'Failed';
          j.errorMessage = 'No batches were found for the job';
        }
      } else if (req.state === 'Aborted') {
        if (['JobComplete', 'Failed', 'Aborted'].includes(j.state))
          return { status: 409, body: [{ errorCode: 'INVALIDJOBSTATE', message: `Invalid state transition from ${j.state} to Aborted` }] };
        j.state = 'Aborted';
        j.unprocessed = this.rows(j).rows;
      } else {
        return { status: 400, body: [{ errorCode: 'INVALIDJOBSTATE', message: `Invalid state: ${req.state ?? ''}` }] };
      }
      j.systemModstamp = stamp();
      return { status: 200, body: this.jobInfo(j) };
    }
    if (method === 'DELETE') {
      if (['UploadComplete', 'InProgress'].includes(j.state))
        return { status: 409, body: [{ errorCode: 'INVALIDJOBSTATE', message: `Job cannot be deleted in state ${j.state}` }] };
      this.jobs.delete(id);
      return { status: 204 };
    }
    return { status: 405, body: [{ errorCode: 'METHOD_NOT_ALLOWED', message: `HTTP Method '${method}' not allowed.` }] };
  }

  private rows(j: IngestJob): { header: string[]; rows: string[][] } {
    if (!j.csv) return { header: [], rows: [] };
    const all = parse(j.csv, {
      delimiter: DELIMITERS[j.columnDelimiter],
      relax_column_count: false,
      skip_empty_lines: true,
      bom: true,
    }) as string[][];
    return { header: all[0] ?? [], rows: all.slice(1) };
  }

  /** Runs the uploaded rows through the same per-record rules as the collections (never all-or-none). */
  private process(j: IngestJob): void {
    let parsed: { header: string[]; rows: string[][] };
    try {
      parsed = this.rows(j);
    } catch (err) {
      j.state = 'Failed';
      j.errorMessage = `InvalidBatch : Failed to parse CSV: ${(err as Error).message}`;
      return;
    }
    j.header = parsed.header;
    const unknown = parsed.header.find((h) => !this.field(j.object, h));
    if (unknown) {
      j.state = 'Failed';
      j.errorMessage = `InvalidBatch : Field name not found : ${unknown}`;
      j.unprocessed = parsed.rows;
      return;
    }
    for (const [n, row] of parsed.rows.entries()) {
      if (this.bulkFailAfterRows !== null && n >= this.bulkFailAfterRows) {
        j.state = 'Failed';
        j.errorMessage = 'InternalServerError : the job stopped before every record was processed';
        j.unprocessed = parsed.rows.slice(n);
        return;
      }
      const values: Record<string, unknown> = {};
      parsed.header.forEach((h, i) => {
        const cell = row[i];
        if (cell === '' || cell === undefined) return; // empty cells leave the field as it is
        values[this.field(j.object, h)?.name ?? h] = cell === '#N/A' ? null : cell;
      });
      let outcome: WriteOutcome;
      if (j.operation === 'insert') outcome = this.apply(j.object, values, null).outcome;
      else if (j.operation === 'update') outcome = this.updateOne(j.object, values.Id, values).outcome;
      else if (j.operation === 'upsert') {
        outcome =
          j.externalIdFieldName === 'Id'
            ? this.updateOne(j.object, values.Id, values).outcome
            : this.upsertOne(j.object, j.externalIdFieldName as string, values).outcome;
      } else {
        const existing = typeof values.Id === 'string' ? this.byId(j.object, values.Id) : undefined;
        if (existing) {
          const all = this.records[j.object];
          all.splice(all.indexOf(existing), 1);
          this.indexes.delete(j.object);
          outcome = { id: existing.Id, created: false };
        } else {
          outcome = { errors: [{ statusCode: 'ENTITY_IS_DELETED', message: 'entity is deleted', fields: [] }] };
        }
      }
      if ('errors' in outcome) {
        j.failed.push({
          id: typeof values.Id === 'string' ? values.Id : '',
          error: outcome.errors.map((e) => `${e.statusCode}:${e.message}:${e.fields.join(',')} --`).join(' '),
          row,
        });
      } else {
        j.successful.push({ id: outcome.id, created: outcome.created, row });
      }
    }
    j.state = 'JobComplete';
    j.systemModstamp = stamp();
  }
}

function blank(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}
