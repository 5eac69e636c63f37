import type { EntityManager } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import { EXECUTION_MESSAGES, executionCancellable, isTerminalExecutionStatus, type ExecutionType } from '@dealscout/shared/domain';
import { transactionDb } from '../../../jobs/boss';
import { conflict, notFound } from '../../../lib/errors';
import { publish } from '../../realtime/publish';
import { EXECUTION_COLUMNS, executionEvent, type ExecutionRow } from '../execution.presenter';
import { executionQueue } from '../queues';
import { tenantSql } from '../../../db/sql';

/**
 * Cancels an execution of the organization (of one type when `type` is given). Queued work is
 * removed from its queue; running work is marked cancelled, which its worker notices (it polls the
 * status) and stops without writing a result. Another organization's id is not found (404).
 */
export async function cancelExecution(
  em: EntityManager,
  boss: PgBoss | null,
  opts: { organizationId: string; executionId: string; type?: ExecutionType },
): Promise<ExecutionRow> {
  return em.transactional(async (tem) => {
    const [current] = await tenantSql(tem, opts.organizationId).all<ExecutionRow>(
      `select ${EXECUTION_COLUMNS} from execution where id = ? and organization_id = ? ${opts.type ? 'and type = ?' : ''} for update`,
      [opts.executionId, opts.organizationId, ...(opts.type ? [opts.type] : [])],
    );
    if (!current) throw notFound(EXECUTION_MESSAGES.notFound);
    if (isTerminalExecutionStatus(current.status)) throw conflict(EXECUTION_MESSAGES.alreadyFinished);
    if (!executionCancellable({ type: current.type, idempotencyKey: current.idempotency_key }))
      throw conflict(EXECUTION_MESSAGES.notCancellable);
    const [row] = await tenantSql(tem, opts.organizationId).all<ExecutionRow>(
      `update execution set status = 'cancelled', status_message = ?, completed_at = clock_timestamp(), updated_at = clock_timestamp()
        where id = ? and organization_id = ? returning ${EXECUTION_COLUMNS}`,
      [EXECUTION_MESSAGES.cancelled, opts.executionId, opts.organizationId],
    );
    // pg-boss cancels created, retry and active jobs; a worker that still runs it sees the status.
    if (boss) await boss.cancel(executionQueue(current.type as ExecutionType), opts.executionId, { db: transactionDb(tem) });
    await publish(tem, opts.organizationId, executionEvent(row));
    return row;
  });
}

/** Cancels a play execution; a draft it was (re)writing stops waiting for it (email/drafts/emails.service.ts). */
export async function cancelPlayExecution(
  em: EntityManager,
  boss: PgBoss | null,
  organizationId: string,
  executionId: string,
): Promise<ExecutionRow> {
  const row = await cancelExecution(em, boss, { organizationId, executionId, type: 'play' });
  await tenantSql(em, organizationId).all(
    `update channel_email set status = 'cancelled', updated_at = clock_timestamp() where organization_id = ? and execution_id = ? and status = 'processing'`,
    [organizationId, row.id],
  );
  return row;
}
