// Starting plays (POST /api/v1/play/execute): the targets are checked in one statement (a contact
// needs a primary company and a company a key contact, each with the details an email needs), then
// one execution per valid target is created with its job (createExecutions: bulk, 5,000 per
// statement), keyed so a target already queued or running for the same play (or the same client
// run id) answers with that execution instead of a second one.
//
// A larger run is checked and created in two parts before the answer: its first FIRST_CHUNK targets
// in a short transaction, committed at once so the worker claims them and the first model calls
// start while the rest of the run (checked, then created in a second transaction) is still on its way. A failure of the second
// transaction answers an error with the first chunk already running; the same request again
// answers those as duplicates (while they run) and creates the rest.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import {
  PLAY_MESSAGES,
  EMAIL_MESSAGES,
  SKIPPED_LIST_MAX,
  noKeyContactMessage,
  noPrimaryCompanyMessage,
  missingInformationMessage,
  type MissingInfo,
} from '@dealscout/shared/domain';
import type { PlayExecuteItem, PlayExecuteResponse, PlaySkippedTarget } from '@dealscout/shared/contracts';
import { badRequest, notFound } from '../../lib/errors';
import { createExecutions, type StartedExecution } from '../executions/commands/create-executions';
import { createRun } from '../executions/runs';
import { Play } from './play.entity';
import { tenantSql } from '../../db/sql';
import { publish, type PublishEvent } from '../realtime/publish';

export interface ExecuteActor {
  organizationId: string;
  userId: string;
}

/** Why a target cannot be written to: the spec's message, and for the user what it lacks and which record to fix. */
export interface TargetProblem {
  message: string;
  name: string;
  missing: MissingInfo[];
  fix: PlaySkippedTarget['fix'];
}

/** Each target's problem (null when it can be written to); unknown ids are absent. */
export async function checkTargets(
  em: EntityManager,
  organizationId: string,
  entityType: 'contact' | 'company',
  ids: readonly string[],
): Promise<Map<string, TargetProblem | null>> {
  const sql =
    entityType === 'contact'
      ? `select c.id, c.first_name, c.last_name, c.email,
              exists (select 1 from company_contact m join company k on k.id = m.company_id and k.organization_id = m.organization_id
                       where m.organization_id = c.organization_id and m.contact_id = c.id and m.is_primary) as linked
         from contact c where c.organization_id = $1 and c.id in (select (jsonb_array_elements_text($2::jsonb))::uuid)`
      : `select r.id, r.name, r.website, key.id as key_id, key.email as key_email
         from company r
         left join lateral (select k.id, k.email from company_contact m join contact k on k.id = m.contact_id and k.organization_id = m.organization_id
                             where m.organization_id = r.organization_id and m.company_id = r.id and m.is_key limit 1) key on true
        where r.organization_id = $1 and r.id in (select (jsonb_array_elements_text($2::jsonb))::uuid)`;
  const rows = await tenantSql(em, organizationId).bound<Record<string, unknown>>(sql, [organizationId, JSON.stringify(ids)]);
  const out = new Map<string, TargetProblem | null>();
  const blank = (v: unknown) => !v || String(v).trim() === '';
  for (const r of rows) {
    const id = String(r.id);
    if (entityType === 'contact') {
      const name = `${String(r.first_name ?? '')} ${String(r.last_name ?? '')}`.trim();
      const own = (['firstName', 'lastName', 'email'] as const).filter((k) =>
        blank(r[{ firstName: 'first_name', lastName: 'last_name', email: 'email' }[k]]),
      );
      const self = { entityType: 'contact' as const, id };
      if (own.length > 0)
        out.set(id, {
          message: EMAIL_MESSAGES.invalidContact,
          name: name || String(r.email ?? '') || 'A contact',
          missing: own,
          fix: { ...self, action: 'edit' },
        });
      else if (!r.linked)
        out.set(id, { message: noPrimaryCompanyMessage(name), name, missing: ['primaryCompany'], fix: { ...self, action: 'open' } });
      else out.set(id, null);
    } else {
      const own = (['name', 'website'] as const).filter((k) => blank(r[k]));
      const name = String(r.name ?? '').trim() || String(r.website ?? '').trim() || 'A company';
      const self = { entityType: 'company' as const, id };
      if (own.length > 0) out.set(id, { message: EMAIL_MESSAGES.invalidCompany, name, missing: own, fix: { ...self, action: 'edit' } });
      else if (!r.key_id)
        out.set(id, { message: noKeyContactMessage(String(r.name)), name, missing: ['keyContact'], fix: { ...self, action: 'open' } });
      else if (blank(r.key_email))
        out.set(id, {
          message: noKeyContactMessage(String(r.name)),
          name,
          missing: ['keyContactEmail'],
          fix: { entityType: 'contact', id: String(r.key_id), action: 'edit' },
        });
      else out.set(id, null);
    }
  }
  return out;
}

/**
 * Targets whose executions are committed in a transaction of their own before the rest of the run:
 * enough for a first wave of model calls at an organization's concurrency limit
 * (LLM_ORG_CONCURRENCY; the speed target is measured at 50) while the rest is created.
 */
export const FIRST_CHUNK = 50;

export function playKey(playId: string, entityId: string, runId?: string | null): string {
  return runId ? `play:${playId}:${runId.slice(0, 100)}:${entityId}` : `play:${playId}:${entityId}`;
}

export async function executePlay(
  em: EntityManager,
  boss: PgBoss,
  actor: ExecuteActor,
  body: { playId?: string | null; targetIds: string[]; entityType: 'contact' | 'company'; executionId?: string | null },
  opts: { firstChunk?: number } = {},
): Promise<PlayExecuteResponse> {
  const requested = [...new Set(body.targetIds)];
  if (!body.playId || requested.length === 0) throw badRequest(PLAY_MESSAGES.invalidSelection);
  const play = await em.findOne(Play, { id: body.playId, organization: actor.organizationId });
  if (!play) throw notFound(PLAY_MESSAGES.invalid);
  if (play.status !== 'published') throw badRequest(PLAY_MESSAGES.invalid);

  // One transaction per part: the executions and their jobs, the play's use count, then the
  // 'scheduled' events last in one statement (the organization's sequence row is locked from there
  // to the commit only, so the worker's claim of the first chunk, which publishes too, is not held
  // behind the creation of the rest).
  // Several targets are a run (executions/runs.ts): one progress line, one Cancel.
  const runId = requested.length > 1 ? randomUUID() : null;
  const start = (ids: readonly string[], firstPosition: number) =>
    em.transactional(async (tem) => {
      const events: PublishEvent[] = [];
      const out = await createExecutions(tem, boss, {
        events,
        organizationId: actor.organizationId,
        createdById: actor.userId,
        type: 'play',
        typeId: play.id,
        entityType: body.entityType,
        runId,
        // The targets' places in the run: their jobs are taken in the order they were selected.
        firstPosition,
        targets: ids.map((id) => ({ entityId: id, idempotencyKey: playKey(play.id, id, body.executionId) })),
      });
      const fresh = out.filter((s) => s.status === 'started').length;
      if (fresh > 0)
        await tenantSql(tem, actor.organizationId).all(`update play set use_count = use_count + ? where id = ? and organization_id = ?`, [
          fresh,
          play.id,
          actor.organizationId,
        ]);
      await publish(tem, actor.organizationId, events);
      return out;
    });
  // The first chunk of targets is checked and started first, then the rest (each part's targets in
  // one statement).
  const firstChunk = opts.firstChunk ?? FIRST_CHUNK;
  const checks = new Map<string, TargetProblem | null>();
  const started: StartedExecution[] = [];
  for (const part of [requested.slice(0, firstChunk), requested.slice(firstChunk)]) {
    if (part.length === 0) continue;
    const checked = await checkTargets(em, actor.organizationId, body.entityType, part);
    for (const [id, problem] of checked) checks.set(id, problem);
    const valid = part.filter((id) => checked.get(id) === null);
    if (valid.length > 0) started.push(...(await start(valid, started.length)));
  }
  const fresh = started.filter((s) => s.status === 'started').length;
  if (runId && fresh > 0)
    await createRun(em, {
      id: runId,
      organizationId: actor.organizationId,
      type: 'play',
      typeId: play.id,
      entityType: body.entityType,
      total: fresh,
      createdById: actor.userId,
    });
  const byEntity = new Map(started.map((s) => [s.entityId, s]));
  let missing = 0;
  const skipped: PlaySkippedTarget[] = [];
  const items: PlayExecuteItem[] = requested.map((id) => {
    const s = byEntity.get(id);
    if (s) return { success: true, playExecutionId: s.executionId, entityId: id };
    if (!checks.has(id)) return { success: false, playExecutionId: null, entityId: id, message: EMAIL_MESSAGES.entityNotFound };
    const problem = checks.get(id);
    if (!problem) return { success: false, playExecutionId: null, entityId: id, message: PLAY_MESSAGES.invalidEntity };
    missing += 1;
    // Who was skipped and what they lack (the first ones: the message counts them all).
    if (skipped.length < SKIPPED_LIST_MAX)
      skipped.push({
        entityId: id,
        entityType: body.entityType,
        name: problem.name,
        missing: problem.missing,
        message: problem.message,
        fix: problem.fix,
      });
    return { success: false, playExecutionId: null, entityId: id, message: problem.message };
  });
  const message =
    started.length === 0
      ? missing > 0
        ? missingInformationMessage(missing)
        : PLAY_MESSAGES.unableToCreate
      : missing > 0
        ? missingInformationMessage(missing)
        : items.some((i) => !i.success)
          ? PLAY_MESSAGES.invalidEntity
          : PLAY_MESSAGES.started;
  return { success: true, message, missing, items, skipped, runId: runId && fresh > 0 ? runId : null };
}
