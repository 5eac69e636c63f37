// Starting enrichment runs (POST /enrichment/execute): one execution per record, created with its
// job in one transaction, keyed so a record already queued or running for the same enrichment
// answers 'duplicate' (no second run, no second charge).
//
// A larger run is answered after its first chunk: the first FIRST_CHUNK rows are created, queued and
// committed (the worker starts on them at once), then the rest of the run (each row with the
// execution id chosen for it now) is handed to a job, committed before the answer, so the worker
// starts on the first rows while the others are still being created, and a crash half-way loses
// nothing the answer promised: the job is retried and creates what is not there yet. Rows already
// queued or running are found with the targets and reported as duplicates.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import {
  ENRICHMENT_MESSAGES,
  enrichmentRunsOn,
  executionsStartedMessage,
  selectEntityProblem,
  type RunnableEntityType,
} from '@dealscout/shared/domain';
import type { EnrichmentDto, ExecuteEnrichmentBody, ExecuteEnrichmentResponse, ExecuteItemDto } from '@dealscout/shared/contracts';
import { badRequest } from '../../lib/errors';
import { enqueueInTransaction } from '../../jobs/boss';
import { createExecutions, type StartedExecution } from '../executions/commands/create-executions';
import { notifyUser } from '../notifications/notify';
import { executionFailedNotice } from '@dealscout/shared/domain';
import { publish, type PublishEvent } from '../realtime/publish';
import { loadQueryContext, whereSql } from '../records/table-query';
import { getEnrichment, type Actor } from './enrichments.service';
import { RESULT_COLUMNS, resultEvent, toEnrichmentDto, toResultDto } from './enrichment.presenter';
import { Enrichment, type IEnrichment } from './enrichment.entity';
import { tenantSql } from '../../db/sql';
import { ideaOrder, ideaWhere } from '../records/idea-query';
import { orderBy, orderSql, type QueryContext } from '../records/table-query';
import { createRun, runCancelled } from '../executions/runs';

/** The most records one run may take (the all-selected form over a very large table). */
export const MAX_RUN_ROWS = 100_000;
export const TOO_MANY_ROWS = `At most ${MAX_RUN_ROWS.toLocaleString('en-US')} rows can be enriched in one run.`;

type Body = Omit<ExecuteEnrichmentBody, 'options'> & { options?: { onlyEmpty?: boolean } };

export function idempotencyKey(enrichmentId: string, entityId: string): string {
  return `enrichment:${enrichmentId}:${entityId}`;
}

/** Rows created before the answer; a larger run creates the rest in a job (EXECUTE_REST_QUEUE). */
export const FIRST_CHUNK = 25;
/** Rows per transaction of the rest of a run. */
const REST_CHUNK = 500;
export const EXECUTE_REST_QUEUE = 'enrichment.execute-rest';

interface RunScope {
  organizationId: string;
  userId: string | null;
  enrichmentId: string;
  entityType: RunnableEntityType;
  /** The run the executions belong to (executions/runs.ts). */
  runId?: string | null;
}

/**
 * Creates executions for these rows and queues them (in the caller's transaction); their results
 * become 'preprocessing' (a previous answer stays, shown greyed), announced.
 */
async function startRows(
  tem: EntityManager,
  boss: PgBoss,
  run: RunScope,
  rows: readonly { entityId: string; executionId?: string; position?: number }[],
  /** What the transaction waits for besides (another connection's query): awaited before the events are published. */
  before?: Promise<unknown>,
) {
  // Every event of the chunk is published last, in one statement: the organization's sequence row
  // is locked from there to the commit only (a worker's group commits wait for it, and so does
  // every request of the organization that publishes).
  const events: PublishEvent[] = [];
  const out = await createExecutions(tem, boss, {
    events,
    organizationId: run.organizationId,
    createdById: run.userId,
    type: 'enrichment',
    typeId: run.enrichmentId,
    entityType: run.entityType,
    runId: run.runId ?? null,
    targets: rows.map((t) => ({
      entityId: t.entityId,
      idempotencyKey: idempotencyKey(run.enrichmentId, t.entityId),
      executionId: t.executionId,
      position: t.position,
    })),
  });
  const fresh = out.filter((s) => s.status === 'started');
  for (let i = 0; i < fresh.length; i += 5000) {
    const chunk = fresh.slice(i, i + 5000).map((s) => ({ e: s.entityId, x: s.executionId }));
    const rows = await tenantSql(tem, run.organizationId).bound<Record<string, unknown>>(
      `insert into enrichment_result (id, organization_id, enrichment_id, entity_type, entity_id, execution_id, status, status_message,
        value, sources, updated_at)
       select gen_random_uuid(), $1, $2, $3, (j->>'e')::uuid, (j->>'x')::uuid, 'preprocessing', null, '{"result":null}'::jsonb, '[]'::jsonb, clock_timestamp()
         from jsonb_array_elements($4::jsonb) as j
       on conflict (organization_id, enrichment_id, entity_id) do update set execution_id = excluded.execution_id, status =
         'preprocessing', status_message = null, updated_at = clock_timestamp()
       returning ${RESULT_COLUMNS}`,
      [run.organizationId, run.enrichmentId, run.entityType, JSON.stringify(chunk)],
    );
    // Their executions were just created (scheduled): the results read preprocessing.
    events.push(...rows.map((r) => resultEvent(run.organizationId, toResultDto({ ...r, x_status: 'scheduled' }))));
  }
  if (before) await before;
  await publish(tem, run.organizationId, events);
  return out;
}

export const ExecuteRestData = z.object({
  organizationId: z.uuid(),
  userId: z.uuid().nullable(),
  enrichmentId: z.uuid(),
  entityType: z.enum(['company', 'contact', 'idea']),
  /** [entityId, executionId] of each row still to create. */
  items: z.array(z.tuple([z.uuid(), z.uuid()])),
  /** The run they belong to: once it is cancelled, the rest is not created. */
  runId: z.uuid().nullable().optional(),
  /** The place in the run of the first item (the first chunk's rows come before): the rest keeps the table's order. */
  firstPosition: z.number().int().min(0).optional(),
});
export type ExecuteRestData = z.infer<typeof ExecuteRestData>;

/**
 * Creates the rest of a run, REST_CHUNK rows per transaction. Idempotent: a row whose execution id
 * exists already (an earlier attempt of this job committed it) is skipped, so a retry after a
 * crash creates each row once. A row that another run queued in between answers duplicate there
 * (one execution per record).
 */
export async function createRestOfRun(
  em: EntityManager,
  boss: PgBoss,
  data: ExecuteRestData,
  opts: { chunk?: number } = {},
): Promise<number> {
  const size = opts.chunk ?? REST_CHUNK;
  let created = 0;
  for (let i = 0; i < data.items.length; i += size) {
    const chunk = data.items.slice(i, i + size);
    created += await em.fork().transactional(async (tem) => {
      const [live] = await tenantSql(tem, data.organizationId).bound<{ n: number }>(
        `select count(*)::int as n from enrichment where id = $1 and organization_id = $2`,
        [data.enrichmentId, data.organizationId],
      );
      if (!live?.n) return 0;
      if (await runCancelled(tem, data.organizationId, data.runId)) return 0;
      const have = new Set(
        (
          await tenantSql(tem, data.organizationId).bound<{ id: string }>(
            `select id from execution where organization_id = $2 and id in (select (jsonb_array_elements_text($1::jsonb))::uuid)`,
            [JSON.stringify(chunk.map((c) => c[1])), data.organizationId],
          )
        ).map((r) => r.id),
      );
      const first = (data.firstPosition ?? 0) + i;
      const todo = chunk.map((c, k) => ({ c, position: first + k })).filter(({ c }) => !have.has(c[1]));
      if (todo.length === 0) return 0;
      const out = await startRows(
        tem,
        boss,
        data,
        todo.map(({ c: [entityId, executionId], position }) => ({ entityId, executionId, position })),
      );
      return out.filter((s) => s.status === 'started').length;
    });
  }
  return created;
}

/** Where a rest-of-run job goes when its retries are spent: the run's user is told how many rows never started. */
export const EXECUTE_REST_DEAD_LETTER_QUEUE = 'enrichment.execute-rest.dead-letter';

/**
 * A rest-of-run job that failed for good: its rows that never got their execution were answered as
 * started, so the user who ran it gets an error notice with their count (their cells go back to
 * 'Not executed yet' on the next load). Rows created by an earlier attempt run as usual.
 */
export async function handleDeadRestOfRun(em: EntityManager, data: ExecuteRestData): Promise<number> {
  return em.transactional(async (tem) => {
    const [row] = await tenantSql(tem, data.organizationId).bound<{ n: number }>(
      `select count(*)::int as n from jsonb_array_elements_text($1::jsonb) as j(id) where not exists (select 1 from execution x where
        x.organization_id = $2 and x.id = j.id::uuid)`,
      [JSON.stringify(data.items.map((i) => i[1])), data.organizationId],
    );
    const missing = row?.n ?? 0;
    if (missing > 0 && data.userId) {
      await notifyUser(tem, {
        organizationId: data.organizationId,
        userId: data.userId,
        level: 'error',
        message: executionFailedNotice('enrichment', `${missing} of the run's rows could not be queued. Please run them again.`),
        uniqueKey: `enrichment-rest-failed:${data.enrichmentId}:${data.items[0]?.[1] ?? ''}`,
      });
    }
    return missing;
  });
}

/**
 * The rest of a larger run (its first rows are committed): the rows already queued or running are
 * duplicates (answered with their execution); the others get their execution ids now and go to the
 * job that creates them, committed before the run is answered. A crash before that commit answers
 * nothing: the first rows run, and running the same rows again reports those as duplicates.
 */
async function startRestOfRun(
  em: EntityManager,
  boss: PgBoss,
  run: RunScope,
  rows: readonly { id: string; active_id: string | null }[],
  withRun: (tem: EntityManager) => Promise<void>,
  firstPosition: number,
): Promise<StartedExecution[]> {
  const dup = rows.filter((r) => r.active_id).map((r) => ({ entityId: r.id, executionId: r.active_id!, status: 'duplicate' as const }));
  const rest = rows.filter((r) => !r.active_id).map((r) => ({ entityId: r.id, executionId: randomUUID() }));
  await em.transactional(async (tem) => {
    if (rest.length > 0)
      await enqueueInTransaction(boss, tem, EXECUTE_REST_QUEUE, {
        ...run,
        items: rest.map((r) => [r.entityId, r.executionId]),
        firstPosition,
      } satisfies ExecuteRestData);
    await withRun(tem);
  });
  return [...rest.map((r) => ({ ...r, status: 'started' as const })), ...dup];
}

/** The lists of these ideas remember the company enrichment run on them (GET /enrichment/{listId}/list shows it). */
async function rememberOnLists(em: EntityManager, organizationId: string, enrichmentId: string, ideaIds: readonly string[]): Promise<void> {
  if (ideaIds.length === 0) return;
  await tenantSql(em, organizationId).bound(
    `update list_company l set enrichment_ids = l.enrichment_ids || jsonb_build_array($1::text)
      where l.organization_id = $2 and not l.enrichment_ids @> jsonb_build_array($1::text)
        and l.id in (select distinct i.list_id from idea i where i.organization_id = $2 and i.id = any($3::uuid[]))`,
    [enrichmentId, organizationId, `{${ideaIds.join(',')}}`],
  );
}

export async function enrichmentsOfLists(
  em: EntityManager,
  organizationId: string,
  listIds: readonly string[],
): Promise<Map<string, EnrichmentDto[]>> {
  const out = new Map<string, EnrichmentDto[]>();
  if (listIds.length === 0) return out;
  const used = await tenantSql(em, organizationId).all<{ id: string; ids: string[] | null }>(
    `select id::text, enrichment_ids as ids from list_company where organization_id = ? and id = any(?::uuid[])`,
    [organizationId, `{${listIds.join(',')}}`],
  );
  const usedBy = new Map(used.map((u) => [u.id, new Set((u.ids ?? []).filter((x) => typeof x === 'string'))]));
  const usedIds = [...new Set(used.flatMap((u) => [...(usedBy.get(u.id) ?? [])]))];
  const rows = await em.find(
    Enrichment,
    { $or: [{ listCompanyId: { $in: [...listIds] } }, ...(usedIds.length ? [{ id: { $in: usedIds }, entityType: 'company' }] : [])] },
    { populate: ['field', 'createdBy'], orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  for (const listId of listIds) {
    out.set(
      listId,
      rows.filter((e) => e.listCompanyId === listId || (e.entityType === 'company' && usedBy.get(listId)?.has(e.id))).map(toEnrichmentDto),
    );
  }
  return out;
}

export async function executeEnrichment(
  em: EntityManager,
  boss: PgBoss,
  actor: Actor,
  body: Body,
  opts: { firstChunk?: number } = {},
): Promise<ExecuteEnrichmentResponse> {
  const enrichment = await getEnrichment(em, body.enrichmentId);
  const entityType = body.entityType as RunnableEntityType;
  // A company enrichment runs on ideas too (an idea is a company by name and website): its results
  // are the ideas' own, and the lists it ran on show its column.
  if (!enrichmentRunsOn(enrichment.entityType, entityType)) throw badRequest(ENRICHMENT_MESSAGES.invalid);
  const byIds = entityType === 'idea' ? !body.ideaFilters : !body.entityFilters;
  const requested = byIds ? [...new Set(body.entityIds ?? [])] : [];
  if (byIds && requested.length === 0) throw badRequest(selectEntityProblem(entityType));

  const query = await targetQuery(em, actor, enrichment, body, { entityType, byIds, requested });
  const run: RunScope = {
    organizationId: actor.organizationId,
    userId: actor.userId,
    enrichmentId: enrichment.id,
    entityType,
    runId: randomUUID(),
  };
  const firstChunk = opts.firstChunk ?? FIRST_CHUNK;
  const emptyOnly = body.options?.onlyEmpty === true;
  const { rows, started } =
    byIds && requested.length <= firstChunk
      ? await startSmallRun(em, boss, run, query, emptyOnly)
      : await startLargeRun(em, boss, run, query, { emptyOnly, firstChunk });

  if (entityType === 'idea' && enrichment.entityType === 'company')
    await rememberOnLists(
      em,
      actor.organizationId,
      enrichment.id,
      rows.map((r) => r.id),
    );
  return executeAnswer(run, started, rows, byIds ? requested : null);
}

/** A row of a run, with its execution already queued or running for this enrichment (a duplicate). */
type Target = { id: string; empty: boolean; active_id: string | null };
/** The run's rows in the table's order: only the empty ones, and at most `limit`. */
type TargetQuery = (q: EntityManager, onlyEmptyRows: boolean, limit: number) => Promise<Target[]>;

/** The query of the records a run means, in the order of the table it was started from. */
async function targetQuery(
  em: EntityManager,
  actor: Actor,
  enrichment: IEnrichment,
  body: Body,
  meant: { entityType: RunnableEntityType; byIds: boolean; requested: string[] },
): Promise<TargetQuery> {
  const { entityType } = meant;
  const { where, ctx } = await recordsMeant(em, actor, enrichment, body, meant);
  // The rows run in the table's order (jobs are fetched in the order they were queued): the ideas
  // table's sort (newest first by default), the companies or contacts table's (by name by default);
  // the first rows on screen are the first done.
  const recordOrder = ctx ? orderSql(ctx, body.sort?.key ?? null, body.sort?.order ?? null) : null;
  const order = recordOrder
    ? ` ${orderBy(recordOrder.terms)}`
    : entityType === 'idea'
      ? ` ${orderBy(ideaOrder(body.sort?.key ?? null, body.sort?.order ?? null))}`
      : '';
  const join = recordOrder?.join ?? { text: '', params: [] as unknown[] };
  // Ideas have no field values: 'empty' is 'without a complete result' there.
  const fieldId = entityType === 'idea' ? null : (enrichment.field?.id ?? null);
  const empty = fieldId
    ? `not exists (select 1 from field_value v where v.organization_id = r.organization_id and v.field_id = ? and v.entity_id = r.id and
      v.value is not null and v.value <> 'null'::jsonb)`
    : `not exists (select 1 from enrichment_result x where x.organization_id = r.organization_id and x.enrichment_id = ? and x.entity_id
      = r.id and x.status = 'complete')`;
  return (q, onlyEmptyRows, limit) =>
    tenantSql(q, actor.organizationId).all<Target>(
      `select r.id, ${empty} as empty,
            (select x.id from execution x where x.organization_id = r.organization_id and x.idempotency_key = ? || r.id::text
                and x.status in ('draft', 'scheduled', 'processing')) as active_id
       from ${entityType} r ${join.text} ${where.text}${onlyEmptyRows ? ` and ${empty}` : ''}${order} limit ${limit}`,
      [
        fieldId ?? enrichment.id,
        idempotencyKey(enrichment.id, ''),
        ...join.params,
        ...where.params,
        ...(onlyEmptyRows ? [fieldId ?? enrichment.id] : []),
      ],
    );
}

/**
 * The records meant: the given ids that are the organization's, or every row the filters select
 * (ideas: the ideas table's filters of one list, records/idea-query.ts).
 */
async function recordsMeant(
  em: EntityManager,
  actor: Actor,
  enrichment: IEnrichment,
  body: Body,
  meant: { entityType: RunnableEntityType; byIds: boolean; requested: string[] },
): Promise<{ where: { text: string; params: unknown[] }; ctx: QueryContext | null }> {
  const { entityType, byIds, requested } = meant;
  if (entityType === 'idea') {
    const f = body.ideaFilters;
    const listId = f?.listCompanyId ?? enrichment.listCompanyId ?? null;
    if (!byIds && !listId) throw badRequest(selectEntityProblem(entityType));
    const where = byIds
      ? { text: 'where r.organization_id = ? and r.id = any(?::uuid[])', params: [actor.organizationId, `{${requested.join(',')}}`] }
      : ideaWhere(actor.organizationId, listId!, {
          text: f!.text ?? '',
          inShortlist: f!.inShortlist ?? null,
          recordStatus: f!.recordStatus ?? null,
          listSourceIds: f!.listSourceIds ?? [],
          excludeIds: f!.excludeIds ?? [],
        });
    return { where, ctx: null };
  }
  const ctx = await loadQueryContext(em, actor.organizationId, entityType);
  const where = byIds
    ? whereSql(ctx, { ids: requested })
    : whereSql(ctx, {
        text: body.entityFilters!.text ?? '',
        filters: body.entityFilters!.filters ?? [],
        excludeIds: body.entityFilters!.excludeIds ?? [],
      });
  return { where, ctx };
}

/** The run's rows (refused when too many, none, or none empty for an only-empty run). */
function checkTargets(rows: Target[], entityType: RunnableEntityType, emptyOnly: boolean): Target[] {
  if (rows.length > MAX_RUN_ROWS) throw badRequest(TOO_MANY_ROWS);
  if (rows.length === 0) throw badRequest(selectEntityProblem(entityType));
  const chosen = emptyOnly ? rows.filter((r) => r.empty) : rows;
  if (chosen.length === 0) throw badRequest(ENRICHMENT_MESSAGES.noEmptyRows);
  return chosen;
}

/** The run's row (executions/runs.ts), when it started any execution. */
async function recordRun(tem: EntityManager, run: RunScope, total: number): Promise<void> {
  if (total > 0)
    await createRun(tem, {
      id: run.runId!,
      organizationId: run.organizationId,
      type: 'enrichment',
      typeId: run.enrichmentId,
      entityType: run.entityType,
      total,
      createdById: run.userId,
    });
}

type StartedRun = { rows: Target[]; started: StartedExecution[] };

/** A run of a few given records: all created in one transaction. */
async function startSmallRun(em: EntityManager, boss: PgBoss, run: RunScope, query: TargetQuery, emptyOnly: boolean): Promise<StartedRun> {
  const rows = await query(em, false, MAX_RUN_ROWS + 1);
  const chosen = checkTargets(rows, run.entityType, emptyOnly);
  const started = await em.transactional(async (tem) => {
    const out = await startRows(
      tem,
      boss,
      run,
      chosen.map((r) => ({ entityId: r.id })),
    );
    await recordRun(tem, run, out.filter((s) => s.status === 'started').length);
    return out;
  });
  return { rows, started };
}

/**
 * A run that may be large: its first rows (a short query) are created while the query of the
 * whole set runs beside them on another connection, and their transaction commits once the
 * whole set is known and allowed (else it rolls back: nothing started) — so the worker starts on
 * the first rows without waiting for the whole set's query first.
 */
async function startLargeRun(
  em: EntityManager,
  boss: PgBoss,
  run: RunScope,
  query: TargetQuery,
  opts: { emptyOnly: boolean; firstChunk: number },
): Promise<StartedRun> {
  // The transaction waits for a second connection's query, so it must not hold what the pool's
  // other connections may be waiting for: the whole set's query asks for its connection before
  // the transaction does (the pool hands them out in order), and the first rows' events are
  // published only once it has answered. Published first, they held the organization's sequence
  // row, which every request that publishes waits for: with the pool full of such requests, the
  // whole set's query never got a connection and they all waited for good.
  const head = await query(em, opts.emptyOnly, opts.firstChunk);
  const headFresh = head.filter((r) => !r.active_id).map((r) => ({ entityId: r.id, executionId: randomUUID() }));
  const whole = query(em.fork(), false, MAX_RUN_ROWS + 1);
  whole.catch(() => {}); // awaited below; a failure of the first rows must not leave it unhandled
  const out = await em.transactional(async (tem) => {
    const first = await startRows(tem, boss, run, headFresh, whole);
    const all = await whole;
    return { first, all, chosen: checkTargets(all, run.entityType, opts.emptyOnly) };
  });
  const headIds = new Set(head.map((r) => r.id));
  // The run's row (its total known now) commits with the rest's job, before the answer.
  const rest = out.chosen.filter((r) => !headIds.has(r.id) || r.active_id);
  const restFresh = rest.filter((r) => !r.active_id).length;
  const started = [
    ...out.first,
    ...(await startRestOfRun(
      em,
      boss,
      run,
      rest,
      (tem) => recordRun(tem, run, out.first.filter((s) => s.status === 'started').length + restFresh),
      headFresh.length,
    )),
  ];
  return { rows: out.all, started };
}

/** The answer to POST /enrichment/execute: counts, and by record when ids were given. */
function executeAnswer(run: RunScope, started: StartedExecution[], rows: Target[], requested: string[] | null): ExecuteEnrichmentResponse {
  const { entityType } = run;
  const byEntity = new Map(started.map((s) => [s.entityId, s]));
  const startedCount = started.filter((s) => s.status === 'started').length;
  const duplicates = started.length - startedCount;
  const found = new Set(rows.map((r) => r.id));
  const failedIds = new Set(requested ? requested.filter((id) => !found.has(id)) : []);
  const answer: ExecuteEnrichmentResponse = {
    success: true,
    message: executionsStartedMessage(startedCount),
    count: startedCount,
    started: startedCount,
    duplicates,
    failed: failedIds.size,
    runId: startedCount > 0 ? run.runId! : null,
  };
  if (requested) {
    answer.items = requested.flatMap((id): ExecuteItemDto[] => {
      const s = byEntity.get(id);
      if (s) return [{ entityId: id, executionId: s.executionId, status: s.status }];
      if (failedIds.has(id))
        return [
          {
            entityId: id,
            executionId: null,
            status: 'failed',
            message: `${entityType === 'company' ? 'Company' : entityType === 'contact' ? 'Contact' : 'Idea'} not found.`,
          },
        ];
      // Not empty (an only-empty run): left alone.
      return [];
    });
  }
  return answer;
}
