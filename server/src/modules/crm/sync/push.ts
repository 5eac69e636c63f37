// The outbound phase of a CRM sync: what changed in Dealscout written back to the CRM. The sync
// execution calls pushChanges() after the inbound phase (so the CRM's own later changes have been
// taken by the reconciliation rules first).
//
// What goes out:
// - companies / contacts not linked to the CRM yet (created here): created in the CRM with their
//   identity fields (name + website; first / last name + email and their primary company's account)
//   and every mapped field that has a value;
// - linked records: each mapped field whose Dealscout value differs from the value both sides last
//   agreed on (crm_link.crm_values: what the CRM sent on the last read, or what we wrote last). A
//   value the CRM changed later was already taken by the inbound phase (use_latest) and agrees
//   again; a value Dealscout keeps (keep_existing, or our later change under use_latest) differs and
//   is written back. Identity fields (website, email) are never emptied in the CRM.
// - activities logged here (and sent emails; not scheduled or failed ones, not those that came
//   from the CRM) on a linked contact or company: Salesforce Tasks / Affinity notes, each once
//   (crm_activity_push).
// Only records changed since the last complete push of this scope are compared (crm_sync_state
// object `push:company|contact`; a record's updated_at, a mapped value's updated_at, or the CRM's
// side having changed — crm_link.crm_values_at — so a value Dealscout keeps goes back), plus every
// unlinked record. An admin's sync pushes every record, a User's the records they own.
//
// Exactly once: the CRM write happens first, then one transaction links the record (crm_link,
// crm_values) and logs the change (crm_sync_change, side 'crm'). A crash between the two re-sends
// on the next attempt, and the writer does not duplicate: Salesforce upserts by the Dealscout_Id__c
// External ID (Tasks: a duplicate value answers the existing Task), Affinity looks organizations up
// by domain, persons by email and notes by their marker line first. A Bulk API 2.0 job (above the
// writer's bulk threshold) is recorded in crm_push_job as soon as Salesforce made it; a resumed sync
// collects it (resumeBulkJob) instead of loading a second job.
import { crmSyncRecords } from '../../../lib/metrics';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CRM_SYNC_MESSAGES, type CrmProvider } from '@dealscout/shared/contracts';
import { tenantSql, type Sql } from '../../../db/sql';
import { SalesforceError, type SalesforceClient } from '../providers/salesforce';
import { AffinityError, type AffinityClient } from '../providers/affinity';
import {
  crmWriterFor,
  SalesforceCrmWriter,
  type CrmFieldValue,
  type CrmWriteError,
  type CrmWriter,
  type CrmWriteResult,
  type SalesforceWriterOptions,
} from '../providers/writer';
import { ExecutionError } from '../../executions/runner';
import { mappedText, type ResolvedMapping } from './inbound';
import { isEmptyValue, sameValue } from './reconcile';

export interface PushContext {
  em: EntityManager;
  organizationId: string;
  provider: CrmProvider;
  executionId: string;
  crm: { kind: 'salesforce'; client: SalesforceClient } | { kind: 'affinity'; client: AffinityClient };
  accountMappings: readonly ResolvedMapping[];
  contactMappings: readonly ResolvedMapping[];
  syncAccounts: boolean;
  syncContacts: boolean;
  /** The inbound scope ('*' for an admin, else the CRM user id): the push mark is kept per scope. */
  scope: string;
  /** A User's sync pushes the records they own (and the activities they logged); null for an admin. */
  ownerId: string | null;
  signal: AbortSignal;
  /** Throws when the sync must stop (cancelled, the worker stopping). */
  checkStop?: () => void;
  /** Salesforce writer options (tests: a small bulk threshold, fast polls). */
  writerOptions?: Omit<SalesforceWriterOptions, 'onBulkJob'>;
  /** Records compared per page (default 5,000 for Salesforce, so a big page goes through Bulk API 2.0; 200 for Affinity). */
  pageSize?: number;
}

export interface PushOutcome {
  written: number;
  failed: number;
  failures: string[];
}

type EntityType = 'company' | 'contact';

/** What one record's write means for us once it succeeded (also kept with a bulk job). */
interface Planned {
  localId: string;
  crmId: string | null;
  /** The mapped values both sides agree on after the write. */
  agreed: Record<string, string | null>;
  /** Changed fields for the history: label, old (agreed before), new. */
  sent: { label: string; old: string | null; new: string | null }[];
}

/** The CRM's identity fields, sent when a record is created there. */
const IDENTITY: Record<CrmProvider, Record<EntityType, Record<string, string>>> = {
  salesforce: {
    company: { name: 'Name', website: 'Website' },
    contact: { first_name: 'FirstName', last_name: 'LastName', email: 'Email' },
  },
  affinity: { company: { name: 'name', website: 'domain' }, contact: { first_name: 'first_name', last_name: 'last_name', email: 'email' } },
};

/** Request-level failures: the attempt fails (rate limit, lost authorization, unreachable) and pg-boss's retry resumes. */
const STOP_CODES = new Set([
  'REQUEST_LIMIT_EXCEEDED',
  'RATE_LIMITED',
  'invalid_grant',
  'INVALID_SESSION_ID',
  'UNAUTHORIZED',
  'CONNECTION_FAILED',
  'SERVER_UNAVAILABLE',
]);

function stopError(provider: CrmProvider, e: CrmWriteError): Error {
  if (provider === 'salesforce') return new SalesforceError(e.message, e.code);
  const status = e.code === 'RATE_LIMITED' ? 429 : e.code === 'UNAUTHORIZED' ? 401 : e.code === 'CONNECTION_FAILED' ? null : 503;
  return new AffinityError(e.message, status);
}

const isStop = (e: CrmWriteError) => STOP_CODES.has(e.code) || /^ERROR_HTTP_5\d\d$|^HTTP_5\d\d$/.test(e.code);

/** A Dealscout value as the CRM takes it. */
function crmValue(v: unknown): CrmFieldValue {
  if (v === undefined || isEmptyValue(v)) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(String).join(';');
  return JSON.stringify(v);
}

/** One push as its steps go: the outcome so far, the writer, and the bulk jobs Salesforce made. */
interface PushRun {
  ctx: PushContext;
  out: PushOutcome;
  writer: CrmWriter;
  /** Bulk jobs the writer made, as it announced them (onBulkJob). */
  jobsHeard: { entityType: EntityType; jobId: string }[];
  /** The page being written: what a bulk job's crm_push_job row keeps. */
  current: { entityType: EntityType; planned: Map<string, Planned> } | null;
  /** Salesforce objects whose External ID field was checked. */
  checked: Set<string>;
}

type LinkRow = { entityId: string; crmId: string; agreed: Record<string, string | null>; wasLinked: boolean };
type ChangeRow = {
  entityId: string;
  action: string;
  fieldLabel: string | null;
  oldValue: string | null;
  newValue: string | null;
  crmId: string;
};
type RecordRow = Record<string, unknown> & {
  id: string;
  crm_id: string | null;
  crm_values: Record<string, string | null> | null;
  account_crm_id?: string | null;
};
type WriteItem = { localId: string; crmId: string | null; fields: Record<string, CrmFieldValue>; accountCrmId?: string | null };

export async function pushChanges(ctx: PushContext): Promise<PushOutcome> {
  const run: PushRun = {
    ctx,
    out: { written: 0, failed: 0, failures: [] },
    writer: null as unknown as CrmWriter,
    jobsHeard: [],
    current: null,
    checked: new Set(),
  };
  run.writer = writerFor(run);
  // Accounts first: a contact created in the CRM is attached to its company's account.
  if (ctx.syncAccounts) await pushType(run, 'company', ctx.accountMappings);
  if (ctx.syncContacts) await pushType(run, 'contact', ctx.contactMappings);
  await pushActivities(run);
  return run.out;
}

/** The CRM's writer; a Salesforce bulk job is recorded in crm_push_job as soon as Salesforce made it. */
function writerFor(run: PushRun): CrmWriter {
  const { ctx } = run;
  const org = ctx.organizationId;
  if (ctx.crm.kind !== 'salesforce') return crmWriterFor({ kind: 'affinity', client: ctx.crm.client });
  return crmWriterFor({
    kind: 'salesforce',
    client: ctx.crm.client,
    options: {
      ...ctx.writerOptions,
      onBulkJob: async ({ jobId }) => {
        const current = run.current;
        if (!current) return;
        run.jobsHeard.push({ entityType: current.entityType, jobId });
        await tenantSql(ctx.em.fork(), org).run(
          `insert into crm_push_job (id, organization_id, provider, entity_type, job_id, items, created_at) values
                  (gen_random_uuid(), ?, ?, ?, ?, ?::jsonb, now())`,
          [org, ctx.provider, current.entityType, jobId, JSON.stringify(Object.fromEntries(current.planned))],
        );
      },
    },
  });
}

async function ensureExternalId(run: PushRun, sobject: string): Promise<void> {
  const { ctx } = run;
  if (ctx.crm.kind !== 'salesforce' || run.checked.has(sobject)) return;
  const ext = (run.writer as SalesforceCrmWriter).externalIdField;
  const field = (await ctx.crm.client.describe(sobject)).find((f) => f.name.toLowerCase() === ext.toLowerCase());
  if (!field || !field.externalId) throw new ExecutionError(CRM_SYNC_MESSAGES.externalIdMissing(ext, sobject));
  run.checked.add(sobject);
}

function fail(run: PushRun, msg: string): void {
  run.out.failed += 1;
  if (run.out.failures.length < 50) run.out.failures.push(msg);
}

/** Links / updates the records written and logs the changes, in one transaction (with the job rows collected). */
async function apply(
  run: PushRun,
  entityType: EntityType,
  results: CrmWriteResult[],
  planned: Map<string, Planned>,
  doneJobs: string[],
): Promise<{ retry: boolean; stop: CrmWriteError | null }> {
  const { retry, stop, links, changes } = sortResults(run, entityType, results, planned);
  await run.ctx.em.fork().transactional(async (tem) => {
    await writeLinks(run, tenantSql(tem, run.ctx.organizationId), entityType, links);
    await logApplied(run, tenantSql(tem, run.ctx.organizationId), entityType, changes, doneJobs);
  });
  return { retry, stop };
}

/** The write results of a page: the failures counted, the links and changes of the records written. */
function sortResults(
  run: PushRun,
  entityType: EntityType,
  results: CrmWriteResult[],
  planned: Map<string, Planned>,
): { retry: boolean; stop: CrmWriteError | null; links: LinkRow[]; changes: ChangeRow[] } {
  let retry = false;
  let stop: CrmWriteError | null = null;
  const links: LinkRow[] = [];
  const changes: ChangeRow[] = [];
  for (const r of results) {
    const p = planned.get(r.localId);
    if (!p) continue;
    if (r.error) {
      if (r.error.retryable) retry = true;
      if (isStop(r.error)) {
        stop ??= r.error;
        continue;
      }
      fail(run, `${entityType} ${r.localId}: ${r.error.code} ${r.error.message}`.slice(0, 500));
      crmSyncRecords.inc({ direction: 'outbound', entity: entityType, result: 'failed' });
      continue;
    }
    run.out.written += 1;
    crmSyncRecords.inc({ direction: 'outbound', entity: entityType, result: 'written' });
    links.push({ entityId: p.localId, crmId: r.crmId, agreed: p.agreed, wasLinked: p.crmId !== null });
    if (p.crmId === null)
      changes.push({
        entityId: p.localId,
        action: r.created || run.ctx.provider === 'salesforce' ? 'created' : 'linked',
        fieldLabel: null,
        oldValue: null,
        newValue: null,
        crmId: r.crmId,
      });
    else
      for (const s of p.sent)
        changes.push({ entityId: p.localId, action: 'updated', fieldLabel: s.label, oldValue: s.old, newValue: s.new, crmId: r.crmId });
  }
  return { retry, stop, links, changes };
}

/** crm_link of the records written: new links inserted, known ones given the values both sides now agree on. */
async function writeLinks(run: PushRun, sql: Sql, entityType: EntityType, links: LinkRow[]): Promise<void> {
  const { ctx } = run;
  const org = ctx.organizationId;
  const col = entityType === 'company' ? 'company_id' : 'contact_id';
  const fresh = links.filter((l) => !l.wasLinked);
  if (fresh.length > 0) {
    await sql.run(
      `insert into crm_link (id, organization_id, source, entity_type, external_id, company_id, contact_id, crm_values, created_at)
            select gen_random_uuid(), ?, ?, ?, x->>'crmId',
              ${entityType === 'company' ? `(x->>'entityId')::uuid, null` : `null, (x->>'entityId')::uuid`}, x->'agreed', now()
              from jsonb_array_elements(?::jsonb) x
            on conflict (organization_id, source, entity_type, external_id) do update set crm_values = excluded.crm_values
              where crm_link.${col} = excluded.${col}`,
      [org, ctx.provider, entityType, JSON.stringify(fresh)],
    );
  }
  const linked = links.filter((l) => l.wasLinked);
  if (linked.length > 0) {
    await sql.run(
      `update crm_link l set crm_values = x.agreed from (select y->>'crmId' as crm_id, (y->>'entityId')::uuid as entity_id,
            y->'agreed' as agreed from jsonb_array_elements(?::jsonb) y) x
            where l.organization_id = ? and l.source = ? and l.entity_type = ? and l.external_id = x.crm_id and l.${col} = x.entity_id`,
      [JSON.stringify(linked), org, ctx.provider, entityType],
    );
  }
}

/** The changes of a page for the history, and the bulk jobs it collected forgotten. */
async function logApplied(run: PushRun, sql: Sql, entityType: EntityType, changes: ChangeRow[], doneJobs: string[]): Promise<void> {
  const { ctx } = run;
  const org = ctx.organizationId;
  if (changes.length > 0) {
    await sql.run(
      `insert into crm_sync_change (id, organization_id, execution_id, provider, entity_type, entity_id, side, action, field_label,
            old_value, new_value, crm_id, changed_at)
            select gen_random_uuid(), ?, ?::uuid, ?, ?, (x->>'entityId')::uuid, 'crm', x->>'action', x->>'fieldLabel', x->>'oldValue',
              x->>'newValue', x->>'crmId', now()
              from jsonb_array_elements(?::jsonb) x`,
      [org, ctx.executionId, ctx.provider, entityType, JSON.stringify(changes)],
    );
  }
  if (doneJobs.length > 0) {
    await sql.run(
      `delete from crm_push_job where organization_id = ? and provider = ? and job_id in (select jsonb_array_elements_text(?::jsonb))`,
      [org, ctx.provider, JSON.stringify(doneJobs)],
    );
  }
}

/** Bulk jobs a crashed attempt left: collected, not loaded again. */
async function resumeJobs(run: PushRun, entityType: EntityType): Promise<boolean> {
  const { ctx, writer } = run;
  const org = ctx.organizationId;
  let retry = false;
  const jobs = await tenantSql(ctx.em, org).all<{ job_id: string; items: Record<string, Planned> }>(
    `select job_id, items from crm_push_job where organization_id = ? and provider = ? and entity_type = ? order by created_at`,
    [org, ctx.provider, entityType],
  );
  for (const j of jobs) {
    let results: CrmWriteResult[] = [];
    if (writer instanceof SalesforceCrmWriter && ctx.crm.kind === 'salesforce') {
      try {
        // Made but never uploaded (the crash came first): abort it; its records are sent again below.
        const info = await ctx.crm.client.ingestJobInfo(j.job_id);
        if (info.state === 'Open') await ctx.crm.client.setIngestJobState(j.job_id, 'Aborted');
        else if (info.state !== 'Aborted') results = await writer.resumeBulkJob(j.job_id);
      } catch (err) {
        // A job Salesforce no longer knows (deleted, expired): forget it; the records are compared and sent again.
        if (!(err instanceof SalesforceError) || err.rateLimited || err.authorizationLost || err.errorCode === 'CONNECTION_FAILED')
          throw err;
      }
    }
    const r = await apply(run, entityType, results, new Map(Object.entries(j.items)), [j.job_id]);
    if (r.stop) throw stopError(ctx.provider, r.stop);
    retry ||= r.retry;
  }
  return retry;
}

async function pushType(run: PushRun, entityType: EntityType, mappings: readonly ResolvedMapping[]): Promise<void> {
  const { ctx } = run;
  const org = ctx.organizationId;
  const retryResumed = await resumeJobs(run, entityType);
  const sql = tenantSql(ctx.em, org);
  const object = `push:${entityType}`;
  const [state] = await sql.all<{ high_water: Date | null }>(
    `select high_water from crm_sync_state where organization_id = ? and provider = ? and object = ? and scope = ?`,
    [org, ctx.provider, object, ctx.scope],
  );
  const since = state?.high_water ? new Date(state.high_water) : null;
  const [{ now: startedAt }] = await sql.all<{ now: Date }>(`select now() as now from organization where id = ?`, [org]);
  const customs = mappings.filter((m) => !m.builtInColumn);
  const customIds = JSON.stringify(customs.map((m) => m.fieldId));
  const pageSize = ctx.pageSize ?? (ctx.provider === 'salesforce' ? 5000 : 200);
  let retry = retryResumed;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    ctx.checkStop?.();
    const rows = await readChanged(run, sql, entityType, { after, since, customIds, pageSize });
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    const values = new Map<string, unknown>();
    if (customs.length > 0) {
      for (const v of await sql.all<{ entity_id: string; field_id: string; value: unknown }>(
        `select entity_id, field_id, value from field_value where organization_id = ? and entity_id = any(array(select
            (jsonb_array_elements_text(?::jsonb))::uuid))
             and field_id = any(array(select (jsonb_array_elements_text(?::jsonb))::uuid))`,
        [org, JSON.stringify(rows.map((r) => r.id)), customIds],
      )) {
        values.set(`${v.entity_id}:${v.field_id}`, v.value);
      }
    }
    const { planned, items } = planPage(run, entityType, mappings, rows, values);
    if (items.length > 0 && (await writePage(run, entityType, planned, items))) retry = true;
    if (rows.length < pageSize) break;
  }
  // The mark moves only when nothing is left to retry (records with retryable failures are compared again).
  if (!retry) {
    await sql.run(
      `insert into crm_sync_state (id, organization_id, provider, object, scope, high_water, last_id, updated_at) values
          (gen_random_uuid(), ?, ?, ?, ?, ?, null, now())
          on conflict (organization_id, provider, object, scope) do update set high_water = excluded.high_water, updated_at = now()`,
      [org, ctx.provider, object, ctx.scope, startedAt],
    );
  }
}

/** A page of the records to compare: unlinked, or changed on either side since the push mark. */
async function readChanged(
  run: PushRun,
  sql: Sql,
  entityType: EntityType,
  page: { after: string; since: Date | null; customIds: string; pageSize: number },
): Promise<RecordRow[]> {
  const { ctx } = run;
  const { after, since, customIds, pageSize } = page;
  const cols = entityType === 'company' ? 'r.name, r.website' : 'r.first_name, r.last_name, r.email';
  // The contact's account is only sent when the contact is created in the CRM: a linked contact's
  // lookup is skipped (`l.external_id is null` inside the lateral is a one-time filter per row),
  // which is every contact of a first sync's outbound read that the inbound phase created.
  const account =
    entityType === 'contact'
      ? `left join lateral (select l2.external_id from company_contact cc join crm_link l2 on l2.organization_id =
            cc.organization_id and l2.source = ? and l2.entity_type = 'company' and l2.company_id = cc.company_id
             where l.external_id is null and cc.organization_id = r.organization_id and cc.contact_id = r.id order by cc.is_primary
               desc, cc.created_at limit 1) a on true`
      : '';
  const params: unknown[] = [ctx.provider];
  if (entityType === 'contact') params.push(ctx.provider);
  params.push(ctx.organizationId, after);
  if (ctx.ownerId) params.push(ctx.ownerId);
  params.push(since, since, since, since, customIds, pageSize);
  return sql.all<RecordRow>(
    `select r.id, ${cols}, l.external_id as crm_id, l.crm_values${entityType === 'contact' ? ', a.external_id as account_crm_id' : ''}
           from ${entityType} r
           left join lateral (select external_id, crm_values, crm_values_at from crm_link where organization_id = r.organization_id and
             source = ? and entity_type = '${entityType}' and ${entityType}_id = r.id order by created_at limit 1) l on true
           ${account}
          where r.organization_id = ? and r.id > ?::uuid ${ctx.ownerId ? 'and r.owner_id = ?::uuid' : ''}
            and (l.external_id is null or ?::timestamptz is null or r.updated_at > ?::timestamptz or l.crm_values_at > ?::timestamptz
                 or exists (select 1 from field_value v where v.organization_id = r.organization_id and v.entity_id = r.id and v.updated_at > ?::timestamptz
                              and v.field_id = any(array(select (jsonb_array_elements_text(?::jsonb))::uuid))))
          order by r.id limit ?`,
    params,
  );
}

/** What to write of a page: an unlinked record whole, a linked one's fields that differ from the values last agreed on. */
function planPage(
  run: PushRun,
  entityType: EntityType,
  mappings: readonly ResolvedMapping[],
  rows: RecordRow[],
  values: ReadonlyMap<string, unknown>,
): { planned: Map<string, Planned>; items: WriteItem[] } {
  const { ctx } = run;
  const identity = IDENTITY[ctx.provider][entityType];
  const planned = new Map<string, Planned>();
  const items: WriteItem[] = [];
  for (const row of rows) {
    const raw = (m: ResolvedMapping) => (m.builtInColumn ? row[m.builtInColumn] : values.get(`${row.id}:${m.fieldId}`));
    const fields: Record<string, CrmFieldValue> = {};
    const agreed: Record<string, string | null> = { ...(row.crm_values ?? {}) };
    const sent: Planned['sent'] = [];
    if (!row.crm_id) {
      for (const [col, name] of Object.entries(identity)) if (!isEmptyValue(row[col])) fields[name] = String(row[col]);
      // Salesforce requires a contact's LastName.
      if (ctx.provider === 'salesforce' && entityType === 'contact' && !fields.LastName) fields.LastName = '[not provided]';
      for (const m of mappings) {
        const t = mappedText(m, raw(m));
        agreed[m.crmField] = t;
        if (t !== null) fields[m.crmField] = m.builtInColumn ? t : crmValue(raw(m));
      }
    } else {
      for (const m of mappings) {
        const t = mappedText(m, raw(m));
        if (t === null && (m.builtInColumn === 'website' || m.builtInColumn === 'email')) continue;
        const known = row.crm_values !== null && m.crmField in row.crm_values;
        if (known ? sameValue(row.crm_values![m.crmField], t) : t === null) continue;
        fields[m.crmField] = t === null ? null : m.builtInColumn ? t : crmValue(raw(m));
        agreed[m.crmField] = t;
        sent.push({ label: m.label, old: known ? (row.crm_values![m.crmField] ?? null) : null, new: t });
      }
      if (Object.keys(fields).length === 0) continue;
    }
    planned.set(row.id, { localId: row.id, crmId: row.crm_id, agreed, sent });
    items.push({
      localId: row.id,
      crmId: row.crm_id,
      fields,
      ...(entityType === 'contact' && !row.crm_id ? { accountCrmId: row.account_crm_id ?? null } : {}),
    });
  }
  return { planned, items };
}

/** Writes a page to the CRM and applies the results; true when some record is to be retried. */
async function writePage(run: PushRun, entityType: EntityType, planned: Map<string, Planned>, items: WriteItem[]): Promise<boolean> {
  const { writer } = run;
  await ensureExternalId(run, entityType === 'company' ? 'Account' : 'Contact');
  run.current = { entityType, planned };
  const heard = run.jobsHeard.length;
  let results: CrmWriteResult[];
  try {
    results = entityType === 'company' ? await writer.upsertAccounts(items) : await writer.upsertContacts(items);
  } finally {
    run.current = null;
  }
  const r = await apply(
    run,
    entityType,
    results,
    planned,
    run.jobsHeard.slice(heard).map((j) => j.jobId),
  );
  if (r.stop) throw stopError(run.ctx.provider, r.stop);
  return r.retry;
}

type ActivityRow = {
  id: string;
  type: string;
  title: string | null;
  subject: string | null;
  content: string;
  date: string;
  contact_crm: string | null;
  company_crm: string | null;
};

async function pushActivities(run: PushRun): Promise<void> {
  const { ctx, writer } = run;
  const org = ctx.organizationId;
  const sql = tenantSql(ctx.em, org);
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    ctx.checkStop?.();
    const rows = await readActivities(run, sql, after);
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    await ensureExternalId(run, 'Task');
    const results = await writer.logActivities(
      rows.map((a) => ({
        localId: a.id,
        type: a.type,
        subject: (a.subject || a.title || a.type).slice(0, 255),
        body: a.content, // plain text: activities are written as text (a sent email by its body's text)
        date: a.date,
        contactCrmId: a.contact_crm,
        accountCrmId: a.company_crm,
      })),
    );
    const done = results.filter((r) => !r.error).map((r) => ({ id: r.localId, crmId: r.crmId }));
    if (done.length > 0) {
      await sql.run(
        `insert into crm_activity_push (id, organization_id, provider, activity_id, crm_id, created_at)
            select gen_random_uuid(), ?, ?, (x->>'id')::uuid, x->>'crmId', now() from jsonb_array_elements(?::jsonb) x
            on conflict (organization_id, provider, activity_id) do nothing`,
        [org, ctx.provider, JSON.stringify(done)],
      );
    }
    run.out.written += done.length;
    let stop: CrmWriteError | null = null;
    for (const r of results) {
      if (!r.error) continue;
      if (isStop(r.error)) stop ??= r.error;
      else fail(run, `activity ${r.localId}: ${r.error.code} ${r.error.message}`.slice(0, 500));
    }
    if (stop) throw stopError(ctx.provider, stop);
    if (rows.length < 2000) break;
  }
}

/** A page of the activities to log in the CRM: on a linked contact or company, not pushed yet. */
async function readActivities(run: PushRun, sql: Sql, after: string): Promise<ActivityRow[]> {
  const { ctx } = run;
  const params: unknown[] = [ctx.provider, ctx.provider, ctx.organizationId, after, ctx.provider];
  if (ctx.ownerId) params.push(ctx.ownerId);
  return sql.all<ActivityRow>(
    `select a.id, a.type, a.title, a.subject, a.content, to_char(a.date, 'YYYY-MM-DD') as date, lc.external_id as contact_crm, lo.external_id as company_crm
           from activity a
           left join lateral (select external_id from crm_link where organization_id = a.organization_id and source = ? and entity_type
             = 'contact' and contact_id = a.contact_id order by created_at limit 1) lc on true
           left join lateral (select external_id from crm_link where organization_id = a.organization_id and source = ? and entity_type
             = 'company' and company_id = a.company_id order by created_at limit 1) lo on true
          where a.organization_id = ? and a.id > ?::uuid and a.status is null and a.source <> 'crm' and a.date <= current_date
            and (lc.external_id is not null or lo.external_id is not null)
            and not exists (select 1 from crm_activity_push p where p.organization_id = a.organization_id and p.provider = ? and p.activity_id = a.id)
            ${ctx.ownerId ? 'and a.created_by_id = ?::uuid' : ''}
          order by a.id limit 2000`,
    params,
  );
}
