// Enrichments: create, update, delete, colour and list columns, field assignment (one primary per
// field, the first assigned), the table, and the results of records. Running is in execute.ts.
// The use cases of enrichments.routes.ts take one EnrichmentContext: the request's EntityManager,
// the config and the caller.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import {
  ENRICHMENT_MESSAGES,
  COMPANY_INFO_SCHEMA,
  nextEnrichmentName,
  runCost,
  type RunCost,
  richPromptIsEmpty,
  schemaItemProblems,
  schemaItemsToJsonSchema,
  type EnrichmentSchemaItem,
  type RichPromptNode,
} from '@dealscout/shared/domain';
import type { z } from 'zod';
import type {
  EnrichmentConfigDto,
  EnrichmentEstimateBody,
  EnrichmentFormBody,
  EnrichmentListBody,
  EnrichmentResultsBody,
  ExecutionDto,
  SchemaItemDto,
} from '@dealscout/shared/contracts';
import type { Config } from '../../config';
import { badRequest, notFound } from '../../lib/errors';
import { FieldDefinition } from '../fields/field.entity';
import { Enrichment, type IEnrichment } from './enrichment.entity';
import { findConfig } from './configs';
import { publishFieldsChanged } from '../fields/fields-events';
import { tenantSql } from '../../db/sql';
import { assertOwned, assertPromptRefsOwned } from './owned-refs';
import { loadResults } from './enrichment.presenter';
import { EXECUTION_COLUMNS, toExecutionDto, type ExecutionRow } from '../executions/execution.presenter';

export interface Actor {
  organizationId: string;
  userId: string;
}

/** The caller and the request's EntityManager (what a use case without the config needs). */
export interface EnrichmentScope extends Actor {
  em: EntityManager;
}

/** What an enrichment use case receives: the request's EntityManager, the config and the caller. */
export interface EnrichmentContext extends EnrichmentScope {
  config: Config;
}

type FormInput = Omit<EnrichmentFormBody, 'llmModelId'> & { llmModelId?: string };

const POPULATE = ['field', 'createdBy'] as const;

export async function getEnrichment(em: EntityManager, id: string): Promise<IEnrichment> {
  const e = await em.findOne(Enrichment, { id }, { populate: POPULATE });
  if (!e) throw notFound(ENRICHMENT_MESSAGES.notFound);
  return e;
}

function configOf(configId: string): EnrichmentConfigDto {
  const c = findConfig(configId);
  if (!c) throw badRequest(ENRICHMENT_MESSAGES.invalid);
  return c;
}

/** The next generated name for a config's type ('LLM Prompt 3'), among the organization's enrichments. */
export async function nextName({ em }: Pick<EnrichmentScope, 'em'>, config: EnrichmentConfigDto): Promise<string> {
  const prefix = config.namePrefix;
  const rows = await em.find(Enrichment, { name: { $ilike: `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%` } }, { fields: ['name'] });
  return nextEnrichmentName(
    prefix,
    rows.map((r) => r.name),
  );
}

interface CleanForm {
  name: string;
  prompt: string | RichPromptNode[] | null;
  schema: EnrichmentSchemaItem[];
  jsonSchema: Record<string, unknown> | null;
}

/** The checks of spec 001 §5 'Enrichment form', in the order the form shows them. */
async function cleanForm(em: EntityManager, config: EnrichmentConfigDto, body: FormInput, isCreate: boolean): Promise<CleanForm> {
  let name =
    (config.enrichmentType === 'mixrankCompanyDetails' ? (body.enrichmentName ?? body.name) : (body.name ?? body.enrichmentName))?.trim() ??
    '';
  if (!name && isCreate && body.generateName) name = await nextName({ em }, config);
  if (!name) throw badRequest(ENRICHMENT_MESSAGES.nameRequired);
  if (!config.hasPrompt)
    return { name, prompt: null, schema: COMPANY_INFO_SCHEMA, jsonSchema: schemaItemsToJsonSchema(COMPANY_INFO_SCHEMA) };
  const prompt = (body.prompt ?? null) as string | RichPromptNode[] | null;
  if (richPromptIsEmpty(prompt)) throw badRequest(ENRICHMENT_MESSAGES.promptRequired);
  const schema = (body.schema ?? [])
    .map((s: SchemaItemDto | Record<string, unknown>) => s as EnrichmentSchemaItem)
    .filter((s) => !s.deleteOnUpdate);
  if (schema.length === 0) throw badRequest(ENRICHMENT_MESSAGES.schemaRequired);
  const problems = schemaItemProblems(schema);
  if (problems.length > 0) throw badRequest(problems[0].message);
  return { name, prompt, schema, jsonSchema: schemaItemsToJsonSchema(schema) };
}

/** The ids inside the form (its prompt's boxes, its list, its scrape field) name rows of the organization: else 404. */
async function assertFormRefsOwned(em: EntityManager, organizationId: string, form: CleanForm, body: FormInput): Promise<void> {
  await assertPromptRefsOwned(em, organizationId, form.prompt);
  await assertOwned(em, organizationId, 'list_company', [body.listId]);
  await assertOwned(em, organizationId, 'field_definition', [body.scrapeFieldId]);
}

/** A field of the organization that an enrichment of `entityType` may fill. */
async function assignableField(em: EntityManager, fieldId: string, entityType: string) {
  const field = await em.findOne(FieldDefinition, { id: fieldId });
  if (!field) throw notFound(ENRICHMENT_MESSAGES.fieldNotFound);
  if (field.entityType !== entityType) throw badRequest(ENRICHMENT_MESSAGES.fieldWrongEntity);
  if (field.builtInColumn) throw badRequest(ENRICHMENT_MESSAGES.fieldBuiltIn);
  return field;
}

/** Serializes assignments to one field (two first assignments at once must not both become primary). */
async function lockField(em: EntityManager, organizationId: string, fieldId: string): Promise<void> {
  await tenantSql(em, organizationId).all(`select id from field_definition where id = ? and organization_id = ? for update`, [
    fieldId,
    organizationId,
  ]);
}

/** When a field has enrichments but no primary one, the earliest assigned becomes primary. */
async function promoteNext(em: EntityManager, organizationId: string, fieldId: string): Promise<void> {
  await tenantSql(em, organizationId).all(
    `update enrichment set is_primary = true, updated_at = now()
      where id = (select id from enrichment where organization_id = ? and field_id = ? order by assigned_at nulls last, created_at, id limit 1)
        and not exists (select 1 from enrichment where organization_id = ? and field_id = ? and is_primary)`,
    [organizationId, fieldId, organizationId, fieldId],
  );
}

/**
 * Points an enrichment at a field (or none). The first enrichment of a field becomes its primary
 * one; `primary: true` makes it primary in any case; leaving a field hands the primary role on.
 */
async function setAssignment(em: EntityManager, actor: Actor, e: IEnrichment, fieldId: string | null, primary?: boolean): Promise<void> {
  const previous = e.field?.id ?? null;
  if (fieldId) await assignableField(em, fieldId, e.entityType);
  for (const f of [previous, fieldId].filter((x): x is string => Boolean(x)).sort()) await lockField(em, actor.organizationId, f);
  if (previous !== fieldId) {
    await tenantSql(em, actor.organizationId).all(
      `update enrichment set field_id = ?, is_primary = false, assigned_at = ?, updated_at = now() where id = ? and organization_id = ?`,
      [fieldId, fieldId ? new Date() : null, e.id, actor.organizationId],
    );
    if (previous) await promoteNext(em, actor.organizationId, previous);
  }
  if (fieldId) {
    if (primary) {
      await tenantSql(em, actor.organizationId).all(
        `update enrichment set is_primary = (id = ?), updated_at = now() where organization_id = ? and field_id = ?`,
        [e.id, actor.organizationId, fieldId],
      );
    } else await promoteNext(em, actor.organizationId, fieldId);
  }
  // The fields' assigned enrichments changed (the Enrich popover and the drawer follow).
  if (previous || fieldId) await publishFieldsChanged(em, actor.organizationId, [e.entityType]);
}

async function reload(em: EntityManager, id: string): Promise<IEnrichment> {
  em.clear();
  return getEnrichment(em, id);
}

export async function createEnrichment(actor: EnrichmentScope, body: FormInput): Promise<IEnrichment> {
  const { em } = actor;
  const config = configOf(body.configId);
  if (body.entityType && body.entityType !== config.entityType) throw badRequest(ENRICHMENT_MESSAGES.invalid);
  const form = await cleanForm(em, config, body, true);
  await assertFormRefsOwned(em, actor.organizationId, form, body);
  if (body.fieldIdToAssign) await assignableField(em, body.fieldIdToAssign, config.entityType);
  const id = await em.transactional(async (tem) => {
    const e = tem.create(Enrichment, {
      organization: actor.organizationId,
      configId: config.id,
      enrichmentType: config.enrichmentType,
      provider: config.provider,
      entityType: config.entityType,
      name: form.name,
      llmModelId: body.llmModelId?.trim() || 'default',
      data: {
        prompt: form.prompt,
        schema: form.schema,
        jsonSchema: form.jsonSchema,
        websiteToScrape: body.websiteToScrape ?? null,
        scrapeFieldId: body.scrapeFieldId ?? null,
      },
      color: body.color ?? null,
      field: null,
      isPrimary: false,
      assignedAt: null,
      listCompanyId: body.listId ?? null,
      listColumns: [],
      createdBy: actor.userId,
    });
    await tem.flush();
    if (body.fieldIdToAssign) await setAssignment(tem, actor, e, body.fieldIdToAssign, body.isFieldPrimary === true);
    return e.id;
  });
  return reload(em, id);
}

export async function updateEnrichment(actor: EnrichmentScope, body: FormInput & { id: string }): Promise<IEnrichment> {
  const { em } = actor;
  const e = await getEnrichment(em, body.id);
  const config = configOf(body.configId);
  if (config.enrichmentType !== e.enrichmentType || config.entityType !== e.entityType) throw badRequest(ENRICHMENT_MESSAGES.invalid);
  const form = await cleanForm(em, config, body, false);
  await assertFormRefsOwned(em, actor.organizationId, form, body);
  await em.transactional(async (tem) => {
    const cur = await tem.findOneOrFail(Enrichment, { id: e.id }, { populate: ['field'] });
    cur.name = form.name;
    cur.llmModelId = body.llmModelId?.trim() || 'default';
    cur.data = {
      prompt: form.prompt,
      schema: form.schema,
      jsonSchema: form.jsonSchema,
      websiteToScrape: body.websiteToScrape ?? cur.data.websiteToScrape ?? null,
      scrapeFieldId: body.scrapeFieldId ?? cur.data.scrapeFieldId ?? null,
    };
    if (body.color !== undefined) cur.color = body.color;
    if (body.listId !== undefined) cur.listCompanyId = body.listId;
    await tem.flush();
    if (body.fieldIdToAssign !== undefined) {
      const target = body.fieldIdToAssign ?? null;
      if (target !== (cur.field?.id ?? null) || body.isFieldPrimary === true)
        await setAssignment(tem, actor, cur, target, body.isFieldPrimary === true);
    }
  });
  return reload(em, e.id);
}

export async function deleteEnrichment(actor: EnrichmentScope, id: string): Promise<void> {
  const { em } = actor;
  const e = await getEnrichment(em, id);
  await em.transactional(async (tem) => {
    const fieldId = e.field?.id ?? null;
    if (fieldId) await lockField(tem, actor.organizationId, fieldId);
    await tenantSql(tem, actor.organizationId).all(`delete from enrichment where id = ? and organization_id = ?`, [
      id,
      actor.organizationId,
    ]);
    if (fieldId) {
      await promoteNext(tem, actor.organizationId, fieldId);
      await publishFieldsChanged(tem, actor.organizationId, [e.entityType]);
    }
  });
}

export async function setColor({ em }: EnrichmentScope, id: string, color: string | null): Promise<IEnrichment> {
  const e = await getEnrichment(em, id);
  e.color = color;
  await em.flush();
  return e;
}

export async function setColumns({ em }: EnrichmentScope, id: string, columns: IEnrichment['listColumns']): Promise<IEnrichment> {
  const e = await getEnrichment(em, id);
  e.listColumns = columns;
  await em.flush();
  return e;
}

export async function assign(actor: EnrichmentScope, enrichmentId: string, fieldId: string): Promise<IEnrichment> {
  const { em } = actor;
  const e = await getEnrichment(em, enrichmentId);
  await em.transactional((tem) => setAssignment(tem, actor, e, fieldId));
  return reload(em, enrichmentId);
}

export async function unassign(actor: EnrichmentScope, enrichmentId: string, fieldId: string): Promise<IEnrichment> {
  const { em } = actor;
  const e = await getEnrichment(em, enrichmentId);
  if ((e.field?.id ?? null) !== fieldId) throw badRequest(ENRICHMENT_MESSAGES.notAssigned);
  await em.transactional((tem) => setAssignment(tem, actor, e, null));
  return reload(em, enrichmentId);
}

export async function setPrimary(actor: EnrichmentScope, enrichmentId: string, fieldId: string): Promise<IEnrichment> {
  const { em } = actor;
  const e = await getEnrichment(em, enrichmentId);
  if ((e.field?.id ?? null) !== fieldId) throw badRequest(ENRICHMENT_MESSAGES.notAssigned);
  await em.transactional((tem) => setAssignment(tem, actor, e, fieldId, true));
  return reload(em, enrichmentId);
}

const SORTS: Record<string, (dir: 'asc' | 'desc') => Record<string, unknown>> = {
  name: (d) => ({ name: d }),
  entityType: (d) => ({ entityType: d }),
  entity: (d) => ({ entityType: d }),
  field: (d) => ({ field: { label: d } }),
  assignedField: (d) => ({ field: { label: d } }),
  isPrimary: (d) => ({ isPrimary: d }),
  createdBy: (d) => ({ createdBy: { firstName: d, lastName: d } }),
  createdAt: (d) => ({ createdAt: d }),
  updatedAt: (d) => ({ updatedAt: d }),
  provider: (d) => ({ provider: d }),
};

/** The enrichment table (spec 001 §2): search on the name, filters Provider / Created By / Created Date (UTC days), sort, zero-based pages. */
export async function listEnrichments({ em }: EnrichmentScope, q: EnrichmentListBody) {
  const where: FilterQuery<IEnrichment>[] = [];
  const text = (q.text ?? '').trim();
  if (text) where.push({ name: { $ilike: `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` } });
  if (q.provider?.length) where.push({ provider: { $in: q.provider } });
  if (q.createdBy?.length) where.push({ createdBy: { $in: q.createdBy } });
  if (q.createdAt?.from) where.push({ createdAt: { $gte: new Date(`${q.createdAt.from}T00:00:00Z`) } });
  if (q.createdAt?.to) where.push({ createdAt: { $lt: new Date(new Date(`${q.createdAt.to}T00:00:00Z`).getTime() + 86_400_000) } });
  if (q.entityType) where.push({ entityType: q.entityType });
  const pageSize = q.take ?? q.pageSize ?? 10;
  const pageIndex = q.pageIndex ?? 0;
  const sort = q.sortKey && SORTS[q.sortKey] && q.sortOrder ? SORTS[q.sortKey](q.sortOrder) : { createdAt: 'desc' };
  const [rows, total] = await em.findAndCount(Enrichment, where.length ? { $and: where } : {}, {
    populate: POPULATE,
    orderBy: [sort, { id: 'asc' }] as never,
    limit: pageSize,
    offset: pageIndex * pageSize,
  });
  return { rows, total, pageIndex, pageSize };
}

/** One enrichment of the caller's organization (404 otherwise). */
export async function enrichmentById({ em }: EnrichmentScope, id: string): Promise<IEnrichment> {
  return getEnrichment(em, id);
}

/** Users who created enrichments (the Created By filter). */
export async function enrichmentCreators(c: EnrichmentScope): Promise<Array<{ id: string; firstName: string; lastName: string }>> {
  const rows = await tenantSql(c.em, c.organizationId).all<{ id: string; first_name: string; last_name: string }>(
    `select distinct u.id, u.first_name, u.last_name from enrichment e join app_user u on u.organization_id = e.organization_id and u.id
      = e.created_by_id where e.organization_id = ? order by u.first_name, u.last_name, u.id`,
    [c.organizationId],
  );
  return rows.map((u) => ({ id: u.id, firstName: u.first_name, lastName: u.last_name }));
}

/** The organization's enrichment executions still queued or running (newest first, at most 1000). */
export async function unfinishedEnrichmentExecutions(c: EnrichmentScope): Promise<ExecutionDto[]> {
  const rows = await tenantSql(c.em, c.organizationId).all<ExecutionRow>(
    `select ${EXECUTION_COLUMNS} from execution where organization_id = ? and type = 'enrichment' and status in ('scheduled',
      'processing') order by created_at desc, id limit 1000`,
    [c.organizationId],
  );
  return rows.map(toExecutionDto);
}

/** The latest result of each enrichment (all, or enrichmentIds) for records. */
export async function enrichmentResults(c: EnrichmentScope, body: z.output<typeof EnrichmentResultsBody>) {
  const { entityType, entityIds, enrichmentIds } = body;
  const list = (n: number) => Array.from({ length: n }, () => '?').join(', ');
  const where =
    `r.entity_type = ? and r.entity_id in (${list(entityIds.length)})` +
    `${enrichmentIds?.length ? ` and r.enrichment_id in (${list(enrichmentIds.length)})` : ''}`;
  return loadResults(c.em, c.organizationId, where, [entityType, ...entityIds, ...(enrichmentIds ?? [])]);
}

/** What a run over N rows will take before it starts: model calls (a ceiling for agents), AI credits, expected time. */
export async function estimateEnrichment(c: EnrichmentContext, body: z.output<typeof EnrichmentEstimateBody>): Promise<RunCost> {
  const org = c.organizationId;
  const e = await c.em.findOne(Enrichment, { id: body.enrichmentId, organization: org });
  if (!e) throw notFound(ENRICHMENT_MESSAGES.notFound);
  const [o] = await tenantSql(c.em, org).all<{ ai_credits_total: number | null; ai_credits_used: number }>(
    `select ai_credits_total, ai_credits_used from organization where id = ?`,
    [org],
  );
  // Model calls a row takes: an LLM prompt one; an agent at most AGENT_MAX_STEPS (and its answer);
  // a deep research agent a plan, its sub-questions' steps and the synthesis; a data provider none.
  const steps = c.config.AGENT_MAX_STEPS;
  const type = e.enrichmentType;
  const callsPerRow = type === 'llm' ? 1 : type === 'agent' ? steps + 1 : type === 'deepresearchagent' ? 2 + 4 * 5 : 0;
  return runCost({
    rows: body.count,
    callsPerRow,
    upTo: type === 'agent' || type === 'deepresearchagent',
    creditsTotal: o?.ai_credits_total ?? null,
    creditsUsed: o?.ai_credits_used ?? 0,
    concurrency: Math.min(c.config.LLM_ORG_CONCURRENCY, c.config.EXECUTION_ORG_CONCURRENCY),
    secondsPerCall: 2,
    secondsPerRowWithoutModel: 0.5 / Math.max(1, c.config.EXECUTION_ORG_CONCURRENCY),
  });
}
