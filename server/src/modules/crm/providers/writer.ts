// CrmWriter: the write side the CRM sync's outbound phase calls, one implementation per CRM.
//
// Every call takes records keyed by Dealscout's own id (`localId`) and answers one result per input,
// in input order: { localId, crmId, created } or { localId, error: { code, message, fields,
// retryable } }. A failure never throws for a single record; a failure of the whole request (rate
// limit, lost authorization, network) marks the records it covers — and every record not yet sent —
// with that error (retryable when waiting helps), so the caller stores what succeeded and retries
// the rest later. Nothing here reads or writes our database.
//
// Idempotency (a re-run after a crash never duplicates):
// - Salesforce: a Dealscout_Id__c External ID (Text, Unique, case-insensitive) on Account, Contact
//   and Activity (Task). Records without a CRM id yet are upserted by it; records already linked
//   (crmId, e.g. first read from Salesforce) are updated by Id and get the field stamped. Tasks are
//   created with it: a DUPLICATE_VALUE on it means "already logged" and answers the existing id, so
//   an email is never logged twice (and TaskSubtype, which cannot be updated, is only ever sent on
//   create).
// - Affinity has no external ids and no upsert: linked records are updated by id; others are looked
//   up first (organizations by domain, persons by email) and created only when absent. A record
//   with neither a crmId nor a domain / email cannot be matched and is created each time it is sent
//   without a stored crmId — the caller stores crmId after the first success. Notes carry a
//   "Dealscout activity <localId>" line and are looked up on the person / organization before
//   being created.
import {
  SALESFORCE_COLLECTION_LIMIT,
  SalesforceError,
  parseIngestError,
  type IngestOperation,
  type SalesforceClient,
  type SalesforceRecordError,
  type SalesforceWriteValue,
} from './salesforce';
import { AffinityError, type AffinityClient, type AffinityFieldValue } from './affinity';

export type CrmProvider = 'salesforce' | 'affinity';
export type CrmFieldValue = string | number | boolean | null;

/** A company to write. `fields` are the CRM's field names (after the mapping): Salesforce API names;
 *  Affinity `name`, `domain` or a global field's id ("1234" or "field:1234") for a field value. null clears. */
export interface CrmAccountWrite {
  localId: string;
  crmId?: string | null;
  fields: Record<string, CrmFieldValue>;
}
/** A contact to write; `accountCrmId` links it (Salesforce AccountId, Affinity organization_ids).
 *  Affinity fields: `first_name`, `last_name`, `email` (or `primary_email`), or a field id (`1234` or `field:1234`). */
export interface CrmContactWrite extends CrmAccountWrite {
  accountCrmId?: string | null;
}
/** A sent email or a logged activity (Dealscout activity types: email, f2f, text, call, chat, video, other, crm). */
export interface CrmActivityWrite {
  localId: string;
  type: string;
  subject: string;
  body: string;
  /** YYYY-MM-DD */
  date: string;
  contactCrmId?: string | null;
  accountCrmId?: string | null;
}

export interface CrmWriteError {
  code: string;
  message: string;
  fields: string[];
  retryable: boolean;
}
export type CrmWriteResult =
  | { localId: string; crmId: string; created: boolean; error: null }
  | { localId: string; crmId: null; created: false; error: CrmWriteError };

export interface CrmWriter {
  readonly provider: CrmProvider;
  upsertAccounts(records: CrmAccountWrite[]): Promise<CrmWriteResult[]>;
  upsertContacts(records: CrmContactWrite[]): Promise<CrmWriteResult[]>;
  logActivities(items: CrmActivityWrite[]): Promise<CrmWriteResult[]>;
}

const ok = (localId: string, crmId: string, created: boolean): CrmWriteResult => ({ localId, crmId, created, error: null });
const failed = (localId: string, error: CrmWriteError): CrmWriteResult => ({ localId, crmId: null, created: false, error });

/** Per-record Salesforce codes worth retrying later (row locks, a busy org). */
const RETRYABLE_RECORD_CODES = new Set([
  'UNABLE_TO_LOCK_ROW',
  'REQUEST_LIMIT_EXCEEDED',
  'SERVER_UNAVAILABLE',
  'UNPROCESSED',
  'CONNECTION_FAILED',
]);

function recordError(e: SalesforceRecordError): CrmWriteError {
  return { code: e.statusCode, message: e.message, fields: e.fields, retryable: RETRYABLE_RECORD_CODES.has(e.statusCode) };
}

function requestError(err: unknown): { error: CrmWriteError; stop: boolean } {
  if (err instanceof SalesforceError) {
    const transient =
      err.rateLimited ||
      err.errorCode === 'CONNECTION_FAILED' ||
      /^ERROR_HTTP_5\d\d$/.test(err.errorCode) ||
      err.errorCode === 'SERVER_UNAVAILABLE' ||
      err.errorCode === 'JOB_POLL_TIMEOUT';
    return {
      error: { code: err.errorCode, message: err.message, fields: [], retryable: transient },
      stop: transient || err.authorizationLost,
    };
  }
  if (err instanceof AffinityError) {
    const transient = err.rateLimited || err.status === null || (err.status ?? 0) >= 500;
    const code = err.rateLimited
      ? 'RATE_LIMITED'
      : err.unauthorized
        ? 'UNAUTHORIZED'
        : err.status === null
          ? 'CONNECTION_FAILED'
          : err.status === 404
            ? 'NOT_FOUND'
            : err.status === 422
              ? 'VALIDATION'
              : `HTTP_${err.status}`;
    return { error: { code, message: err.message, fields: [], retryable: transient }, stop: transient || err.unauthorized };
  }
  return { error: { code: 'UNKNOWN', message: (err as Error)?.message ?? String(err), fields: [], retryable: false }, stop: false };
}

/** Input checks shared by both CRMs: a localId, once per call. */
function precheck<T extends { localId: string }>(items: T[]): { todo: T[]; early: Map<number, CrmWriteResult> } {
  const early = new Map<number, CrmWriteResult>();
  const seen = new Set<string>();
  const todo: T[] = [];
  items.forEach((item, i) => {
    if (!item.localId) early.set(i, failed('', { code: 'MISSING_LOCAL_ID', message: 'localId is required', fields: [], retryable: false }));
    else if (seen.has(item.localId))
      early.set(
        i,
        failed(item.localId, {
          code: 'DUPLICATE_LOCAL_ID',
          message: `localId ${item.localId} appears twice in one call`,
          fields: [],
          retryable: false,
        }),
      );
    else {
      seen.add(item.localId);
      todo.push(item);
    }
  });
  return { todo, early };
}

function inOrder<T extends { localId: string }>(
  items: T[],
  early: Map<number, CrmWriteResult>,
  byLocal: Map<string, CrmWriteResult>,
): CrmWriteResult[] {
  return items.map(
    (item, i) =>
      early.get(i) ??
      byLocal.get(item.localId) ??
      failed(item.localId, { code: 'UNPROCESSED', message: 'Not processed', fields: [], retryable: true }),
  );
}

// ---- Salesforce ----------------------------------------------------------------------------------

export interface SalesforceWriterOptions {
  /** The External ID field holding Dealscout's id on Account, Contact and Task (default Dealscout_Id__c). */
  externalIdField?: string;
  /** Above this many records of one kind a Bulk API 2.0 job is used instead of collections (default 2000). */
  bulkThreshold?: number;
  /** Collections requests in flight at once (default 2). */
  concurrency?: number;
  bulkPollIntervalMs?: number;
  bulkTimeoutMs?: number;
  /** Hears each Bulk API 2.0 job id as soon as it exists (store it to resume after a crash). */
  onBulkJob?: (job: { object: string; jobId: string }) => void | Promise<void>;
}

type SfItem = { localId: string; values: Record<string, SalesforceWriteValue> };

/** Salesforce TaskSubtype for a Dealscout activity type. */
export function taskSubtype(type: string): 'Email' | 'Call' | 'Task' {
  if (type === 'email') return 'Email';
  if (type === 'call') return 'Call';
  return 'Task';
}

export class SalesforceCrmWriter implements CrmWriter {
  readonly provider = 'salesforce' as const;
  readonly externalIdField: string;
  private readonly threshold: number;

  constructor(
    private readonly client: SalesforceClient,
    private readonly opts: SalesforceWriterOptions = {},
  ) {
    this.externalIdField = opts.externalIdField ?? 'Dealscout_Id__c';
    this.threshold = opts.bulkThreshold ?? 2000;
  }

  async upsertAccounts(records: CrmAccountWrite[]): Promise<CrmWriteResult[]> {
    return this.writeRecords('Account', records, (r) => ({ ...r.fields }));
  }

  async upsertContacts(records: CrmContactWrite[]): Promise<CrmWriteResult[]> {
    return this.writeRecords('Contact', records, (r) => ({
      ...r.fields,
      ...(r.accountCrmId !== undefined ? { AccountId: r.accountCrmId } : {}),
    }));
  }

  /** Completed Tasks (TaskSubtype Email for emails, Call for calls) on the contact (WhoId) and account (WhatId). */
  async logActivities(items: CrmActivityWrite[]): Promise<CrmWriteResult[]> {
    const { todo, early } = precheck(items);
    const byLocal = new Map<string, CrmWriteResult>();
    const sfItems: SfItem[] = todo.map((a) => ({
      localId: a.localId,
      values: {
        Subject: a.subject.slice(0, 255),
        Description: a.body.slice(0, 32_000),
        ActivityDate: a.date,
        Status: 'Completed',
        Priority: 'Normal',
        TaskSubtype: taskSubtype(a.type),
        WhoId: a.contactCrmId ?? undefined,
        WhatId: a.accountCrmId ?? undefined,
        [this.externalIdField]: a.localId,
      },
    }));
    const results =
      sfItems.length > this.threshold ? await this.bulk('Task', 'insert', sfItems) : await this.collections('Task', 'create', sfItems);
    for (const r of results) {
      // Created before (a re-run): the unique Dealscout id points at the existing Task.
      const dup =
        r.error?.code === 'DUPLICATE_VALUE' && r.error.message.includes(this.externalIdField)
          ? /record with id: ([a-zA-Z0-9]{15,18})/.exec(r.error.message)
          : null;
      byLocal.set(r.localId, dup ? ok(r.localId, dup[1], false) : r);
    }
    return inOrder(items, early, byLocal);
  }

  /**
   * Collects a Bulk API 2.0 job started earlier (its id from `onBulkJob`), e.g. after a crash:
   * waits for it and maps its rows back to localIds through the Dealscout id column.
   */
  async resumeBulkJob(jobId: string): Promise<CrmWriteResult[]> {
    await this.client.waitForIngestJob(jobId, { pollIntervalMs: this.opts.bulkPollIntervalMs, timeoutMs: this.opts.bulkTimeoutMs });
    const res = await this.client.ingestJobResults(jobId);
    const ext = this.externalIdField;
    return [
      ...res.successful.map((r) => ok(r[ext], r.sf__Id, r.sf__Created === 'true')),
      ...res.failed.map((r) => failed(r[ext], recordError(parseIngestError(r.sf__Error)))),
      ...res.unprocessed.map((r) =>
        failed(r[ext], { code: 'UNPROCESSED', message: 'The job ended before this record was processed', fields: [], retryable: true }),
      ),
    ].filter((r) => r.localId);
  }

  private async writeRecords<T extends CrmAccountWrite>(
    sobject: string,
    records: T[],
    values: (r: T) => Record<string, SalesforceWriteValue>,
  ): Promise<CrmWriteResult[]> {
    const { todo, early } = precheck(records);
    const byLocal = new Map<string, CrmWriteResult>();
    const ext = this.externalIdField;
    const linked: SfItem[] = [];
    const fresh: SfItem[] = [];
    for (const r of todo) {
      const v = values(r);
      delete v.Id;
      v[ext] = r.localId;
      if (r.crmId) linked.push({ localId: r.localId, values: { Id: r.crmId, ...v } });
      else fresh.push({ localId: r.localId, values: v });
    }
    const runs = [
      linked.length > this.threshold ? this.bulk(sobject, 'update', linked) : this.collections(sobject, 'update', linked),
      fresh.length > this.threshold ? this.bulk(sobject, 'upsert', fresh) : this.collections(sobject, 'upsert', fresh),
    ];
    for (const results of await Promise.all(runs)) for (const r of results) byLocal.set(r.localId, r);
    return inOrder(records, early, byLocal);
  }

  private async collections(sobject: string, kind: 'create' | 'update' | 'upsert', items: SfItem[]): Promise<CrmWriteResult[]> {
    const chunks: SfItem[][] = [];
    for (let i = 0; i < items.length; i += SALESFORCE_COLLECTION_LIMIT) chunks.push(items.slice(i, i + SALESFORCE_COLLECTION_LIMIT));
    const out: CrmWriteResult[] = [];
    let stopped: CrmWriteError | null = null;
    let next = 0;
    const worker = async () => {
      while (next < chunks.length) {
        const chunk = chunks[next++];
        if (stopped) {
          for (const it of chunk) out.push(failed(it.localId, stopped));
          continue;
        }
        try {
          const res = await this.client.collection(
            kind,
            sobject,
            chunk.map((c) => c.values),
            { externalIdField: this.externalIdField },
          );
          chunk.forEach((it, i) => {
            const r = res[i];
            if (r?.success && r.id)
              out.push(ok(it.localId, r.id, kind === 'create' ? true : kind === 'update' ? false : Boolean(r.created)));
            else
              out.push(
                failed(
                  it.localId,
                  r?.errors[0]
                    ? recordError(r.errors[0])
                    : { code: 'UNKNOWN', message: 'No result for this record', fields: [], retryable: true },
                ),
              );
          });
        } catch (err) {
          const { error, stop } = requestError(err);
          if (stop) stopped = error;
          for (const it of chunk) out.push(failed(it.localId, error));
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(this.opts.concurrency ?? 2, chunks.length)) }, worker));
    return out;
  }

  private async bulk(sobject: string, operation: IngestOperation, items: SfItem[]): Promise<CrmWriteResult[]> {
    const ext = this.externalIdField;
    try {
      const { results } = await this.client.runIngestJob(
        { object: sobject, operation, ...(operation === 'upsert' ? { externalIdFieldName: ext } : {}) },
        items.map((i) => i.values),
        {
          pollIntervalMs: this.opts.bulkPollIntervalMs,
          timeoutMs: this.opts.bulkTimeoutMs,
          onJob: (jobId) => this.opts.onBulkJob?.({ object: sobject, jobId }),
        },
      );
      const byExt = new Map<string, string>(items.map((i) => [i.localId.toLowerCase(), i.localId]));
      const local = (row: Record<string, string>) => byExt.get((row[ext] ?? '').toLowerCase());
      const out: CrmWriteResult[] = [];
      for (const r of results.successful) {
        const l = local(r);
        if (l) out.push(ok(l, r.sf__Id, operation === 'insert' || r.sf__Created === 'true'));
      }
      for (const r of results.failed) {
        const l = local(r);
        if (l) out.push(failed(l, recordError(parseIngestError(r.sf__Error))));
      }
      for (const r of results.unprocessed) {
        const l = local(r);
        if (l)
          out.push(
            failed(l, { code: 'UNPROCESSED', message: 'The job ended before this record was processed', fields: [], retryable: true }),
          );
      }
      return out;
    } catch (err) {
      const { error } = requestError(err);
      return items.map((i) => failed(i.localId, error));
    }
  }
}

// ---- Affinity ------------------------------------------------------------------------------------

const ORG_FIELDS = new Set(['name', 'domain']);
const PERSON_FIELDS = new Set(['first_name', 'last_name', 'email']);

/** Field keys as the mapping names them: `field:1234` → `1234`, `primary_email` → `email`. */
function affinityKeys(fields: Record<string, CrmFieldValue>): Record<string, CrmFieldValue> {
  const out: Record<string, CrmFieldValue> = {};
  for (const [k, v] of Object.entries(fields)) out[k === 'primary_email' ? 'email' : k.replace(/^field:(\d+)$/, '$1')] = v;
  return out;
}

/** The marker line a note carries so a re-run finds it instead of creating it again. */
export function affinityNoteMarker(localId: string): string {
  return `Dealscout activity ${localId}`;
}

export class AffinityCrmWriter implements CrmWriter {
  readonly provider = 'affinity' as const;

  constructor(private readonly client: AffinityClient) {}

  async upsertAccounts(records: CrmAccountWrite[]): Promise<CrmWriteResult[]> {
    return this.sequential(
      records.map((r) => ({ ...r, fields: affinityKeys(r.fields) })),
      async (r) => {
        const bad = Object.keys(r.fields).filter((k) => !ORG_FIELDS.has(k) && !/^\d+$/.test(k));
        if (bad.length)
          return failed(r.localId, {
            code: 'INVALID_FIELD',
            message: `Not an Affinity organization field: ${bad.join(', ')}`,
            fields: bad,
            retryable: false,
          });
        const attrs: { name?: string; domain?: string | null } = {};
        if ('name' in r.fields) attrs.name = String(r.fields.name ?? '');
        if ('domain' in r.fields) attrs.domain = r.fields.domain === null ? null : normalizeDomain(String(r.fields.domain));
        let id = r.crmId ? Number(r.crmId) : null;
        let created = false;
        if (id === null && attrs.domain) id = (await this.client.findOrganizationByDomain(attrs.domain))?.id ?? null;
        if (id === null) {
          id = (await this.client.createOrganization({ name: attrs.name ?? '', domain: attrs.domain ?? null })).id;
          created = true;
        } else if (Object.keys(attrs).length) {
          await this.client.updateOrganization(id, attrs);
        }
        await this.fieldValues('organization', id, r.fields);
        return ok(r.localId, String(id), created);
      },
    );
  }

  async upsertContacts(records: CrmContactWrite[]): Promise<CrmWriteResult[]> {
    return this.sequential(
      records.map((r) => ({ ...r, fields: affinityKeys(r.fields) })),
      async (r) => {
        const bad = Object.keys(r.fields).filter((k) => !PERSON_FIELDS.has(k) && !/^\d+$/.test(k));
        if (bad.length)
          return failed(r.localId, {
            code: 'INVALID_FIELD',
            message: `Not an Affinity person field: ${bad.join(', ')}`,
            fields: bad,
            retryable: false,
          });
        const email = typeof r.fields.email === 'string' && r.fields.email.trim() ? r.fields.email.trim().toLowerCase() : null;
        const orgId = r.accountCrmId ? Number(r.accountCrmId) : null;
        let id = r.crmId ? Number(r.crmId) : null;
        let created = false;
        if (id === null && email) id = (await this.client.findPersonByEmail(email))?.id ?? null;
        if (id === null) {
          const p = await this.client.createPerson({
            first_name: String(r.fields.first_name ?? ''),
            last_name: String(r.fields.last_name ?? ''),
            emails: email ? [email] : [],
            organization_ids: orgId ? [orgId] : [],
          });
          id = p.id;
          created = true;
        } else {
          // PUT replaces emails and organization_ids: keep what Affinity has and add ours.
          const current = await this.client.getPerson(id);
          const emails = [...new Set([...(current.emails ?? []), ...(email ? [email] : [])])];
          const orgs = [...new Set([...(current.organization_ids ?? []), ...(orgId ? [orgId] : [])])];
          await this.client.updatePerson(id, {
            ...('first_name' in r.fields ? { first_name: String(r.fields.first_name ?? '') } : {}),
            ...('last_name' in r.fields ? { last_name: String(r.fields.last_name ?? '') } : {}),
            emails,
            organization_ids: orgs,
          });
        }
        await this.fieldValues('person', id, r.fields);
        return ok(r.localId, String(id), created);
      },
    );
  }

  /** Notes on the person and / or organization: subject, body, and the Dealscout marker line. */
  async logActivities(items: CrmActivityWrite[]): Promise<CrmWriteResult[]> {
    return this.sequential(items, async (a) => {
      const personIds = a.contactCrmId ? [Number(a.contactCrmId)] : [];
      const orgIds = a.accountCrmId ? [Number(a.accountCrmId)] : [];
      if (!personIds.length && !orgIds.length)
        return failed(a.localId, {
          code: 'MISSING_TARGET',
          message: 'A note needs a person or an organization',
          fields: [],
          retryable: false,
        });
      const marker = affinityNoteMarker(a.localId);
      const existing = await this.client.findNote(personIds.length ? { person_id: personIds[0] } : { organization_id: orgIds[0] }, marker);
      if (existing) return ok(a.localId, String(existing.id), false);
      const content = [a.subject, a.body, marker].filter((s) => s.trim()).join('\n\n');
      const note = await this.client.createNote({
        person_ids: personIds,
        organization_ids: orgIds,
        content,
        created_at: `${a.date}T12:00:00Z`,
      });
      return ok(a.localId, String(note.id), true);
    });
  }

  /** Global field values: create when absent, update when changed, delete for null. */
  private async fieldValues(kind: 'organization' | 'person', entityId: number, fields: Record<string, CrmFieldValue>): Promise<void> {
    const wanted = Object.entries(fields).filter(([k]) => /^\d+$/.test(k));
    if (!wanted.length) return;
    const current = (
      await this.client.fieldValues(kind === 'organization' ? { organization_id: entityId } : { person_id: entityId })
    ).filter((v) => v.list_entry_id === null);
    for (const [key, value] of wanted) {
      const fieldId = Number(key);
      const have = current.find((v) => v.field_id === fieldId);
      if (value === null || value === '') {
        if (have) await this.client.deleteFieldValue(have.id);
      } else if (!have) {
        await this.client.createFieldValue({ field_id: fieldId, entity_id: entityId, value });
      } else if (!sameValue(have.value, value)) {
        await this.client.updateFieldValue(have.id, value);
      }
    }
  }

  private async sequential<T extends { localId: string }>(
    items: T[],
    one: (item: T) => Promise<CrmWriteResult>,
  ): Promise<CrmWriteResult[]> {
    const { todo, early } = precheck(items);
    const byLocal = new Map<string, CrmWriteResult>();
    let stopped: CrmWriteError | null = null;
    for (const item of todo) {
      if (stopped) {
        byLocal.set(item.localId, failed(item.localId, stopped));
        continue;
      }
      try {
        byLocal.set(item.localId, await one(item));
      } catch (err) {
        const { error, stop } = requestError(err);
        if (stop) stopped = error;
        byLocal.set(item.localId, failed(item.localId, error));
      }
    }
    return inOrder(items, early, byLocal);
  }
}

function normalizeDomain(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/.*$/, '');
}

function sameValue(have: AffinityFieldValue['value'], want: CrmFieldValue): boolean {
  // A (ranked) dropdown answers its option { id, text }; we send the option id or the text.
  if (have !== null && typeof have === 'object' && 'text' in have) return have.id === want || have.text === want;
  return String(have) === String(want);
}

/** The writer for an organization's active CRM client. */
export function crmWriterFor(
  client:
    { kind: 'salesforce'; client: SalesforceClient; options?: SalesforceWriterOptions } | { kind: 'affinity'; client: AffinityClient },
): CrmWriter {
  return client.kind === 'salesforce' ? new SalesforceCrmWriter(client.client, client.options) : new AffinityCrmWriter(client.client);
}
