// The CRM sync execution (type 'crmsync', one active per organization): the inbound phase reads
// the CRM's accounts and contacts — those owned by the CRM user linked to the user who started it,
// everything for an admin — page by page, two pages written at once on two connections (PagePipeline),
// each page in one transaction with its high-water mark when the marks before it are committed, and
// its mark written after theirs otherwise (so a sync killed at any moment resumes at or before its
// first page not committed and writes nothing twice), then the outbound phase (push.ts). Salesforce is read incrementally by
// SystemModstamp (`SystemModstamp >= hw ORDER BY SystemModstamp, Id`; ties on the mark skipped up to
// the last id written); Affinity's v1 API has no modification filter, so each Affinity sync reads
// every organization and person and writes only what differs.
import { crmSyncRecords } from '../../../lib/metrics';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CRM_NAMES,
  CRM_SYNC_MESSAGES,
  CRM_USERNAME_MESSAGES,
  type CrmProvider,
  type CrmSyncCounts,
  type CrmSyncResult,
} from '@dealscout/shared/contracts';
import { loadConfig, type Config } from '../../../config';
import { tenantSql, unscopedSql } from '../../../db/sql';
import { SalesforceError, soqlString, type SalesforceClient, type SalesforceQueryPage } from '../providers/salesforce';
import { AffinityError, affinityPlainValue, type AffinityClient, type AffinityPage } from '../providers/affinity';
import { defineExecutionHandler, ExecutionError, type ExecutionHandler, type ExecutionRunContext } from '../../executions/runner';
import { salesforceClientFor } from '../connect/crm-connect';
import { activeCrm } from '../crm-username';
import { User } from '../../users/user.entity';
import { CrmUserLink } from '../crm-user-link.entity';
import { writeInboundPage, type InboundRecord, type PageContext, type ResolvedMapping } from './inbound';
import { affinityClientFor, crmFailure, readSyncSettings, resolveMappings } from './settings';
import { pushChanges, type PushContext } from './push';

const emptyCounts = (): CrmSyncCounts => ({ created: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0 });
const emptyResult = (): CrmSyncResult => ({ accounts: emptyCounts(), contacts: emptyCounts(), outbound: null, failures: [] });
const COUNT_KEYS = ['created', 'updated', 'unchanged', 'skipped', 'failed'] as const;

/** The counts kept on the execution so far (every committed page of every attempt), or zeros. */
function countsOf(result: unknown): { accounts: CrmSyncCounts; contacts: CrmSyncCounts } {
  const r = (result ?? {}) as Partial<Record<'accounts' | 'contacts', Partial<CrmSyncCounts>>>;
  const read = (c: Partial<CrmSyncCounts> | undefined): CrmSyncCounts =>
    Object.fromEntries(COUNT_KEYS.map((k) => [k, Number(c?.[k] ?? 0) || 0])) as CrmSyncCounts;
  return { accounts: read(r.accounts), contacts: read(r.contacts) };
}

async function readTally(
  em: EntityManager,
  org: string,
  executionId: string,
): Promise<{ accounts: CrmSyncCounts; contacts: CrmSyncCounts }> {
  const [row] = await tenantSql(em, org).all<{ result: unknown }>(`select result from execution where organization_id = ? and id = ?`, [
    org,
    executionId,
  ]);
  return countsOf(row?.result);
}

/**
 * Adds a page's counts to the execution's running result in the page's own transaction, so the
 * counts of a page are kept exactly when the page is: a sync that resumes (another attempt, after
 * a crash or a failed attempt) still reports what the whole sync did, not only its last attempt.
 * While the sync runs, GET /crm/sync shows these counts as they grow.
 */
async function tallyPage(
  em: EntityManager,
  org: string,
  executionId: string,
  entityType: 'company' | 'contact',
  page: CrmSyncCounts,
): Promise<void> {
  const key = entityType === 'company' ? 'accounts' : 'contacts';
  const base = JSON.stringify(emptyResult());
  await tenantSql(em, org).run(
    `update execution set result = jsonb_set(coalesce(result, ?::jsonb), ?::text[], (
        select jsonb_object_agg(k.key, coalesce((coalesce(result, ?::jsonb) #>> array[?, k.key])::int, 0) + k.value::int)
          from jsonb_each_text(?::jsonb) k))
      where organization_id = ? and id = ?`,
    [base, `{${key}}`, base, key, JSON.stringify(page), org, executionId],
  );
}

/** Salesforce fields read whatever the mappings (matching, creating, ownership, the mark). */
const SF_BASE: Record<'Account' | 'Contact', string[]> = {
  Account: ['Id', 'SystemModstamp', 'OwnerId', 'Name', 'Website'],
  Contact: ['Id', 'SystemModstamp', 'OwnerId', 'FirstName', 'LastName', 'Email', 'AccountId'],
};

interface SyncRun {
  ctx: ExecutionRunContext;
  org: string;
  provider: CrmProvider;
  scope: string;
  base: Omit<PageContext, 'mappings' | 'counts' | 'em'>;
  processed: number;
  total: number;
}

export function salesforceStamp(v: unknown): Date | null {
  if (typeof v !== 'string' || !v) return null;
  const d = new Date(v.replace(/\+0000$/, 'Z'));
  return Number.isNaN(d.getTime()) ? null : d;
}

async function readState(
  em: EntityManager,
  org: string,
  provider: string,
  object: string,
  scope: string,
): Promise<{ high_water: Date | null; last_id: string | null } | null> {
  const [s] = await tenantSql(em, org).all<{ high_water: Date | null; last_id: string | null }>(
    `select high_water, last_id from crm_sync_state where organization_id = ? and provider = ? and object = ? and scope = ?`,
    [org, provider, object, scope],
  );
  return s ?? null;
}

async function writeState(
  em: EntityManager,
  org: string,
  provider: string,
  object: string,
  scope: string,
  highWater: Date | null,
  lastId: string | null,
): Promise<void> {
  await tenantSql(em, org).run(
    `insert into crm_sync_state (id, organization_id, provider, object, scope, high_water, last_id, updated_at)
      values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, now())
      on conflict (organization_id, provider, object, scope) do update set high_water = excluded.high_water, last_id = excluded.last_id, updated_at = now()`,
    [org, provider, object, scope, highWater, lastId],
  );
}

/** Throws when the process is stopping (the runner then hands the job to another worker). */
function checkStop(ctx: ExecutionRunContext): void {
  if (ctx.signal.aborted) throw new ExecutionError('Cancelled');
  if (ctx.draining.aborted) throw new Error('the worker is stopping');
}

/** Rows written by a sync's inbound phase from which the tables are analyzed before the outbound read. */
export const ANALYZE_AFTER_ROWS = 5_000;

/**
 * The columns whose statistics the outbound read's plans (and the inbound lookups) depend on: the
 * organization, the keys the lateral lookups probe, the owner and the change stamps. Only these,
 * from a small sample (default_statistics_target 10, this transaction only): 2.7 s → ~0.2 s after
 * a 300,000-record first sync (docs/benchmarks.md 'CRM sync (Salesforce)'); a full ANALYZE also
 * sampled 30,000 rows a table and computed every expression index's statistics. An ANALYZE with a
 * column list does not reset the table's count of changes, so autovacuum's own ANALYZE (every
 * column, the default sample) still follows the rows the sync wrote.
 */
const ANALYZED: Record<string, readonly string[]> = {
  crm_link: ['organization_id', 'source', 'entity_type', 'external_id', 'company_id', 'contact_id', 'created_at'],
  company: ['organization_id', 'id', 'owner_id', 'updated_at'],
  contact: ['organization_id', 'id', 'owner_id', 'updated_at'],
  company_contact: ['organization_id', 'company_id', 'contact_id'],
  field_value: ['organization_id', 'entity_id', 'field_id', 'updated_at'],
};

async function analyzeSynced(em: EntityManager): Promise<void> {
  await em.fork().transactional(async (tem) => {
    const sql = unscopedSql(tem, 'connection');
    await sql.run(`set local default_statistics_target = 10`);
    for (const [table, cols] of Object.entries(ANALYZED)) await sql.run(`analyze ${table} (${cols.join(', ')})`);
  });
}

/** Pages written at once, each on its own connection and transaction (below). */
export const PAGES_IN_FLIGHT = 2;

/** PostgreSQL's deadlock and serialization failures: the page's transaction is retried. */
function retryable(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '40P01' || code === '40001';
}

async function writePage(
  run: SyncRun,
  entityType: 'company' | 'contact',
  mappings: readonly ResolvedMapping[],
  counts: CrmSyncCounts,
  records: InboundRecord[],
  after: (tem: EntityManager) => Promise<void>,
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { pageCounts, failures } = await run.ctx.em.fork().transactional(async (tem) => {
        tem.setFilterParams('tenant', { organizationId: run.org });
        // The page's counts are added only when its transaction commits.
        const pageCounts = emptyCounts();
        const failures: string[] = [];
        await writeInboundPage({ ...run.base, em: tem, mappings, counts: pageCounts, failures }, entityType, records);
        await after(tem);
        // Last in the transaction: the execution's row is locked only until this page commits.
        await tallyPage(tem, run.org, run.base.executionId, entityType, pageCounts);
        return { pageCounts, failures };
      });
      for (const k of Object.keys(counts) as (keyof CrmSyncCounts)[]) {
        counts[k] += pageCounts[k];
        if (pageCounts[k] > 0) crmSyncRecords.inc({ direction: 'inbound', entity: entityType, result: k }, pageCounts[k]);
      }
      run.base.failures.push(...failures.slice(0, Math.max(0, 50 - run.base.failures.length)));
      return;
    } catch (err) {
      // Two pages written at once can wait on each other's new keys (one email in both, each page
      // inserting in its own order): PostgreSQL breaks the cycle by failing one, which is written again.
      if (!retryable(err) || attempt >= 3) throw err;
    }
  }
}

/**
 * Pages written at once, the high-water mark kept in page order. A page's transaction writes its
 * mark itself when every earlier page's mark is already committed (the usual case: page and mark
 * in one commit, as when pages were written one after the other); otherwise it commits without the
 * mark, which is written once the earlier marks are. A sync stopped at any moment therefore resumes
 * at or before the first page not committed: a page committed without its mark is read again and
 * written again, which changes nothing (its records are linked by CRM id and its values agreed, so
 * they come back unchanged — no record, link or change row twice).
 */
class PagePipeline {
  private readonly inFlight = new Set<Promise<void>>();
  /** The last started page: settles when its mark is committed (rejects when it failed). */
  private last: { marked: Promise<void>; done: boolean } = { marked: Promise.resolve(), done: true };
  private failure: unknown = null;

  constructor(
    private readonly run: SyncRun,
    private readonly depth = PAGES_IN_FLIGHT,
  ) {}

  /**
   * Starts writing a page once fewer than `depth` are in flight (throws the first failure of any
   * page). `mark` writes the page's high-water mark; `done` runs once the page is committed.
   */
  async add(
    entityType: 'company' | 'contact',
    mappings: readonly ResolvedMapping[],
    counts: CrmSyncCounts,
    records: InboundRecord[],
    mark: ((em: EntityManager) => Promise<void>) | null,
    done: () => Promise<void>,
  ): Promise<void> {
    while (this.inFlight.size >= this.depth) await Promise.race(this.inFlight);
    if (this.failure) throw this.failure;
    const previous = this.last;
    const state = { marked: null as unknown as Promise<void>, done: false };
    state.marked = (async () => {
      let markedInPage = false;
      await writePage(this.run, entityType, mappings, counts, records, async (tem) => {
        if (mark && previous.done) {
          await mark(tem);
          markedInPage = true;
        }
      });
      await previous.marked;
      if (mark && !markedInPage) await mark(this.run.ctx.em.fork());
    })();
    state.marked.then(
      () => {
        state.done = true;
      },
      () => {},
    );
    this.last = state;
    const entry: Promise<void> = state.marked
      .then(done)
      .catch((err: unknown) => {
        this.failure ??= err;
      })
      .finally(() => {
        this.inFlight.delete(entry);
      });
    this.inFlight.add(entry);
  }

  /** Waits for every page in flight; throws the first failure. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.race(this.inFlight);
    if (this.failure) throw this.failure;
  }

  /** Waits for the pages in flight without throwing (a sync that failed or is stopping). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}

async function salesforceObject(
  run: SyncRun,
  client: SalesforceClient,
  object: 'Account' | 'Contact',
  mappings: readonly ResolvedMapping[],
  counts: CrmSyncCounts,
): Promise<void> {
  const entityType = object === 'Account' ? 'company' : 'contact';
  const fields = [...new Set([...SF_BASE[object], ...mappings.map((m) => m.crmField)])];
  const state = await readState(run.ctx.em, run.org, run.provider, object, run.scope);
  const hw = state?.high_water ? new Date(state.high_water) : null;
  const lastId = state?.last_id ?? null;
  const where: string[] = [];
  // SOQL datetime literals carry seconds: read from the mark's second and skip what was written.
  if (hw) where.push(`SystemModstamp >= ${new Date(Math.floor(hw.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z')}`);
  if (run.scope !== '*') where.push(`OwnerId = '${soqlString(run.scope)}'`);
  const soql = `SELECT ${fields.join(', ')} FROM ${object}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY SystemModstamp ASC, Id ASC`;
  const page = await client.queryPage<Record<string, unknown>>({ soql });
  run.total += page.totalSize;
  await run.ctx.progress(run.processed, run.total);
  const pipeline = new PagePipeline(run);
  try {
    await salesforcePages(run, client, pipeline, page, entityType, mappings, counts, object, hw, lastId);
    await pipeline.drain();
  } finally {
    await pipeline.settle();
  }
}

async function salesforcePages(
  run: SyncRun,
  client: SalesforceClient,
  pipeline: PagePipeline,
  first: SalesforceQueryPage<Record<string, unknown>>,
  entityType: 'company' | 'contact',
  mappings: readonly ResolvedMapping[],
  counts: CrmSyncCounts,
  object: 'Account' | 'Contact',
  hw: Date | null,
  lastId: string | null,
): Promise<void> {
  let page = first;
  for (;;) {
    checkStop(run.ctx);
    // The next page is read while this one is written (the CRM's answer and the database's work
    // overlap). A failed read still leaves the pages in flight written and their marks moved (the
    // caller settles the pipeline before the failure goes on), as when pages were read one by one.
    const nextUrl = page.done ? null : page.nextRecordsUrl;
    const next = nextUrl ? client.queryPage<Record<string, unknown>>({ nextRecordsUrl: nextUrl }) : null;
    next?.catch(() => {});
    const fresh = page.records.filter((r) => {
      const stamp = salesforceStamp(r.SystemModstamp);
      if (!hw || !stamp) return true;
      if (stamp.getTime() !== hw.getTime()) return stamp.getTime() > hw.getTime();
      return lastId === null || String(r.Id) > lastId;
    });
    if (fresh.length > 0) {
      const records: InboundRecord[] = fresh.map((r) => ({
        crmId: String(r.Id),
        stamp: salesforceStamp(r.SystemModstamp),
        ownerCrmId: r.OwnerId ? String(r.OwnerId) : null,
        name: r.Name as string | null,
        website: r.Website as string | null,
        firstName: r.FirstName as string | null,
        lastName: r.LastName as string | null,
        email: r.Email as string | null,
        accountCrmIds: r.AccountId ? [String(r.AccountId)] : [],
        values: r,
      }));
      const last = fresh[fresh.length - 1]!;
      const n = page.records.length;
      // Written while the next page is read and the previous one may still be written (PagePipeline).
      await pipeline.add(
        entityType,
        mappings,
        counts,
        records,
        (em) => writeState(em, run.org, run.provider, object, run.scope, salesforceStamp(last.SystemModstamp), String(last.Id)),
        async () => {
          run.processed += n;
          await run.ctx.progress(run.processed, run.total);
        },
      );
    } else {
      run.processed += page.records.length;
      await run.ctx.progress(run.processed, run.total);
    }
    if (!next) break;
    page = await next;
  }
}

/** The v1 ids of the Affinity global fields the mappings name (`field:1234`). */
function affinityFieldIds(mappings: readonly ResolvedMapping[]): number[] {
  return [
    ...new Set(
      mappings
        .map((m) => /^field:(\d+)$/.exec(m.crmField)?.[1])
        .filter((x): x is string => !!x)
        .map(Number),
    ),
  ];
}

/** The mapped global field values of a page's records (v2, 100 records a request), as `field:1234` → plain value. */
async function affinityValues(
  client: AffinityClient,
  kind: 'organizations' | 'persons',
  ids: number[],
  fieldIds: number[],
): Promise<Map<number, Record<string, unknown>>> {
  const out = new Map<number, Record<string, unknown>>();
  if (fieldIds.length === 0) return out;
  for (const [id, values] of await client.globalFieldValues(kind, ids, fieldIds)) {
    out.set(id, Object.fromEntries(fieldIds.map((f) => [`field:${f}`, affinityPlainValue(values.get(f))])));
  }
  return out;
}

/**
 * Reads Affinity's pages one ahead: the next page is asked for while `each` handles this one (which
 * hands the page to the pipeline and returns once it is started). A failed read goes on as the
 * failure once the pages in flight are settled (the caller's `finally`).
 */
async function affinityPages<T>(
  run: SyncRun,
  read: (token: string | null) => Promise<AffinityPage<T>>,
  each: (items: T[]) => Promise<void>,
): Promise<void> {
  let page = await read(null);
  for (;;) {
    checkStop(run.ctx);
    const next = page.nextPageToken ? read(page.nextPageToken) : null;
    next?.catch(() => {});
    await each(page.items);
    if (!next) return;
    page = await next;
  }
}

async function affinityInbound(
  run: SyncRun,
  client: AffinityClient,
  settings: { accounts: boolean; contacts: boolean },
  accountM: readonly ResolvedMapping[],
  contactM: readonly ResolvedMapping[],
  result: CrmSyncResult,
): Promise<void> {
  const owned = new Set<string>();
  const mine = run.scope === '*' ? null : Number(run.scope);
  // Global field values come from v2 with the records of each page (v1 has them one record at a time).
  const accountFields = affinityFieldIds(accountM);
  const contactFields = affinityFieldIds(contactM);
  // Pages are written two at once as for Salesforce (PagePipeline), without a mark: Affinity's v1
  // has no modification filter, so every sync reads everything and writes only what differs.
  const progress = (n: number) => async () => {
    run.processed += n;
    run.total = Math.max(run.total, run.processed);
    await run.ctx.progress(run.processed, null);
  };
  if (settings.accounts || mine !== null) {
    const pipeline = new PagePipeline(run);
    try {
      await affinityPages(
        run,
        (token) => client.organizationsPage(token),
        async (all) => {
          const items = all.filter((o) => mine === null || (o.crm_owner_ids ?? []).includes(mine));
          for (const o of items) owned.add(String(o.id));
          if (!settings.accounts || items.length === 0) return progress(all.length)();
          const custom = await affinityValues(
            client,
            'organizations',
            items.map((o) => o.id),
            accountFields,
          );
          await pipeline.add(
            'company',
            accountM,
            result.accounts,
            items.map((o) => ({
              crmId: String(o.id),
              stamp: null,
              ownerCrmId: o.crm_owner_ids?.[0] !== undefined ? String(o.crm_owner_ids[0]) : null,
              name: o.name,
              website: o.domain ?? o.domains?.[0] ?? null,
              values: { ...custom.get(o.id), name: o.name, domain: o.domain ?? o.domains?.[0] ?? null },
            })),
            null,
            progress(all.length),
          );
        },
      );
      // Every organization is written before the persons are linked to their companies.
      await pipeline.drain();
    } finally {
      await pipeline.settle();
    }
  }
  if (!settings.contacts) return;
  const pipeline = new PagePipeline(run);
  try {
    await affinityPages(
      run,
      (token) => client.personsPage(token),
      async (all) => {
        // Internal persons (type 1) are the instance's users, not contacts.
        const items = all.filter(
          (p) => (p as { type?: number }).type !== 1 && (mine === null || (p.organization_ids ?? []).some((id) => owned.has(String(id)))),
        );
        if (items.length === 0) return progress(all.length)();
        const custom = await affinityValues(
          client,
          'persons',
          items.map((p) => p.id),
          contactFields,
        );
        await pipeline.add(
          'contact',
          contactM,
          result.contacts,
          items.map((p) => ({
            crmId: String(p.id),
            stamp: null,
            ownerCrmId: null,
            firstName: p.first_name,
            lastName: p.last_name,
            email: p.primary_email ?? p.emails?.[0] ?? null,
            accountCrmIds: (p.organization_ids ?? []).map(String),
            values: {
              ...custom.get(p.id),
              first_name: p.first_name,
              last_name: p.last_name,
              primary_email: p.primary_email ?? p.emails?.[0] ?? null,
            },
          })),
          null,
          progress(all.length),
        );
      },
    );
    await pipeline.drain();
  } finally {
    await pipeline.settle();
  }
}

/**
 * The summary of the whole sync from what every attempt committed (`kept`: the execution's running
 * counts), what earlier attempts had committed when this one started (`earlier`) and this attempt's
 * own counts. Salesforce resumes after its high-water mark, so every attempt read different records:
 * the kept counts are the whole sync's. Affinity has no mark and each attempt reads everything again:
 * created and updated add up (a record written by an earlier attempt comes back unchanged), while
 * this attempt's unchanged count also holds what earlier attempts wrote, and its skipped and failed
 * counts cover every record already.
 */
export function wholeSync(
  provider: CrmProvider,
  earlier: { accounts: CrmSyncCounts; contacts: CrmSyncCounts },
  current: { accounts: CrmSyncCounts; contacts: CrmSyncCounts },
  kept: { accounts: CrmSyncCounts; contacts: CrmSyncCounts },
): { accounts: CrmSyncCounts; contacts: CrmSyncCounts } {
  if (provider === 'salesforce') return kept;
  const one = (e: CrmSyncCounts, c: CrmSyncCounts): CrmSyncCounts => ({
    created: e.created + c.created,
    updated: e.updated + c.updated,
    unchanged: Math.max(0, c.unchanged - e.created - e.updated),
    skipped: c.skipped,
    failed: c.failed,
  });
  return { accounts: one(earlier.accounts, current.accounts), contacts: one(earlier.contacts, current.contacts) };
}

export function createCrmSyncHandler(
  deps: { config?: Config; writerOptions?: PushContext['writerOptions']; analyzeAfterRows?: number } = {},
): ExecutionHandler<CrmSyncResult> {
  const analyzeAfterRows = deps.analyzeAfterRows ?? ANALYZE_AFTER_ROWS;
  let config: Config | null = deps.config ?? null;
  const settingsOf = () => (config ??= loadConfig());
  return defineExecutionHandler<CrmSyncResult>({
    type: 'crmsync',
    async run(ctx) {
      const row = ctx.execution;
      const org = row.organization_id;
      const crm = await activeCrm(ctx.em);
      if (!crm) throw new ExecutionError(CRM_USERNAME_MESSAGES.notEnabled);
      const provider = crm.provider as CrmProvider;
      const settings = await readSyncSettings(ctx.em, org, provider);
      if (!settings || settings.account_mappings.length === 0 || settings.contact_mappings.length === 0)
        throw new ExecutionError(CRM_SYNC_MESSAGES.invalidSettings);
      let accountM: ResolvedMapping[];
      let contactM: ResolvedMapping[];
      try {
        accountM = await resolveMappings(ctx.em, 'company', settings.account_mappings);
        contactM = await resolveMappings(ctx.em, 'contact', settings.contact_mappings);
      } catch {
        throw new ExecutionError(CRM_SYNC_MESSAGES.invalidSettings);
      }
      const actorId = row.created_by_id;
      const actor = actorId ? await ctx.em.findOne(User, { id: actorId }) : null;
      if (!actor) throw new ExecutionError(CRM_SYNC_MESSAGES.error);
      let scope = '*';
      if (actor.role !== 'Admin') {
        const link = await ctx.em.findOne(CrmUserLink, { user: actor.id, provider });
        if (!link) throw new ExecutionError(CRM_SYNC_MESSAGES.tooltipUsername(CRM_NAMES[provider]));
        scope = link.crmUserId;
      }
      const owners = new Map(
        (await ctx.em.find(CrmUserLink, { provider })).map((l) => [l.crmUserId, typeof l.user === 'string' ? l.user : l.user.id]),
      );
      // What earlier attempts of this sync committed (kept on the execution page by page).
      const earlier = await readTally(ctx.em, org, row.id);
      const result: CrmSyncResult = emptyResult();
      const run: SyncRun = {
        ctx,
        org,
        provider,
        scope,
        processed: 0,
        total: 0,
        base: { organizationId: org, provider, actorId: actor.id, executionId: row.id, owners, failures: result.failures },
      };
      try {
        let client: PushContext['crm'];
        if (provider === 'salesforce') {
          client = { kind: 'salesforce', client: salesforceClientFor(ctx.em, settingsOf(), crm) };
          if (settings.sync_accounts) await salesforceObject(run, client.client, 'Account', accountM, result.accounts);
          if (settings.sync_contacts) await salesforceObject(run, client.client, 'Contact', contactM, result.contacts);
        } else {
          client = { kind: 'affinity', client: affinityClientFor(settingsOf(), crm) };
          await affinityInbound(
            run,
            client.client,
            { accounts: settings.sync_accounts, contacts: settings.sync_contacts },
            accountM,
            contactM,
            result,
          );
        }
        // A first sync has just written thousands of rows into tables the planner still believes
        // small (autovacuum's analyze comes later): the outbound read's per-record lookups of
        // crm_link were then planned as scans — 20,000 + 40,000 records took 186 s instead of ~20 s.
        // Fresh statistics first when the inbound phase wrote many rows.
        const written = result.accounts.created + result.accounts.updated + result.contacts.created + result.contacts.updated;
        if (written >= analyzeAfterRows) await analyzeSynced(ctx.em);
        const pushed = await pushChanges({
          em: ctx.em,
          organizationId: org,
          provider,
          executionId: row.id,
          crm: client,
          accountMappings: accountM,
          contactMappings: contactM,
          syncAccounts: settings.sync_accounts,
          syncContacts: settings.sync_contacts,
          scope,
          ownerId: scope === '*' ? null : actor.id,
          signal: ctx.signal,
          checkStop: () => checkStop(ctx),
          writerOptions: deps.writerOptions,
        });
        result.outbound = { written: pushed.written, failed: pushed.failed };
        result.failures.push(...pushed.failures.slice(0, Math.max(0, 50 - result.failures.length)));
      } catch (err) {
        if (err instanceof SalesforceError || err instanceof AffinityError) throw new ExecutionError(crmFailure(crm, err).message);
        throw err;
      }
      await ctx.progress(run.processed, run.processed);
      return { ...result, ...wholeSync(provider, earlier, result, await readTally(ctx.em, org, row.id)) };
    },
  });
}
