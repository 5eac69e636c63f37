// Inbound sync: one page of CRM accounts or contacts written into Dealscout in a few set-based
// statements (the caller's transaction, which also moves the high-water mark, so a page is written
// entirely or not at all). Each CRM record is matched by its CRM id (crm_link), then by the
// company's domain or the contact's email; a record matched by neither is created (owned by the
// Dealscout user linked to the CRM owner, else by the user who runs the sync). Mapped fields are
// then reconciled one by one (reconcile.ts). A record is never created twice: crm_link is unique
// per (organization, source, type, CRM id), companies per domain and contacts per email, and the
// inserts go through `on conflict do nothing` followed by a read of what won.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { coerceFieldValue, normalizeDomain, normalizeEmail, NUMERIC_TYPES, type FieldDataType } from '@dealscout/shared/domain';
import type { CrmProvider, CrmSyncCounts, Reconciliation } from '@dealscout/shared/contracts';
import { tenantSql, type Sql } from '../../../db/sql';
import { projectionOf, slotColumn, slotFamily } from '../../fields/projection';
import { publishEntityChange } from '../../records/records.service';
import { crmWins, isEmptyValue, sameValue } from './reconcile';

export interface ResolvedMapping {
  crmField: string;
  fieldId: string;
  label: string;
  dataType: FieldDataType;
  /** name / website (company), first_name / last_name / email (contact); null for a custom field. */
  builtInColumn: string | null;
  slot: number | null;
  reconciliation: Reconciliation;
}

/** A CRM record as the sources hand it over. */
export interface InboundRecord {
  crmId: string;
  /** The CRM's modification stamp (Salesforce SystemModstamp), null when the CRM has none. */
  stamp: Date | null;
  ownerCrmId: string | null;
  /** What matching and creating need whatever the mappings: company name + website, contact names + email. */
  name?: string | null;
  website?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  /** Contacts: the CRM ids of their accounts (Salesforce AccountId, Affinity organization_ids). */
  accountCrmIds?: string[];
  /** The raw CRM values by CRM field name. */
  values: Record<string, unknown>;
}

export interface PageContext {
  em: EntityManager;
  organizationId: string;
  provider: CrmProvider;
  /** The user running the sync. */
  actorId: string;
  executionId: string;
  mappings: readonly ResolvedMapping[];
  /** CRM user id → Dealscout user id (crm_user_link). */
  owners: ReadonlyMap<string, string>;
  counts: CrmSyncCounts;
  failures: string[];
}

/** At most this many created / updated records of a page are announced one by one on the realtime feed. */
export const LIVE_EVENTS_MAX = 200;

/** A record's row as step 4 reconciles it: id, updated_at and the built-in columns. */
type CurrentRow = Record<string, unknown> & { id: string; updated_at: Date };

interface ChangeRow {
  entityId: string;
  action: 'created' | 'updated' | 'linked';
  fieldLabel: string | null;
  oldValue: string | null;
  newValue: string | null;
  crmId: string;
}

const text = (v: unknown): string | null => (isEmptyValue(v) ? null : typeof v === 'object' ? JSON.stringify(v) : String(v));
const clip = (s: string | null | undefined, n: number) => (s ?? '').trim().slice(0, n);

/** A mapped field's value as text, the form crm_link.crm_values keeps (custom values coerced to the field's type first). */
export function mappedText(m: ResolvedMapping, v: unknown): string | null {
  if (m.builtInColumn === 'email') return clip(text(v), 128).toLowerCase() || null;
  if (m.builtInColumn) return clip(text(v), m.builtInColumn === 'name' || m.builtInColumn === 'website' ? 255 : 128) || null;
  const c = coerceFieldValue(m.dataType, v);
  return text(c.ok ? c.value : v);
}

/** The CRM's values of the mapped fields, by CRM field name, as text. */
export function crmValuesOf(mappings: readonly ResolvedMapping[], values: Record<string, unknown>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const m of mappings) out[m.crmField] = mappedText(m, values[m.crmField]);
  return out;
}

function fail(ctx: PageContext, message: string): void {
  ctx.counts.failed += 1;
  if (ctx.failures.length < 50) ctx.failures.push(message);
}

type EntityType = 'company' | 'contact';

/** A page as its steps go: what matched which record, what this page created and linked. */
interface PageState {
  ctx: PageContext;
  sql: Sql;
  entityType: EntityType;
  /** The page's records by CRM id (a duplicate within a page: the last wins). */
  byCrmId: ReadonlyMap<string, InboundRecord>;
  recs: readonly InboundRecord[];
  /** CRM id → the Dealscout record it is (found by CRM id, domain / email, or created). */
  entityOf: Map<string, string>;
  /** Contacts: the CRM id of an account → its company (step 5 links them). */
  companyOfAccount: ReadonlyMap<string, string>;
  /** The records this page created. */
  created: Set<string>;
  newLinks: { crmId: string; entityId: string }[];
  /** CRM ids whose crm_link this page inserted, with its crm_values. */
  linkMadeNow: Set<string>;
  /** The records this page created, as the insert returned them (step 4 reads the others). */
  createdRows: Map<string, CurrentRow>;
  /** CRM ids whose record this page's insert created, with the typed slots of their mapped values. */
  slotsWritten: Set<string>;
}

type ValueWrite = { e: string; f: string; v: unknown; t: string | null; n: number | null; b: boolean | null };

/** Step 4's reading of a page and what it decides to write. */
interface Reconciled {
  current: ReadonlyMap<string, CurrentRow>;
  values: ReadonlyMap<string, { value: unknown; updated_at: Date }>;
  /** What the CRM has now for each mapped field, as text: the values both sides agree on once the page is written. */
  agreed: Map<string, Record<string, string | null>>;
  /** crm_link.crm_values before this page, by CRM id. */
  shadows: ReadonlyMap<string, Record<string, string | null> | null>;
  changes: ChangeRow[];
  columnUpdates: Map<string, Record<string, string>>;
  // By record and field: two CRM records of a page can be one Dealscout record (a duplicate in the
  // CRM, matched by email or domain) and the last one's value wins, as for the built-in columns —
  // one statement cannot write a row twice (ON CONFLICT DO UPDATE refuses it).
  valueOps: Map<string, ValueWrite | { e: string; f: string; v: null }>;
  slotWrites: Map<number, Map<string, number | string | null>>;
  touched: Set<string>;
}

export async function writeInboundPage(ctx: PageContext, entityType: EntityType, records: readonly InboundRecord[]): Promise<void> {
  if (records.length === 0) return;
  const org = ctx.organizationId;
  const sql = tenantSql(ctx.em, org);
  // Sets of keys are bound as one JSON array and looked up with a lateral join driven by the array:
  // one index probe per key, whatever the tables' statistics say (a semi-join `in (select
  // jsonb_array_elements…)` was planned over stale statistics as a scan of every row of the
  // organization per key — quadratic in a first sync).
  // Every statement with a page's rows binds them ($n, sql.bound): em.execute would inline ~1.5 MB of
  // JSON a page into the SQL text, character by character (~100 ms per MB, on the worker's CPU).
  // Duplicates within a page (the CRM sends each record once; a retried page may not): the last wins.
  const byCrmId = new Map<string, InboundRecord>();
  for (const r of records) byCrmId.set(r.crmId, r);
  const recs = [...byCrmId.values()];

  // 1. By CRM id.
  const entityOf = await linkedByCrmId(ctx, sql, entityType, recs);
  const companyOfAccount = entityType === 'contact' ? await companiesOfAccounts(ctx, sql, recs) : new Map<string, string>();
  const page: PageState = {
    ctx,
    sql,
    entityType,
    byCrmId,
    recs,
    entityOf,
    companyOfAccount,
    created: new Set(),
    newLinks: [],
    linkMadeNow: new Set(),
    createdRows: new Map(),
    slotsWritten: new Set(),
  };
  // 2. By domain / email; 3. created.
  await matchOrCreateUnlinked(page);
  // 4. Mapped fields, reconciled.
  const pairs = recs.filter((r) => entityOf.has(r.crmId)).map((r) => ({ r, id: entityOf.get(r.crmId)! }));
  const rec = await reconcilePage(page, pairs);
  await writeColumnUpdates(page, rec.columnUpdates);
  await writeFieldValues(page, rec);
  // 5. Contacts: linked to their accounts' companies.
  if (entityType === 'contact') await linkContactsToCompanies(page, pairs);
  await recordAgreement(page, rec.agreed);
  await recordChanges(page, rec.changes);
  // Small pages tell open tables and drawers record by record; a bulk page does not flood the feed
  // (the tables reload when the sync's execution completes, 001 §4).
  const { created } = page;
  if (created.size > 0 && created.size <= LIVE_EVENTS_MAX) await publishEntityChange(ctx.em, org, entityType, 'created', [...created]);
  if (rec.touched.size > 0 && rec.touched.size <= LIVE_EVENTS_MAX)
    await publishEntityChange(ctx.em, org, entityType, 'updated', [...rec.touched]);
}

/** Step 1: the records already linked to the page's CRM ids. */
async function linkedByCrmId(
  ctx: PageContext,
  sql: Sql,
  entityType: EntityType,
  recs: readonly InboundRecord[],
): Promise<Map<string, string>> {
  const linked = await sql.bound<{ external_id: string; entity_id: string }>(
    `select x.k as external_id, l.entity_id from jsonb_array_elements_text($1::jsonb) as x(k)
       cross join lateral (select ${entityType}_id as entity_id from crm_link where organization_id = $2 and source = $3 and entity_type
         = $4 and external_id = x.k) l`,
    [JSON.stringify(recs.map((r) => r.crmId)), ctx.organizationId, ctx.provider, entityType],
  );
  return new Map(linked.map((l) => [l.external_id, l.entity_id]));
}

/**
 * Contacts: the companies of their accounts (step 5 links them; a contact created here takes its
 * first account's company as primary).
 */
async function companiesOfAccounts(ctx: PageContext, sql: Sql, recs: readonly InboundRecord[]): Promise<Map<string, string>> {
  const companyOfAccount = new Map<string, string>();
  const acc = [...new Set(recs.flatMap((r) => r.accountCrmIds ?? []))];
  if (acc.length > 0) {
    for (const l of await sql.bound<{ external_id: string; company_id: string }>(
      `select x.k as external_id, l.company_id from jsonb_array_elements_text($1::jsonb) as x(k)
           cross join lateral (select company_id from crm_link where organization_id = $2 and source = $3 and entity_type = 'company' and
             external_id = x.k) l`,
      [JSON.stringify(acc), ctx.organizationId, ctx.provider],
    ))
      companyOfAccount.set(l.external_id, l.company_id);
  }
  return companyOfAccount;
}

/** The key a record is matched by: a company's domain, a contact's email ('' when it has none). */
function keyOf(entityType: EntityType, r: InboundRecord): string {
  if (entityType === 'company') return r.website ? normalizeDomain(r.website) : '';
  return r.email ? normalizeEmail(r.email) : '';
}

/** Steps 2 and 3: the records not linked yet, matched by domain / email or created, then linked. */
async function matchOrCreateUnlinked(page: PageState): Promise<void> {
  const { ctx, entityType } = page;
  const unlinked = page.recs.filter((r) => !page.entityOf.has(r.crmId));
  if (unlinked.length === 0) return;
  const keyed = unlinked.filter((r) => {
    if (keyOf(entityType, r)) return true;
    ctx.counts.skipped += 1;
    return false;
  });
  // Created first, `on conflict do nothing`; the keys it did not create (a record that exists, or
  // one another writer created meanwhile) are then read: one probe of the key per record either
  // way, and none more for the records a first sync creates.
  const toCreate = new Map<string, InboundRecord>();
  for (const r of keyed) if (!toCreate.has(keyOf(entityType, r))) toCreate.set(keyOf(entityType, r), r);
  const found = toCreate.size > 0 ? await createOrFind(page, toCreate) : new Map<string, string>();
  for (const r of keyed) {
    const id = found.get(keyOf(entityType, r));
    if (!id) {
      fail(ctx, `${r.crmId}: could not be matched or created`);
      continue;
    }
    page.entityOf.set(r.crmId, id);
    page.newLinks.push({ crmId: r.crmId, entityId: id });
  }
  if (page.newLinks.length > 0) await insertLinks(page);
}

/** Creates the records of the keys (`on conflict do nothing`), then reads the keys it did not create: key → record id. */
async function createOrFind(page: PageState, toCreate: ReadonlyMap<string, InboundRecord>): Promise<Map<string, string>> {
  const { ctx, sql, entityType } = page;
  const found = new Map<string, string>();
  const slotted = ctx.mappings.filter((m) => !m.builtInColumn && m.slot);
  const rows = [...toCreate.entries()].map(([k, r]) => ({
    id: randomUUID(),
    k,
    owner: (r.ownerCrmId && ctx.owners.get(r.ownerCrmId)) || ctx.actorId,
    a: entityType === 'company' ? clip(r.name, 255) || k : clip(r.firstName, 128),
    b: entityType === 'company' ? clip(r.website, 255) : clip(r.lastName, 128),
    pc: entityType === 'contact' && r.accountCrmIds?.length ? (page.companyOfAccount.get(r.accountCrmIds[0]) ?? null) : null,
    s: Object.fromEntries(
      slotted.map((m) => {
        const c = coerceFieldValue(m.dataType, r.values[m.crmField]);
        return [m.slot, c.ok && !isEmptyValue(c.value) ? projectionOf(m.dataType, c.value) : null];
      }),
    ),
  }));
  for (const { k, ...row } of await insertRecords(page, slotted, rows)) {
    found.set(k, row.id);
    page.created.add(row.id);
    page.createdRows.set(row.id, row);
    const r = toCreate.get(k);
    if (r) page.slotsWritten.add(r.crmId);
  }
  const missing = [...toCreate.keys()].filter((k) => !found.has(k));
  if (missing.length > 0)
    for (const m of await sql.bound<{ id: string; k: string }>(matchSql(entityType), [JSON.stringify(missing), ctx.organizationId]))
      found.set(m.k, m.id);
  return found;
}

function matchSql(entityType: EntityType): string {
  return entityType === 'company'
    ? `select m.id, x.k from jsonb_array_elements_text($1::jsonb) as x(k) cross join lateral (select id from company where
          organization_id = $2 and domain = x.k) m`
    : `select m.id, x.k from jsonb_array_elements_text($1::jsonb) as x(k) cross join lateral (select id from contact where
          organization_id = $2 and lower(email) = x.k) m`;
}

/** The insert of step 3 (`on conflict do nothing`): the rows it created, with their keys. */
async function insertRecords(
  page: PageState,
  slotted: readonly ResolvedMapping[],
  rows: readonly Record<string, unknown>[],
): Promise<(CurrentRow & { k: string })[]> {
  const { ctx, sql, entityType } = page;
  const org = ctx.organizationId;
  // The typed slots of the mapped custom values a new record gets in step 4 are written with it
  // (step 4's slot update then finds them right instead of writing each new row a second time).
  const slotCols = slotted.map((m) => `, ${slotColumn(m.slot!)}`).join('');
  const slotVals = slotted.map((m) => `, (x->'s'->>'${m.slot!}')::${slotFamily(m.dataType) === 'num' ? 'float8' : 'text'}`).join('');
  return entityType === 'company'
    ? await sql.bound<CurrentRow & { k: string }>(
        `insert into company (id, organization_id, name, website, domain, owner_id, created_by_id, created_at, updated_at${slotCols})
            select (x->>'id')::uuid, $1::uuid, x->>'a', x->>'b', x->>'k', (x->>'owner')::uuid, $2::uuid, now(), now()${slotVals} from
              jsonb_array_elements($3::jsonb) x
            on conflict (organization_id, domain) do nothing returning id, domain as k, updated_at, name, website`,
        [org, ctx.actorId, JSON.stringify(rows)],
      )
    : // A contact is created with the sort text of the primary company step 5 gives it (the text
      // the link trigger computes, Migration20261122220100: lower(name)), so that trigger finds it
      // right and does not write each new contact a second time (it still corrects it otherwise).
      await sql.bound<CurrentRow & { k: string }>(
        `insert into contact (id, organization_id, first_name, last_name, email, owner_id, created_by_id, created_at, updated_at,
                primary_company_sort${slotCols})
            select (x->>'id')::uuid, $1::uuid, x->>'a', x->>'b', x->>'k', (x->>'owner')::uuid, $2::uuid, now(), now(),
                   (select lower(co.name) from company co where co.organization_id = $1::uuid and co.id = (x->>'pc')::uuid)${slotVals}
              from jsonb_array_elements($3::jsonb) x
            on conflict (organization_id, lower(email)) do nothing returning id, lower(email) as k, updated_at, first_name, last_name, email`,
        [org, ctx.actorId, JSON.stringify(rows)],
      );
}

/**
 * The crm_link rows of the records matched or created now, written with the values this page agrees
 * on (crm_values, below): what the update at the end would write into a link made now, without a
 * second write of each new link. A link another writer made first is left to that update, as before.
 */
async function insertLinks(page: PageState): Promise<void> {
  const { ctx, sql, entityType } = page;
  for (const l of await sql.bound<{ external_id: string }>(
    `insert into crm_link (id, organization_id, source, entity_type, external_id, company_id, contact_id, crm_values, crm_values_at, created_at)
          select gen_random_uuid(), $1::uuid, $2, $3, x->>'crmId',
            ${entityType === 'company' ? `(x->>'entityId')::uuid, null` : `null, (x->>'entityId')::uuid`}, x->'v', now(), now()
            from jsonb_array_elements($4::jsonb) x
          on conflict (organization_id, source, entity_type, external_id) do nothing returning external_id`,
    [
      ctx.organizationId,
      ctx.provider,
      entityType,
      JSON.stringify(page.newLinks.map((l) => ({ ...l, v: crmValuesOf(ctx.mappings, page.byCrmId.get(l.crmId)!.values) }))),
    ],
  ))
    page.linkMadeNow.add(l.external_id);
}

type Pair = { r: InboundRecord; id: string };

/** Step 4: reads the records and what both sides last agreed on, and reconciles each mapped field. */
async function reconcilePage(page: PageState, pairs: readonly Pair[]): Promise<Reconciled> {
  const { current, values } = await readCurrent(page, pairs);
  const { agreed, shadows } = await readAgreement(page, pairs);
  const rec: Reconciled = {
    current,
    values,
    agreed,
    shadows,
    changes: [],
    columnUpdates: new Map(),
    valueOps: new Map(),
    slotWrites: new Map(),
    touched: new Set(),
  };
  const { ctx, created } = page;
  const linkedNow = new Set(page.newLinks.map((l) => l.crmId));
  for (const { r, id } of pairs) {
    const isNew = created.has(id);
    const row = current.get(id);
    if (!row) continue;
    if (isNew) rec.changes.push({ entityId: id, action: 'created', fieldLabel: null, oldValue: null, newValue: null, crmId: r.crmId });
    else if (linkedNow.has(r.crmId))
      rec.changes.push({ entityId: id, action: 'linked', fieldLabel: null, oldValue: null, newValue: null, crmId: r.crmId });
    const builtInsChanged = reconcileBuiltIns(page, rec, r, id, row, isNew);
    const customsChanged = reconcileCustoms(page, rec, r, id, isNew);
    if (isNew) ctx.counts.created += 1;
    else if (builtInsChanged || customsChanged) {
      ctx.counts.updated += 1;
      rec.touched.add(id);
    } else ctx.counts.unchanged += 1;
  }
  return rec;
}

/** The records of the pairs (id, updated_at, built-in columns) and their mapped custom values. */
async function readCurrent(page: PageState, pairs: readonly Pair[]): Promise<Pick<Reconciled, 'current' | 'values'>> {
  const { ctx, sql, entityType, createdRows } = page;
  const org = ctx.organizationId;
  const ids = [...new Set(pairs.map((p) => p.id))];
  const table = entityType;
  const customs = ctx.mappings.filter((m) => !m.builtInColumn);
  const toRead = ids.filter((id) => !createdRows.has(id));
  const current = new Map([
    ...createdRows,
    ...(toRead.length === 0
      ? []
      : await sql.bound<CurrentRow>(
          `select t.* from jsonb_array_elements_text($1::jsonb) as x(id)
       cross join lateral (select id, updated_at, ${entityType === 'company' ? 'name, website' : 'first_name, last_name, email'} from
         ${table} where organization_id = $2 and id = x.id::uuid) t`,
          [JSON.stringify(toRead), org],
        )
    ).map((r) => [r.id, r] as const),
  ]);
  const values = new Map<string, { value: unknown; updated_at: Date }>();
  if (customs.length > 0) {
    for (const v of await sql.bound<{ entity_id: string; field_id: string; value: unknown; updated_at: Date }>(
      `select v.* from jsonb_array_elements_text($1::jsonb) as x(id)
         cross join lateral (select entity_id, field_id, value, updated_at from field_value where organization_id = $2 and entity_id = x.id::uuid
           and field_id = any(array(select (jsonb_array_elements_text($3::jsonb))::uuid))) v`,
      [JSON.stringify(ids), org, JSON.stringify(customs.map((c) => c.fieldId))],
    )) {
      values.set(`${v.entity_id}:${v.field_id}`, { value: v.value, updated_at: new Date(v.updated_at) });
    }
  }
  return { current, values };
}

/**
 * What the CRM has now for each mapped field, as text: the values both sides agree on once this
 * page is written (crm_link.crm_values). A CRM value equal to it has not changed since the last
 * sync, so it never overwrites a change made here (push.ts writes that one back instead).
 */
async function readAgreement(page: PageState, pairs: readonly Pair[]): Promise<Pick<Reconciled, 'agreed' | 'shadows'>> {
  const { ctx, sql, entityType } = page;
  const agreed = new Map<string, Record<string, string | null>>();
  for (const { r } of pairs) agreed.set(r.crmId, crmValuesOf(ctx.mappings, r.values));
  // A link this page made had no values before it (it is written with the page's).
  const before = pairs.filter((p) => !page.linkMadeNow.has(p.r.crmId));
  const shadows = new Map(
    before.length === 0
      ? []
      : (
          await sql.bound<{ external_id: string; crm_values: Record<string, string | null> | null }>(
            `select x.k as external_id, l.crm_values from jsonb_array_elements_text($1::jsonb) as x(k)
       cross join lateral (select crm_values from crm_link where organization_id = $2 and source = $3 and entity_type = $4 and external_id =
         x.k) l`,
            [JSON.stringify(before.map((p) => p.r.crmId)), ctx.organizationId, ctx.provider, entityType],
          )
        ).map((l) => [l.external_id, l.crm_values]),
  );
  return { agreed, shadows };
}

function unchangedInCrm(rec: Reconciled, crmId: string, m: ResolvedMapping): boolean {
  const before = rec.shadows.get(crmId);
  return !!before && m.crmField in before && sameValue(before[m.crmField], rec.agreed.get(crmId)![m.crmField]);
}

/**
 * Under use_latest, a value not changed here since the last agreement takes the CRM's change
 * whatever the record's updated_at says (an edit of another column here is not a change of this one).
 */
function unchangedHere(rec: Reconciled, crmId: string, m: ResolvedMapping, current: unknown): boolean {
  const before = rec.shadows.get(crmId);
  return m.reconciliation === 'use_latest' && !!before && m.crmField in before && sameValue(before[m.crmField], mappedText(m, current));
}

/** The built-in columns of one record the CRM wins: into columnUpdates and changes. True when one changed. */
function reconcileBuiltIns(page: PageState, rec: Reconciled, r: InboundRecord, id: string, row: CurrentRow, isNew: boolean): boolean {
  let changed = false;
  for (const m of page.ctx.mappings) {
    if (!m.builtInColumn) continue;
    const incoming = r.values[m.crmField];
    const col = m.builtInColumn;
    const cur = row[col];
    // Identity columns are never emptied by sync (a company needs its website, a contact its email).
    if (isEmptyValue(incoming) && (col === 'website' || col === 'email')) continue;
    if (!isNew && unchangedInCrm(rec, r.crmId, m)) continue;
    if (
      !isNew && unchangedHere(rec, r.crmId, m, cur)
        ? sameValue(mappedText(m, cur), mappedText(m, incoming))
        : !crmWins(m.reconciliation, cur, incoming, isNew ? null : new Date(row.updated_at), r.stamp)
    )
      continue;
    const next = clip(text(incoming), col === 'name' || col === 'website' ? 255 : 128);
    const upd = rec.columnUpdates.get(id) ?? {};
    upd[col] = next;
    rec.columnUpdates.set(id, upd);
    rec.changes.push({ entityId: id, action: 'updated', fieldLabel: m.label, oldValue: text(cur), newValue: next || null, crmId: r.crmId });
    changed = true;
  }
  return changed;
}

/** The mapped custom fields of one record the CRM wins: into valueOps, slotWrites and changes. True when one changed. */
function reconcileCustoms(page: PageState, rec: Reconciled, r: InboundRecord, id: string, isNew: boolean): boolean {
  let changed = false;
  for (const m of page.ctx.mappings) {
    if (m.builtInColumn) continue;
    // A field the CRM's answer does not carry is not known (an Affinity record its v2 read did
    // not return): left alone, never emptied.
    if (!(m.crmField in r.values)) continue;
    const incoming = r.values[m.crmField];
    const coerced = coerceFieldValue(m.dataType, incoming);
    if (!coerced.ok) {
      fail(page.ctx, `${r.crmId} ${m.crmField}: ${coerced.message}`);
      continue;
    }
    const cur = rec.values.get(`${id}:${m.fieldId}`);
    if (!isNew && unchangedInCrm(rec, r.crmId, m)) continue;
    if (
      !isNew && unchangedHere(rec, r.crmId, m, cur?.value ?? null)
        ? sameValue(mappedText(m, cur?.value ?? null), text(coerced.value))
        : !crmWins(m.reconciliation, cur?.value ?? null, coerced.value, isNew ? null : (cur?.updated_at ?? null), r.stamp)
    )
      continue;
    const v = coerced.value;
    rec.valueOps.delete(`${id}:${m.fieldId}`);
    rec.valueOps.set(
      `${id}:${m.fieldId}`,
      v === null
        ? { e: id, f: m.fieldId, v: null }
        : {
            e: id,
            f: m.fieldId,
            v,
            t: text(v),
            n: NUMERIC_TYPES.includes(m.dataType) ? Number(v) : null,
            b: m.dataType === 'boolean' ? Boolean(v) : null,
          },
    );
    // A record this page inserted has this slot already (written with it, from the same coerced
    // value): no update of each new row that would find it right (an empty value still goes).
    if (m.slot && !(page.slotsWritten.has(r.crmId) && !isEmptyValue(v))) {
      const bySlot = rec.slotWrites.get(m.slot) ?? new Map<string, number | string | null>();
      bySlot.set(id, projectionOf(m.dataType, v));
      rec.slotWrites.set(m.slot, bySlot);
    }
    rec.changes.push({
      entityId: id,
      action: 'updated',
      fieldLabel: m.label,
      oldValue: text(cur?.value ?? null),
      newValue: text(v),
      crmId: r.crmId,
    });
    changed = true;
  }
  return changed;
}

/** The built-in columns the CRM won, one statement per page. */
async function writeColumnUpdates(page: PageState, columnUpdates: ReadonlyMap<string, Record<string, string>>): Promise<void> {
  if (columnUpdates.size === 0) return;
  const { ctx, sql, entityType } = page;
  const org = ctx.organizationId;
  const rows: Record<string, string>[] = [...columnUpdates].map(([id, u]) => ({ id, ...u }));
  if (entityType === 'company') {
    // A website that would give the company another company's domain is not taken.
    await sql.bound(
      `update company c set name = coalesce(x.name, c.name), website = coalesce(x.website, c.website),
             domain = case when x.website is null then c.domain else x.domain end, updated_at = now()
          from (select (y->>'id')::uuid as id, y->>'name' as name, y->>'website' as website, y->>'domain' as domain from jsonb_array_elements($1::jsonb) y) x
         where c.organization_id = $2 and c.id = x.id
           and (x.website is null or not exists (select 1 from company o where o.organization_id = c.organization_id and o.domain =
             x.domain and o.id <> c.id))`,
      [JSON.stringify(rows.map((r) => ({ ...r, domain: r.website ? normalizeDomain(r.website) : null }))), org],
    );
  } else {
    await sql.bound(
      `update contact c set first_name = coalesce(x.first_name, c.first_name), last_name = coalesce(x.last_name, c.last_name),
             email = coalesce(x.email, c.email), updated_at = now()
          from (select (y->>'id')::uuid as id, y->>'first_name' as first_name, y->>'last_name' as last_name, lower(y->>'email') as email
            from jsonb_array_elements($1::jsonb) y) x
         where c.organization_id = $2 and c.id = x.id
           and (x.email is null or not exists (select 1 from contact o where o.organization_id = c.organization_id and lower(o.email) =
             x.email and o.id <> c.id))`,
      [JSON.stringify(rows), org],
    );
  }
}

/** The custom values the CRM won: the records' typed slots, then the values written and emptied. */
async function writeFieldValues(page: PageState, rec: Reconciled): Promise<void> {
  const { ctx, sql, entityType } = page;
  const org = ctx.organizationId;
  const table = entityType;
  const valueWrites = [...rec.valueOps.values()].filter((o): o is ValueWrite => o.v !== null);
  const valueDeletes = [...rec.valueOps.values()].filter((o) => o.v === null).map(({ e, f }) => ({ e, f }));
  for (const [slot, bySlot] of rec.slotWrites) {
    const list = [...bySlot].map(([e, p]) => ({ e, p }));
    const cast = slotFamily(ctx.mappings.find((m) => m.slot === slot)!.dataType) === 'num' ? 'float8' : 'text';
    await sql.bound(
      `update ${table} t set ${slotColumn(slot)} = (x->>'p')::${cast}
        from jsonb_array_elements($1::jsonb) x where t.organization_id = $2 and t.id = (x->>'e')::uuid and t.${slotColumn(slot)} is
          distinct from (x->>'p')::${cast}`,
      [JSON.stringify(list), org],
    );
  }
  if (valueWrites.length > 0) {
    await sql.bound(
      `insert into field_value (id, organization_id, entity_type, entity_id, field_id, value, value_text, value_num, value_bool, status, updated_at)
        select gen_random_uuid(), $1::uuid, $2, (x->>'e')::uuid, (x->>'f')::uuid, x->'v', x->>'t', (x->>'n')::float8, (x->>'b')::boolean, 'completed', now()
          from jsonb_array_elements($3::jsonb) x
        on conflict (organization_id, field_id, entity_id) do update set value = excluded.value, value_text = excluded.value_text,
          value_num = excluded.value_num,
          value_bool = excluded.value_bool, status = 'completed', status_message = null, updated_at = now()`,
      [org, entityType, JSON.stringify(valueWrites)],
    );
  }
  if (valueDeletes.length > 0) {
    await sql.bound(
      `delete from field_value f using jsonb_array_elements($1::jsonb) x
        where f.organization_id = $2 and f.entity_id = (x->>'e')::uuid and f.field_id = (x->>'f')::uuid`,
      [JSON.stringify(valueDeletes), org],
    );
  }
}

/**
 * Step 5: contacts linked to their accounts' companies. A contact this page created has no link yet:
 * its first account's company becomes its primary one; an existing contact's primary is left alone.
 */
async function linkContactsToCompanies(page: PageState, pairs: readonly Pair[]): Promise<void> {
  const { companyOfAccount, created } = page;
  if (companyOfAccount.size === 0) return;
  // One link per company and contact, and one primary per contact: two CRM contacts of a page
  // can be one Dealscout contact (a duplicate in the CRM, matched by email), and a contact has
  // a single primary company (company_contact_one_primary) — the first account of the first.
  const byPair = new Map<string, { company: string; contact: string; primary: boolean }>();
  const givenPrimary = new Set<string>();
  for (const p of pairs) {
    (p.r.accountCrmIds ?? []).forEach((a, i) => {
      const company = companyOfAccount.get(a);
      if (!company) return;
      const primary = i === 0 && created.has(p.id) && !givenPrimary.has(p.id);
      if (primary) givenPrimary.add(p.id);
      const key = `${company}:${p.id}`;
      const prev = byPair.get(key);
      if (!prev) byPair.set(key, { company, contact: p.id, primary });
      else if (primary) prev.primary = true;
    });
  }
  const links = [...byPair.values()];
  if (links.length > 0) {
    await page.sql.bound(
      `insert into company_contact (id, organization_id, company_id, contact_id, is_key, is_primary, created_at)
            select gen_random_uuid(), $1::uuid, (x->>'company')::uuid, (x->>'contact')::uuid, false, (x->>'primary')::boolean, now()
              from jsonb_array_elements($2::jsonb) x
            on conflict (organization_id, company_id, contact_id) do nothing`,
      [page.ctx.organizationId, JSON.stringify(links)],
    );
  }
}

/** crm_link.crm_values of the links this page did not make (those were written with them). */
async function recordAgreement(page: PageState, agreed: ReadonlyMap<string, Record<string, string | null>>): Promise<void> {
  const { ctx, sql, entityType } = page;
  const toAgree = [...agreed].filter(([k]) => !page.linkMadeNow.has(k));
  if (toAgree.length === 0) return;
  await sql.bound(
    `update crm_link l set crm_values = x.v, crm_values_at = now() from (select y->>'k' as k, y->'v' as v from jsonb_array_elements($1::jsonb) y) x
        where l.organization_id = $2 and l.source = $3 and l.entity_type = $4 and l.external_id = x.k and l.crm_values is distinct from x.v`,
    [JSON.stringify(toAgree.map(([k, v]) => ({ k, v }))), ctx.organizationId, ctx.provider, entityType],
  );
}

/** The page's changes, as the sync's history shows them. */
async function recordChanges(page: PageState, changes: readonly ChangeRow[]): Promise<void> {
  if (changes.length === 0) return;
  const { ctx, sql, entityType } = page;
  await sql.bound(
    `insert into crm_sync_change (id, organization_id, execution_id, provider, entity_type, entity_id, side, action, field_label,
        old_value, new_value, crm_id, changed_at)
        select gen_random_uuid(), $1::uuid, $2::uuid, $3, $4, (x->>'entityId')::uuid, 'dealscout', x->>'action', x->>'fieldLabel',
          x->>'oldValue', x->>'newValue', x->>'crmId', now()
          from jsonb_array_elements($5::jsonb) x`,
    [ctx.organizationId, ctx.executionId, ctx.provider, entityType, JSON.stringify(changes)],
  );
}
