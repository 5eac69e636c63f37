// The execution handler of enrichments: one execution = one enrichment for one record.
//
//   run()     loads the enrichment and the record, renders the rich prompt (field boxes → the
//             record's values, enrich boxes → other enrichments' results, running those first when
//             autorun), calls the model (strict JSON schema) or the agent / company-details lookup,
//             and returns the result. Model calls are charged with `${executionId}:…` keys, so a
//             retried job is not charged again for a call it repeats.
//   commit()  in the transaction that completes the execution (exactly once): stores value.result,
//             writes the assigned field per its reconciliation when the enrichment is primary, and
//             hands the result and field events to the runner, which publishes them with the group.
//
// Errors that a retry cannot fix (no provider configured, credits used up, a required box with no
// value, an answer that does not parse) end the execution at once as 'error' with the message, and
// the result shows it; errors that may pass (rate limits, provider errors, timeouts) are retried
// by the runner, and after the last attempt the execution becomes 'error' (the dead-letter queue).
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ENRICHMENT_MESSAGES,
  coerceFieldValue,
  enrichmentRunsOn,
  enrichmentResultValue,
  fieldValueOfResult,
  promptText,
  schemaItemsToJsonSchema,
  valueAtPath,
  realtimePaths,
  type FieldDataType,
  type RunnableEntityType,
  type RichPromptNode,
  type EnrichmentType,
} from '@dealscout/shared/domain';
import type { CompanyDto, ContactDto } from '@dealscout/shared/contracts';
import { loadConfig, type Config } from '../../config';
import { getLlm, LlmError, type LlmPort } from '../../providers/llm';
import { defineExecutionHandler, ExecutionError, type ExecutionHandler, type ExecutionRunContext } from '../executions/runner';
import { EXECUTION_COLUMNS, executionEvent, type ExecutionRow } from '../executions/execution.presenter';
import { publish, type PublishEvent } from '../realtime/publish';
import { companyRows, contactRows } from '../records/presenter';
import { writeFieldValue } from '../fields/field-values';
import { FieldDefinition } from '../fields/field.entity';
import { Enrichment, type IEnrichment } from './enrichment.entity';
import { RESULT_COLUMNS, RESULT_FROM, RESULT_SELECT, resultEvent, toResultDto } from './enrichment.presenter';
import {
  runResearchAgent,
  runDeepResearchAgent,
  lookupCompanyDetails,
  createAgentPorts,
  agentLimitsFromConfig,
  AgentError,
  type AgentPorts,
  type AgentSource,
} from './agents';
import { tenantSql } from '../../db/sql';
import { runEventsOf } from '../executions/runs';

export interface EnrichmentHandlerDeps {
  /** The process's settings (default: the environment). */
  config?: Config;
  /** The LLM port (default: getLlm of the llm module). */
  llm?: (em: EntityManager) => LlmPort;
  /** Web fetch, search and company-details ports of the agents (default: createAgentPorts(config), built once). */
  agentPorts?: () => AgentPorts;
}

/** How deep autorun may chain (an enrich box whose enrichment has its own boxes…). */
const MAX_DEPTH = 3;

type Sources = AgentSource[];

interface ComputedResult {
  enrichmentId: string;
  result: Record<string, unknown>;
  sources: Sources;
}

/** What run() hands to commit(). */
export interface EnrichmentRunOutcome {
  kind: 'done';
  results: ComputedResult[];
}

/** An idea as the handler reads it (spec 002 §3 'Idea'): its name, website, domain and the source row's other columns. */
export interface IdeaRecord {
  id: string;
  name: string;
  website: string;
  domain: string;
  data: Record<string, unknown>;
  fields: Record<string, never>;
}

type RecordDto = (CompanyDto | ContactDto | IdeaRecord) & Record<string, unknown>;

/** Ideas by id (one statement for a claimed batch). */
async function ideaRows(em: EntityManager, organizationId: string, ids: readonly string[]): Promise<IdeaRecord[]> {
  const rows = await tenantSql(em, organizationId).all<{
    id: string;
    name: string;
    website: string;
    domain: string;
    data: Record<string, unknown> | null;
  }>(`select id, name, website, domain, data from idea where organization_id = ? and id = any(?::uuid[])`, [
    organizationId,
    `{${ids.join(',')}}`,
  ]);
  return rows.map((r) => ({ id: String(r.id), name: r.name, website: r.website, domain: r.domain, data: r.data ?? {}, fields: {} }));
}

class Failure extends Error {}

/** The record's value of a field: a built-in column or a custom value. */
/**
 * An idea's value of a (company) field: ideas have no custom values, so a field box reads the
 * built-in column of the same name (name, website, domain) or the source row's column named like
 * the field's key or label (a CSV's extra column).
 */
export function ideaFieldValue(idea: IdeaRecord, field: { builtInColumn?: string | null; key: string; label?: string }): unknown {
  const col = field.builtInColumn ?? field.key;
  if (col === 'name' || col === 'website' || col === 'domain') return idea[col];
  const want = [field.key, field.label ?? ''].map((x) => x.trim().toLowerCase()).filter(Boolean);
  const k = Object.keys(idea.data).find((x) => want.includes(x.trim().toLowerCase()));
  return k === undefined ? null : (idea.data[k] ?? null);
}

export function fieldValue(rec: RecordDto, field: { id: string; builtInColumn?: string | null; key: string }): unknown {
  const record = rec as (CompanyDto | ContactDto) & Record<string, unknown>;
  if (field.builtInColumn) {
    const col = field.builtInColumn;
    const camel = col.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    if (col === 'owner_id') return record.owner ? `${record.owner.firstName} ${record.owner.lastName}`.trim() : null;
    return record[camel] ?? record[col] ?? record[field.key] ?? null;
  }
  const v = record.fields[field.id];
  return v?.value ?? null;
}

const isEmpty = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** A short description of the record, so the model knows what it is enriching. */
function recordContext(entityType: RunnableEntityType, r: RecordDto): string {
  if (entityType === 'company') {
    const c = r as CompanyDto;
    return `Company: ${c.name}\nWebsite: ${c.website}\nDomain: ${c.domain}`;
  }
  if (entityType === 'idea') {
    const i = r as IdeaRecord;
    const extra = Object.entries(i.data ?? {})
      .filter(([, v]) => v !== null && v !== undefined && v !== '')
      .slice(0, 30)
      .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`.slice(0, 500));
    return [`Company: ${i.name}`, `Website: ${i.website}`, `Domain: ${i.domain}`, ...extra].join('\n');
  }
  const c = r as ContactDto;
  const company = c.primaryCompany ? `\nCompany: ${c.primaryCompany.name} (${c.primaryCompany.website})` : '';
  return `Contact: ${c.firstName} ${c.lastName}\nEmail: ${c.email}${company}`;
}

export class Run {
  private readonly computed = new Map<string, ComputedResult>();
  private readonly records = new Map<string, RecordDto>();

  constructor(
    private readonly ctx: ExecutionRunContext,
    private readonly llm: LlmPort,
    private readonly agentPorts: () => AgentPorts,
    private readonly config: Config,
  ) {}

  private get em() {
    return this.ctx.em;
  }
  private get org() {
    return this.ctx.execution.organization_id;
  }

  async record(entityType: RunnableEntityType, id: string): Promise<RecordDto> {
    let r = this.records.get(id);
    if (!r) {
      // The records of the whole claimed batch are read together (once, by the first execution that asks).
      const org = this.org;
      const ids = [
        ...new Set(
          this.ctx.batch.filter((x) => x.organization_id === org && x.entity_type === entityType && x.entity_id).map((x) => x.entity_id!),
        ),
      ];
      const load = (list: string[]) =>
        (entityType === 'company'
          ? companyRows(this.em, org, list)
          : entityType === 'idea'
            ? ideaRows(this.em, org, list)
            : contactRows(this.em, org, list)) as Promise<RecordDto[]>;
      const row = ids.includes(id)
        ? (await this.ctx.memo(`records:${org}:${entityType}`, async () => new Map((await load(ids)).map((x) => [x.id, x])))).get(id)
        : (await load([id]))[0];
      if (!row) throw new Failure(`The ${entityType} no longer exists.`);
      r = row as RecordDto;
      this.records.set(id, r);
    }
    return r;
  }

  /** Runs an enrichment for the record (the execution's own one, or a dependency with autorun). */
  async compute(e: IEnrichment, entityType: RunnableEntityType, entityId: string, depth: number, chain: string[]): Promise<ComputedResult> {
    const done = this.computed.get(e.id);
    if (done) return done;
    if (chain.includes(e.id) || depth > MAX_DEPTH) throw new Failure(`The enrichment "${e.name}" depends on itself through its prompt.`);
    const record = await this.record(entityType, entityId);
    const step = depth === 0 ? 'main' : `dep:${e.id}`;
    const chargeKey = `${this.ctx.execution.id}:${step}`;
    const schema = e.data.jsonSchema ?? schemaItemsToJsonSchema(e.data.schema ?? []);
    let out: { result: Record<string, unknown>; sources: Sources };
    const type = e.enrichmentType as EnrichmentType;
    if (type === 'mixrankCompanyDetails') {
      if (entityType === 'contact') throw new Failure(ENRICHMENT_MESSAGES.linkedinOn);
      const c = record as unknown as CompanyDto | IdeaRecord;
      const ports = this.ports();
      const r = await lookupCompanyDetails({
        provider: ports.companyDetails,
        organizationId: this.org,
        query: { website: c.website || c.domain },
        signal: this.ctx.signal,
      });
      out = { result: enrichmentResultValue(r.result), sources: r.sources };
    } else {
      const objective = await this.render(e, entityType, entityId, depth, [...chain, e.id]);
      const context = recordContext(entityType, record);
      if (type === 'llm') {
        const res = await this.llm.complete({
          organizationId: this.org,
          model: e.llmModelId || 'default',
          messages: [
            {
              role: 'system',
              content:
                `You enrich CRM records for a sales and M&A team. Answer the request about the ${entityType} below with JSON ` +
                `that matches the response schema. Use only what you know; say so in the answer when you do not know.`,
            },
            { role: 'user', content: `${context}\n\nRequest:\n${objective}` },
          ],
          responseSchema: { name: 'enrichment', schema },
          // An idea's plain-text answer is kept as its answer (spec 002 §4 'Idea enrichment results').
          textAnswer: entityType === 'idea',
          signal: this.ctx.signal,
          chargeKey: `${chargeKey}:llm`,
          priority: this.ctx.claimedAt,
        });
        out = { result: enrichmentResultValue(res.content ?? ''), sources: [] };
      } else {
        const ports = this.ports();
        const opts = {
          llm: this.llm,
          organizationId: this.org,
          model: e.llmModelId || 'default',
          objective: `${context}\n\n${objective}`,
          responseSchema: { name: 'enrichment', schema },
          web: ports.web,
          search: ports.search,
          signal: this.ctx.signal,
          chargeKeyPrefix: chargeKey,
          limits: agentLimitsFromConfig(this.config, type === 'agent' ? 'agent' : 'deepresearchagent'),
        };
        const r = type === 'agent' ? await runResearchAgent(opts) : await runDeepResearchAgent(opts);
        out = { result: enrichmentResultValue(r.result), sources: r.sources };
      }
    }
    const computed = { enrichmentId: e.id, result: out.result, sources: out.sources };
    this.computed.set(e.id, computed);
    return computed;
  }

  private ports(): AgentPorts {
    return this.agentPorts();
  }

  /** The prompt as text: field boxes and enrich boxes replaced by values (autorun first; required ones must have a value). */
  async render(e: IEnrichment, entityType: RunnableEntityType, entityId: string, depth: number, chain: string[]): Promise<string> {
    const prompt = e.data.prompt;
    if (prompt == null) return '';
    if (typeof prompt === 'string') return prompt;
    const parts: string[] = [];
    for (const node of prompt as RichPromptNode[]) {
      if (node.type === 'text') parts.push(node.text);
      else if (node.type === 'field-box') parts.push(promptText(await this.fieldBox(node, entityType, entityId, depth, chain)));
      else parts.push(promptText(await this.enrichBox(node, entityType, entityId, depth, chain)));
    }
    return parts.join('');
  }

  private async fieldBox(
    node: Extract<RichPromptNode, { type: 'field-box' }>,
    entityType: RunnableEntityType,
    entityId: string,
    depth: number,
    chain: string[],
  ): Promise<unknown> {
    const field = await this.ctx.memo(`field:${node.fieldId}`, () => this.em.findOne(FieldDefinition, { id: node.fieldId }));
    if (!field) {
      if (node.required) throw new Failure('A field used in the prompt no longer exists.');
      return '';
    }
    const record = await this.record(entityType, entityId);
    let v = entityType === 'idea' ? ideaFieldValue(record as unknown as IdeaRecord, field) : fieldValue(record, field);
    // (An idea's field box reads the idea; the field's primary enrichment runs on companies.)
    if (isEmpty(v) && node.autorun && entityType !== 'idea') {
      const primary = await this.em.findOne(Enrichment, { field: field.id, isPrimary: true });
      if (primary && !chain.includes(primary.id))
        v = fieldValueOfResult((await this.compute(primary, entityType, entityId, depth + 1, chain)).result);
    }
    if (isEmpty(v) && node.required) throw new Failure(`The field "${field.label}" has no value for this ${entityType}.`);
    return v;
  }

  private async enrichBox(
    node: Extract<RichPromptNode, { type: 'enrich-box' }>,
    entityType: RunnableEntityType,
    entityId: string,
    depth: number,
    chain: string[],
  ): Promise<unknown> {
    const dep = await this.em.findOne(Enrichment, { id: node.enrichmentId });
    if (!dep) {
      if (node.required) throw new Failure('An enrichment used in the prompt no longer exists.');
      return '';
    }
    let result: Record<string, unknown> | null = this.computed.get(dep.id)?.result ?? null;
    if (!result) {
      const [row] = await tenantSql(this.em, this.org).all<{ value: { result: Record<string, unknown> | null } | null }>(
        `select value from enrichment_result where organization_id = ? and enrichment_id = ? and entity_id = ? and status = 'complete'`,
        [this.org, dep.id, entityId],
      );
      result = row?.value?.result ?? null;
    }
    if (!result && node.autorun) result = (await this.compute(dep, entityType, entityId, depth + 1, chain)).result;
    const v = result ? valueAtPath(result, node.path) : undefined;
    if (isEmpty(v) && node.required) throw new Failure(`The enrichment "${dep.name}" has no result for this ${entityType}.`);
    return v ?? '';
  }

  results(): ComputedResult[] {
    return [...this.computed.values()];
  }
}

/** Ends an execution at once as 'error' with a message (no retry), with its result showing the error. */
async function failNow(em: EntityManager, row: ExecutionRow, message: string): Promise<void> {
  await em.fork().transactional(async (tem) => {
    const [x] = await tenantSql(tem, row.organization_id).all<ExecutionRow>(
      `update execution set status = 'error', status_message = ?, completed_at = clock_timestamp(), updated_at = clock_timestamp()
        where id = ? and organization_id = ? and status = 'processing' returning ${EXECUTION_COLUMNS}`,
      [message, row.id, row.organization_id],
    );
    if (!x) return;
    await tenantSql(tem, row.organization_id).all(
      `update enrichment_result set status = 'error', status_message = ?, updated_at = clock_timestamp()
        where organization_id = ? and enrichment_id = ? and entity_id = ?`,
      [message, row.organization_id, row.type_id, row.entity_id],
    );
    const results = await tenantSql(tem, row.organization_id).all<Record<string, unknown>>(
      `select ${RESULT_SELECT} from ${RESULT_FROM} where r.organization_id = ? and r.enrichment_id = ? and r.entity_id = ?`,
      [row.organization_id, row.type_id, row.entity_id],
    );
    const runs = await runEventsOf(tem, [x]);
    await publish(tem, row.organization_id, [
      executionEvent(x),
      ...results.map((r) => resultEvent(row.organization_id, toResultDto(r))),
      ...runs.flatMap((r) => r.events),
    ]);
  });
}

/** A result to write, with the execution that computed it. */
interface ResultEntry {
  execution: ExecutionRow;
  r: ComputedResult;
}

/** A written result's row, with the field its enrichment fills (what the write-back needs). */
type WrittenResult = Record<string, unknown> & {
  enrichment_id: string;
  entity_id: string;
  f_field_id: string | null;
  f_primary: boolean | null;
  f_data_type: string | null;
  f_reconciliation: string | null;
  f_built_in: string | null;
  f_slot: number | null;
  f_has_value: boolean | null;
};

/**
 * Upserts the results of a group of executions of one organization (complete) in one statement, and
 * reads the field each enrichment fills; answers one row per entry, in order (null: the enrichment is
 * gone). The entries' (enrichment, record) pairs must be distinct (one statement updates a row once).
 * A result keeps the execution of its latest own run: a dependency computed on the way (autorun) leaves it.
 */
async function upsertResults(em: EntityManager, org: string, entries: readonly ResultEntry[]): Promise<(WrittenResult | null)[]> {
  const rows = await tenantSql(em, org).bound<WrittenResult>(
    `with req as (
       select (x->>'enrichment')::uuid as enrichment_id, x->>'entityType' as entity_type, (x->>'entity')::uuid as entity_id,
              (x->>'execution')::uuid as execution_id, x->'value' as value, x->'sources' as sources, t.n
         from jsonb_array_elements($2::jsonb) with ordinality as t(x, n)
     ), up as (
       insert into enrichment_result (id, organization_id, enrichment_id, entity_type, entity_id, execution_id, status,
         status_message, value, sources, updated_at)
       select gen_random_uuid(), $1::uuid, e.id, q.entity_type, q.entity_id, q.execution_id, 'complete', null, q.value, q.sources,
              clock_timestamp()
         from req q join enrichment e on e.id = q.enrichment_id and e.organization_id = $1::uuid
        order by q.n
       on conflict (organization_id, enrichment_id, entity_id) do update set status = 'complete', status_message = null,
         value = excluded.value, sources = excluded.sources,
         execution_id = coalesce(excluded.execution_id, enrichment_result.execution_id), updated_at = clock_timestamp()
       returning ${RESULT_COLUMNS}
     ), fd as (
       select q.n, e.field_id as f_field_id, e.is_primary as f_primary, f.data_type as f_data_type,
              f.config->>'reconciliation' as f_reconciliation, f.built_in_column as f_built_in, f.slot as f_slot,
              exists (select 1 from field_value v where v.organization_id = e.organization_id and v.field_id = e.field_id
                        and v.entity_id = q.entity_id and v.value is not null and v.value <> 'null'::jsonb) as f_has_value
         from req q join enrichment e on e.id = q.enrichment_id and e.organization_id = $1::uuid
         join field_definition f on f.id = e.field_id and f.organization_id = e.organization_id
     )
     select up.*, fd.* from up join req q on q.enrichment_id = up.enrichment_id and q.entity_id = up.entity_id
       left join fd on fd.n = q.n`,
    [
      org,
      JSON.stringify(
        entries.map(({ execution, r }) => ({
          enrichment: r.enrichmentId,
          entityType: execution.entity_type,
          entity: execution.entity_id,
          execution: r.enrichmentId === execution.type_id ? execution.id : null,
          value: { result: r.result },
          sources: r.sources,
        })),
      ),
    ],
  );
  const byKey = new Map(rows.map((row) => [`${String(row.enrichment_id)}:${String(row.entity_id)}`, row]));
  return entries.map(({ execution, r }) => byKey.get(`${r.enrichmentId}:${execution.entity_id}`) ?? null);
}

/**
 * Writes the results (complete) of a group of executions of one organization, and the assigned fields
 * of primary enrichments per reconciliation; answers their events (the runner publishes them with the
 * group): per execution, its results' events, then its fields'. The results of the whole group are
 * one statement; a group in which two executions wrote the same (enrichment, record) — a dependency
 * computed on the way and run on its own too — is written one execution at a time.
 */
async function commitResults(
  em: EntityManager,
  items: readonly { execution: ExecutionRow; result: EnrichmentRunOutcome | null }[],
): Promise<PublishEvent[]> {
  const done = items.filter((i): i is { execution: ExecutionRow; result: EnrichmentRunOutcome } => i.result?.kind === 'done');
  if (done.length === 0) return [];
  const org = done[0]!.execution.organization_id;
  const entries = done.flatMap(({ execution, result }) => result.results.map((r) => ({ execution, r })));
  const keys = new Set(entries.map(({ execution, r }) => `${r.enrichmentId}:${execution.entity_id}`));
  if (keys.size < entries.length && done.length > 1) {
    const events: PublishEvent[] = [];
    for (const item of done) events.push(...(await commitResults(em, [item])));
    return events;
  }
  const written = await upsertResults(em, org, entries);
  const events: PublishEvent[] = [];
  let i = 0;
  for (const { execution, result } of done) {
    const own: PublishEvent[] = [];
    for (const r of result.results) {
      const row = written[i++];
      if (!row) continue;
      // Complete: the DTO needs no execution state.
      own.unshift(resultEvent(org, toResultDto(row)));
      const field = await writeBack(em, execution, r, row);
      if (field) own.push(field);
    }
    events.push(...own);
  }
  return events;
}

/** Writes the field a primary enrichment fills (per its reconciliation) and answers its event, or null. */
async function writeBack(em: EntityManager, execution: ExecutionRow, r: ComputedResult, row: WrittenResult): Promise<PublishEvent | null> {
  // Ideas have no field values: an idea enrichment's result is its only output.
  const entityType = execution.entity_type as RunnableEntityType;
  if (entityType === 'idea' || !row.f_field_id || !row.f_primary || row.f_built_in) return null;
  const org = execution.organization_id;
  const entityId = execution.entity_id!;
  const coerced = coerceFieldValue(row.f_data_type as FieldDataType, fieldValueOfResult(r.result));
  if (!coerced.ok || coerced.value === null) return null;
  if (row.f_reconciliation === 'keep_existing' && row.f_has_value) return null;
  const field = { id: row.f_field_id, dataType: row.f_data_type!, slot: row.f_slot, builtInColumn: null };
  // The one write path of custom values (keeps the record's typed copy in step), with the enrichment's outcome.
  const dto = await writeFieldValue(em, {
    organizationId: org,
    entityType,
    entityId,
    field,
    value: coerced.value,
    meta: {
      status: 'completed',
      statusMessage: null,
      infoValue: r.result,
      details: { enrichmentId: r.enrichmentId, executionId: execution.id, sources: r.sources },
    },
  });
  return {
    path: realtimePaths.entities(org, entityType),
    kind: 'field.value',
    key: `field:${row.f_field_id}:${entityId}`,
    data: { entityType, entityId, fieldId: row.f_field_id, value: dto },
  };
}

/** Messages of errors a retry cannot fix. */
function finalMessage(err: unknown): string | null {
  if (err instanceof Failure) return err.message;
  if (err instanceof LlmError)
    return err.retryable || err.kind === 'rate_limited' || err.kind === 'timeout' || err.kind === 'provider' ? null : err.message;
  if (err instanceof AgentError) return err.retryable ? null : err.message;
  return null;
}

export function createEnrichmentHandler(deps: EnrichmentHandlerDeps = {}): ExecutionHandler<EnrichmentRunOutcome | null> {
  let config: Config | null = deps.config ?? null;
  const settings = () => (config ??= loadConfig());
  let ports: AgentPorts | null = null;
  const agentPorts = deps.agentPorts ?? (() => (ports ??= createAgentPorts(settings())));
  return defineExecutionHandler<EnrichmentRunOutcome | null>({
    type: 'enrichment',
    async run(ctx) {
      const row = ctx.execution;
      // Read once for the executions of the batch (they share their enrichment, read as of the claim).
      const e = row.type_id ? await ctx.memo(`enrichment:${row.type_id}`, () => ctx.em.findOne(Enrichment, { id: row.type_id! })) : null;
      if (!e) {
        await failNow(ctx.em, row, ENRICHMENT_MESSAGES.notFound);
        return null;
      }
      const entityType = row.entity_type as RunnableEntityType;
      if (
        (entityType !== 'company' && entityType !== 'contact' && entityType !== 'idea') ||
        !row.entity_id ||
        !enrichmentRunsOn(e.entityType, entityType)
      ) {
        await failNow(ctx.em, row, ENRICHMENT_MESSAGES.cannotRunOn);
        return null;
      }
      const llm = deps.llm ? deps.llm(ctx.em) : getLlm({ em: ctx.em, config: settings(), memo: ctx.memo, stopping: ctx.draining });
      const run = new Run(ctx, llm, agentPorts, settings());
      try {
        await run.compute(e, entityType, row.entity_id, 0, []);
      } catch (err) {
        // Cancelled, or the process is stopping (the runner releases the job to another worker).
        if (ctx.signal.aborted || ctx.draining.aborted) throw err;
        const message = finalMessage(err);
        if (message !== null) {
          await failNow(ctx.em, row, message);
          return null;
        }
        if (err instanceof LlmError || err instanceof AgentError) throw new ExecutionError(err.message);
        throw err;
      }
      return { kind: 'done', results: run.results() };
    },
    async commit(em, execution, outcome, events) {
      events.push(...(await commitResults(em, [{ execution, result: outcome }])));
    },
    async commitMany(em, items, events) {
      events.push(...(await commitResults(em, items)));
    },
  });
}
