// Reading executions: one by id, and the organization's still running ones (to restore realtime
// nodes after a reload).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ActiveExecutionsBody } from '@dealscout/shared/contracts';
import { EXECUTION_MESSAGES } from '@dealscout/shared/domain';
import { notFound } from '../../lib/errors';
import { tenantSql } from '../../db/sql';
import { EXECUTION_COLUMNS, type ExecutionRow } from './execution.presenter';

export async function executionById(em: EntityManager, organizationId: string, id: string): Promise<ExecutionRow> {
  const [row] = await tenantSql(em, organizationId).all<ExecutionRow>(
    `select ${EXECUTION_COLUMNS} from execution where id = ? and organization_id = ?`,
    [id, organizationId],
  );
  if (!row) throw notFound(EXECUTION_MESSAGES.notFound);
  return row;
}

/** The organization's executions still running (draft, scheduled, processing), newest first. */
export async function activeExecutions(
  em: EntityManager,
  organizationId: string,
  b: ActiveExecutionsBody & { limit: number },
): Promise<ExecutionRow[]> {
  const where = [`organization_id = ?`, `status in ('draft', 'scheduled', 'processing')`];
  const params: unknown[] = [organizationId];
  if (b.type) {
    where.push('type = ?');
    params.push(b.type);
  }
  if (b.typeId) {
    where.push('type_id = ?');
    params.push(b.typeId);
  }
  if (b.entityType) {
    where.push('entity_type = ?');
    params.push(b.entityType);
  }
  if (b.entityIds) {
    where.push('entity_id in (select (jsonb_array_elements_text(?::jsonb))::uuid)');
    params.push(JSON.stringify(b.entityIds));
  }
  return tenantSql(em, organizationId).all<ExecutionRow>(
    `select ${EXECUTION_COLUMNS} from execution where ${where.join(' and ')} order by created_at desc, id limit ?`,
    [...params, b.limit],
  );
}
