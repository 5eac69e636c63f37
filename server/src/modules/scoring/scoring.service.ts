// Scoring models and score runs (spec 002 §3 'Scoring model', §5, §7 'Scoring', 'Executions').
// Every statement names the organization. A run is one execution of type score (starting as draft)
// whose scope — the ideas it names, or the list's ideas under the table's filters — is kept in
// score_run with it; the handler (handler.ts) scores in batches and writes each idea's result.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import {
  SCORING_MESSAGES,
  scoreValues,
  type FieldScore,
  type ScoreFieldData,
  type ScoreModelInput,
  type ScoreRuleSet,
} from '@dealscout/shared/domain';
import type { IdeaFilters, ScoreModelDto } from '@dealscout/shared/contracts';
import { badRequest, notFound } from '../../lib/errors';
import { tenantSql, unscopedSql } from '../../db/sql';
import { createExecutions } from '../executions/commands/create-executions';
import type { Actor } from '../lists/lists.service';
import { ideaWhere } from '../records/idea-query';

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
const pgArray = (xs: readonly string[]) => `{${xs.join(',')}}`;

function toDto(r: Row): ScoreModelDto {
  return {
    id: String(r.id),
    name: String(r.name),
    description: String(r.description ?? ''),
    listCompanyId: String(r.list_id),
    ruleSets: (r.rule_sets as ScoreRuleSet[]) ?? [],
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

async function listExists(em: EntityManager, organizationId: string, listId: string): Promise<boolean> {
  const [r] = await tenantSql(em, organizationId).all<Row>(`select 1 from list_company where organization_id = ? and id = ?`, [
    organizationId,
    listId,
  ]);
  return !!r;
}

export async function listModels(em: EntityManager, organizationId: string, listId: string): Promise<ScoreModelDto[]> {
  if (!(await listExists(em, organizationId, listId))) throw notFound(SCORING_MESSAGES.listNotFound);
  const rows = await tenantSql(em, organizationId).all<Row>(
    `select * from scoring_model where organization_id = ? and list_id = ? order by created_at, id`,
    [organizationId, listId],
  );
  return rows.map(toDto);
}

export async function getModel(em: EntityManager, organizationId: string, id: string): Promise<ScoreModelDto> {
  const [r] = await tenantSql(em, organizationId).all<Row>(`select * from scoring_model where organization_id = ? and id = ?`, [
    organizationId,
    id,
  ]);
  if (!r) throw notFound(SCORING_MESSAGES.notFound);
  return toDto(r);
}

/** Enrichment fields must name an enrichment of the organization that applies to ideas. */
async function checkEnrichments(em: EntityManager, organizationId: string, ruleSets: readonly ScoreRuleSet[]): Promise<void> {
  const ids = [...new Set(ruleSets.filter((rs) => rs.fieldData.sourceType === 'enrichment').map((rs) => rs.fieldData.enrichmentId ?? ''))];
  if (ids.length === 0) return;
  if (ids.some((id) => !id)) throw badRequest(SCORING_MESSAGES.noOperator);
  const rows = await tenantSql(em, organizationId).all<Row>(`select id from enrichment where organization_id = ? and id = any(?::uuid[])`, [
    organizationId,
    pgArray(ids),
  ]);
  if (rows.length !== ids.length) throw notFound('Enrichment not found');
  for (const rs of ruleSets) {
    if (rs.fieldData.sourceType === 'enrichment' && !enrichmentPath(rs.fieldData.fieldPath)) throw badRequest(SCORING_MESSAGES.noOperator);
    if (rs.fieldData.sourceType === 'mandatory' && !mandatoryColumn(rs.fieldData.fieldPath)) throw badRequest(SCORING_MESSAGES.noOperator);
  }
}

export async function createModel(em: EntityManager, actor: Actor, listId: string, model: ScoreModelInput): Promise<ScoreModelDto> {
  if (!(await listExists(em, actor.organizationId, listId))) throw notFound(SCORING_MESSAGES.listNotFound);
  await checkEnrichments(em, actor.organizationId, model.ruleSets);
  const [r] = await tenantSql(em, actor.organizationId).all<Row>(
    `insert into scoring_model (id, organization_id, list_id, name, description, rule_sets, created_by_id, created_at, updated_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?::jsonb, ?, clock_timestamp(), clock_timestamp()) returning *`,
    [actor.organizationId, listId, model.name.trim(), model.description ?? '', JSON.stringify(model.ruleSets), actor.userId],
  );
  return toDto(r!);
}

export async function updateModel(em: EntityManager, actor: Actor, id: string, model: ScoreModelInput): Promise<ScoreModelDto> {
  await getModel(em, actor.organizationId, id);
  await checkEnrichments(em, actor.organizationId, model.ruleSets);
  const [r] = await tenantSql(em, actor.organizationId).all<Row>(
    `update scoring_model set name = ?, description = ?, rule_sets = ?::jsonb, updated_at = clock_timestamp() where organization_id = ? and id = ? returning *`,
    [model.name.trim(), model.description ?? '', JSON.stringify(model.ruleSets), actor.organizationId, id],
  );
  return toDto(r!);
}

/** Removes the model; its results go with it (the trigger idea_score_cascade on scoring_model, Migration20261130090000). */
export async function deleteModel(em: EntityManager, actor: Actor, id: string): Promise<void> {
  await getModel(em, actor.organizationId, id);
  await tenantSql(em, actor.organizationId).all(`delete from scoring_model where organization_id = ? and id = ?`, [
    actor.organizationId,
    id,
  ]);
}

// ---------- reading an idea's values ----------

/** The idea columns a mandatory field may read: name, website, domain, status, shortListed, or data.<column>. */
export function mandatoryColumn(path: string): string | null {
  const direct: Record<string, string> = {
    name: 'r.name',
    website: 'r.website',
    domain: 'r.domain',
    status: 'r.status',
    shortListed: 'r.short_listed',
  };
  if (direct[path]) return direct[path];
  return /^data\.[^\s]{1,200}$/.test(path) ? path : null;
}

/** '$.result.industry' or '$.result.items[0].name' → the keys of `#>` (the enrichment result's value holds { result }). */
export function enrichmentPath(path: string): string[] | null {
  const m = /^\$((?:\.[A-Za-z0-9_\- ]+|\[\d+\])+)$/.exec(path.trim());
  if (!m) return null;
  return [...m[1]!.matchAll(/\.([A-Za-z0-9_\- ]+)|\[(\d+)\]/g)].map((x) => x[1] ?? x[2]!);
}

/** A value read from the database as the scorer sees it (jsonb: numbers, text, booleans, arrays). */
export type IdeaValues = Map<string, unknown>;
export const fieldKey = (f: ScoreFieldData) => `${f.sourceType}:${f.enrichmentId ?? ''}:${f.fieldPath}`;

export interface IdeaForScoring {
  id: string;
  values: IdeaValues;
}

/**
 * One batch of ideas in id order after `afterId`, with the value of every field the model reads: idea
 * columns, the source row's data columns, and enrichment results by path (one lateral read of the
 * result per enrichment field).
 */
export async function readIdeaBatch(
  em: EntityManager,
  organizationId: string,
  scope: { listId: string; ideaIds: string[] | null; filters: IdeaFilters | null },
  ruleSets: readonly ScoreRuleSet[],
  afterId: string | null,
  limit: number,
): Promise<IdeaForScoring[]> {
  const where = ideaWhere(organizationId, scope.listId, scope.ideaIds ? { ids: scope.ideaIds } : (scope.filters ?? {}));
  const fields = [...new Map(ruleSets.map((rs) => [fieldKey(rs.fieldData), rs.fieldData])).values()];
  const quoteKeys = (keys: string[]) => `{${keys.map((k) => `"${k.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
  const cols: string[] = [];
  const colParams: unknown[] = [];
  const joins: string[] = [];
  const joinParams: unknown[] = [];
  fields.forEach((f, n) => {
    if (f.sourceType === 'mandatory') {
      const col = mandatoryColumn(f.fieldPath);
      if (!col) cols.push(`null::jsonb as v${n}`);
      else if (col.startsWith('data.')) {
        cols.push(`r.data -> ? as v${n}`);
        colParams.push(col.slice(5));
      } else cols.push(`to_jsonb(${col}) as v${n}`);
      return;
    }
    const keys = enrichmentPath(f.fieldPath);
    if (!keys || !f.enrichmentId) {
      cols.push(`null::jsonb as v${n}`);
      return;
    }
    cols.push(`e${n}.v as v${n}`);
    joins.push(`left join lateral (select er.value #> ?::text[] as v from enrichment_result er
                   where er.organization_id = r.organization_id and er.enrichment_id = ?::uuid and er.entity_id = r.id and
                     er.entity_type = 'idea') e${n} on true`);
    joinParams.push(quoteKeys(keys), f.enrichmentId);
  });
  const after = afterId ? ' and r.id > ?' : '';
  const rows = await tenantSql(em, organizationId).all<Row>(
    `select r.id${cols.length ? ', ' + cols.join(', ') : ''} from idea r ${joins.join(' ')} ${where.text}${after} order by r.id limit ?`,
    [...colParams, ...joinParams, ...where.params, ...(afterId ? [afterId] : []), limit],
  );
  return rows.map((row) => ({ id: String(row.id), values: new Map(fields.map((f, n) => [fieldKey(f), row[`v${n}`]])) }));
}

export interface ScoredIdea {
  id: string;
  totalScore: number;
  fields: FieldScore[];
}

export function scoreIdeas(ruleSets: readonly ScoreRuleSet[], ideas: readonly IdeaForScoring[]): ScoredIdea[] {
  return ideas.map((idea) => ({ id: idea.id, ...scoreValues(ruleSets, (f) => idea.values.get(fieldKey(f))) }));
}

/**
 * What a writer of idea_score runs in its transaction before it reads the ideas it scores (`?`: the
 * list's id): the list's lock, shared among writers. idea_score has no foreign key to idea or to
 * scoring_model; deleting ideas or models takes their lists' lock exclusively, so it waits for the
 * writers in flight to commit before it deletes their results, and a writer that starts later reads
 * the list without the deleted ideas and models (Migration20261130060000 and Migration20261130090000,
 * whose triggers name the same key). A writer writes only for ideas and a model its statement reads.
 */
export const SCORE_LIST_LOCK = `select pg_advisory_xact_lock_shared(hashtextextended('idea-score:' || ?::text, 0))`;

/**
 * Writes the batch's results: one row per idea and model, inserted or replaced (a retried batch writes
 * the same), under the list's score lock (SCORE_LIST_LOCK: the ideas were read before it, so a delete
 * of one of them in between is waited for by neither; the worker-side reference path, for tests).
 */
export async function writeScores(
  em: EntityManager,
  organizationId: string,
  listId: string,
  modelId: string,
  executionId: string,
  scored: readonly ScoredIdea[],
): Promise<void> {
  if (scored.length === 0) return;
  const items = scored.map((s) => [s.id, s.totalScore, s.fields]);
  await em.fork().transactional(async (tem) => {
    await unscopedSql(tem, 'connection').run(SCORE_LIST_LOCK, [listId]);
    // Only the ideas that still exist in the list, for the model while it exists in the list (read after the lock).
    await tenantSql(tem, organizationId).bound(
      `insert into idea_score (organization_id, idea_id, model_id, execution_id, status, status_message, total_score, details, updated_at)
       select $1::uuid, i.id, $2::uuid, $3::uuid, 'completed', null, (x.value->>1)::double precision, (x.value->2)::json, clock_timestamp()
         from jsonb_array_elements($4::jsonb) x join idea i on i.organization_id = $1::uuid and i.list_id = $5::uuid and i.id = (x.value->>0)::uuid
        where exists (select 1 from scoring_model m where m.organization_id = $1::uuid and m.id = $2::uuid and m.list_id = $5::uuid)
       on conflict (organization_id, idea_id, model_id) do update
         set execution_id = excluded.execution_id, status = excluded.status, status_message = null, total_score = excluded.total_score,
           details = excluded.details, updated_at = excluded.updated_at`,
      [organizationId, modelId, executionId, JSON.stringify(items), listId],
    );
  });
}

// ---------- starting a run ----------

export interface ExecuteInput {
  scoringModelId: string;
  entityIds: string[];
  runAll: boolean;
  ideasFilter?: Record<string, unknown> | null;
}

export async function executeModel(
  em: EntityManager,
  boss: PgBoss,
  actor: Actor,
  input: ExecuteInput,
): Promise<{ executionId: string; total: number }> {
  const model = await getModel(em, actor.organizationId, input.scoringModelId);
  return em.transactional(async (tem) => {
    const filters = input.runAll ? ((input.ideasFilter ?? {}) as IdeaFilters) : null;
    const ids = input.runAll ? null : [...new Set(input.entityIds)];
    const where = ideaWhere(actor.organizationId, model.listCompanyId, ids ? { ids } : (filters ?? {}));
    const [c] = await tenantSql(tem, actor.organizationId).all<{ n: string }>(
      `select count(*) as n from idea r ${where.text}`,
      where.params,
    );
    const total = Number(c?.n ?? 0);
    if (total === 0) throw badRequest(input.runAll ? SCORING_MESSAGES.noIdeas : SCORING_MESSAGES.noIdeasOn);
    const [started] = await createExecutions(tem, boss, {
      organizationId: actor.organizationId,
      createdById: actor.userId,
      type: 'score',
      typeId: model.id,
      entityType: 'list',
      targets: [{ entityId: model.listCompanyId }],
    });
    await tenantSql(tem, actor.organizationId).all(
      `insert into score_run (id, organization_id, model_id, list_id, idea_ids, filters, created_at) values (?, ?, ?, ?, ?::text[],
        ?::jsonb, clock_timestamp())`,
      [
        started!.executionId,
        actor.organizationId,
        model.id,
        model.listCompanyId,
        ids ? pgArray(ids) : null,
        filters ? JSON.stringify(filters) : null,
      ],
    );
    await tenantSql(tem, actor.organizationId).all(`update execution set total = ? where organization_id = ? and id = ?`, [
      total,
      actor.organizationId,
      started!.executionId,
    ]);
    return { executionId: started!.executionId, total };
  });
}
