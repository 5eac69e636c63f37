// Starting enrichment runs (POST /enrichment/execute): one execution per record, created with its
// job in one transaction, keyed so a record already queued or running for the same enrichment
// answers 'duplicate' (no second run, no second charge).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import {
  ENRICHMENT_MESSAGES, executionsStartedMessage, selectEntityProblem, type RecordEntityType,
} from '@dealscout/shared/domain';
import type { ExecuteEnrichmentBody, ExecuteEnrichmentResponse, ExecuteItemDto } from '@dealscout/shared/contracts';
import { badRequest } from '../../lib/errors';
import { createExecutions } from '../executions/commands/create-executions';
import { publish } from '../realtime/publish';
import { loadQueryContext, whereSql } from '../records/table-query';
import { getEnrichment, type Actor } from './enrichments.service';
import { RESULT_COLUMNS, resultEvent, toResultDto } from './enrichment.presenter';

/** The most records one run may take (the all-selected form over a very large table). */
export const MAX_RUN_ROWS = 100_000;
export const TOO_MANY_ROWS = `At most ${MAX_RUN_ROWS.toLocaleString('en-US')} rows can be enriched in one run.`;

type Body = Omit<ExecuteEnrichmentBody, 'options'> & { options?: { onlyEmpty?: boolean } };

export function idempotencyKey(enrichmentId: string, entityId: string): string {
  return `enrichment:${enrichmentId}:${entityId}`;
}

export async function executeEnrichment(em: EntityManager, boss: PgBoss, actor: Actor, body: Body): Promise<ExecuteEnrichmentResponse> {
  const enrichment = await getEnrichment(em, body.enrichmentId);
  const entityType = body.entityType as RecordEntityType;
  if (enrichment.entityType !== entityType) throw badRequest(ENRICHMENT_MESSAGES.invalid);
  const table = entityType === 'company' ? 'company' : 'contact';
  const byIds = !body.entityFilters;
  const requested = byIds ? [...new Set(body.entityIds ?? [])] : [];
  if (byIds && requested.length === 0) throw badRequest(selectEntityProblem(entityType));

  // The records meant: the given ids that are the organization's, or every row the filters select.
  const ctx = await loadQueryContext(em, actor.organizationId, entityType);
  const where = byIds
    ? whereSql(ctx, { ids: requested })
    : whereSql(ctx, { text: body.entityFilters!.text ?? '', filters: body.entityFilters!.filters ?? [], excludeIds: body.entityFilters!.excludeIds ?? [] });
  const fieldId = enrichment.field?.id ?? null;
  const emptyOnly = body.options?.onlyEmpty === true;
  const empty = fieldId
    ? `not exists (select 1 from field_value v where v.organization_id = r.organization_id and v.field_id = ? and v.entity_id = r.id and v.value is not null and v.value <> 'null'::jsonb)`
    : `not exists (select 1 from enrichment_result x where x.organization_id = r.organization_id and x.enrichment_id = ? and x.entity_id = r.id and x.status = 'complete')`;
  const rows = await em.execute<{ id: string; empty: boolean }[]>(
    `select r.id, ${empty} as empty from ${table} r ${where.text} limit ${MAX_RUN_ROWS + 1}`,
    [fieldId ?? enrichment.id, ...where.params],
  );
  if (rows.length > MAX_RUN_ROWS) throw badRequest(TOO_MANY_ROWS);
  if (rows.length === 0) throw badRequest(selectEntityProblem(entityType));
  const targets = emptyOnly ? rows.filter((r) => r.empty).map((r) => r.id) : rows.map((r) => r.id);
  if (targets.length === 0) throw badRequest(ENRICHMENT_MESSAGES.noEmptyRows);

  const started = await em.transactional(async (tem) => {
    const out = await createExecutions(tem, boss, {
      organizationId: actor.organizationId,
      createdById: actor.userId,
      type: 'enrichment',
      typeId: enrichment.id,
      entityType,
      targets: targets.map((id) => ({ entityId: id, idempotencyKey: idempotencyKey(enrichment.id, id) })),
    });
    // The new runs' results become 'preprocessing' (a previous answer stays, shown greyed).
    const fresh = out.filter((s) => s.status === 'started');
    for (let i = 0; i < fresh.length; i += 5000) {
      const chunk = fresh.slice(i, i + 5000).map((s) => ({ e: s.entityId, x: s.executionId }));
      const rows = await tem.execute<Record<string, unknown>[]>(
        `insert into enrichment_result (id, organization_id, enrichment_id, entity_type, entity_id, execution_id, status, status_message, value, sources, updated_at)
         select gen_random_uuid(), ?, ?, ?, (j->>'e')::uuid, (j->>'x')::uuid, 'preprocessing', null, '{"result":null}'::jsonb, '[]'::jsonb, clock_timestamp()
           from jsonb_array_elements(?::jsonb) as j
         on conflict (enrichment_id, entity_id) do update set execution_id = excluded.execution_id, status = 'preprocessing', status_message = null, updated_at = clock_timestamp()
         returning ${RESULT_COLUMNS}`,
        [actor.organizationId, enrichment.id, entityType, JSON.stringify(chunk)],
      );
      // Their executions were just created (scheduled): the results read preprocessing.
      await publish(tem, actor.organizationId, rows.map((r) => resultEvent(actor.organizationId, toResultDto({ ...r, x_status: 'scheduled' }))));
    }
    return out;
  });

  const byEntity = new Map(started.map((s) => [s.entityId, s]));
  const startedCount = started.filter((s) => s.status === 'started').length;
  const duplicates = started.length - startedCount;
  const found = new Set(rows.map((r) => r.id));
  const failedIds = new Set(byIds ? requested.filter((id) => !found.has(id)) : []);
  const answer: ExecuteEnrichmentResponse = {
    success: true,
    message: executionsStartedMessage(startedCount),
    count: startedCount,
    started: startedCount,
    duplicates,
    failed: failedIds.size,
  };
  if (byIds) {
    answer.items = requested.flatMap((id): ExecuteItemDto[] => {
      const s = byEntity.get(id);
      if (s) return [{ entityId: id, executionId: s.executionId, status: s.status }];
      if (failedIds.has(id)) return [{ entityId: id, executionId: null, status: 'failed', message: `${entityType === 'company' ? 'Company' : 'Contact'} not found.` }];
      // Not empty (an only-empty run): left alone.
      return [];
    });
  }
  return answer;
}
