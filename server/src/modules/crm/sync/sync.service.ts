// Starting a CRM sync and reading its outcome (spec 001 §4 'CRM sync result': invalid, failed,
// progress, completed; §8 'CRM sync toasts', a server message taking precedence over them).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import {
  CRM_NAMES,
  CRM_SYNC_MESSAGES,
  CRM_USERNAME_MESSAGES,
  type CrmProvider,
  type CrmSyncResponse,
  type CrmSyncResult,
  type SyncChangeDto,
} from '@dealscout/shared/contracts';
import { COMPANY_MESSAGES, CONTACT_MESSAGES } from '@dealscout/shared/domain';
import { tenantSql } from '../../../db/sql';
import { notFound } from '../../../lib/errors';
import { createExecutions } from '../../executions/commands/create-executions';
import { EXECUTION_COLUMNS, type ExecutionRow } from '../../executions/execution.presenter';
import { activeCrm } from '../crm-username';
import { CrmUserLink } from '../crm-user-link.entity';
import { readSyncSettings } from './settings';

type SyncAnswer = Omit<CrmSyncResponse, 'success'>;

const invalid = (message: string): SyncAnswer => ({
  status: 'invalid',
  message,
  executionId: null,
  processed: null,
  total: null,
  result: null,
  completedAt: null,
});

export function syncAnswer(row: ExecutionRow): SyncAnswer {
  const base = {
    executionId: row.id,
    processed: row.processed,
    total: row.total,
    result: (row.result as CrmSyncResult | null) ?? null,
    completedAt: row.completed_at ? new Date(row.completed_at).toISOString() : null,
  };
  if (row.status === 'completed') {
    const r = base.result;
    const failed = r ? r.accounts.failed + r.contacts.failed + (r.outbound?.failed ?? 0) > 0 : false;
    return { ...base, status: 'completed', message: failed ? CRM_SYNC_MESSAGES.failures : CRM_SYNC_MESSAGES.completed };
  }
  if (row.status === 'error' || row.status === 'cancelled')
    return { ...base, status: 'failed', message: row.status_message ?? CRM_SYNC_MESSAGES.error };
  return { ...base, status: 'progress', message: CRM_SYNC_MESSAGES.progress };
}

/** Starts the organization's sync (one active at a time: a second start answers the running one). */
export async function startSync(
  em: EntityManager,
  boss: PgBoss,
  organizationId: string,
  userId: string,
  isAdmin: boolean,
): Promise<SyncAnswer> {
  const crm = await activeCrm(em);
  if (!crm) return invalid(CRM_USERNAME_MESSAGES.notEnabled);
  const provider = crm.provider as CrmProvider;
  const settings = await readSyncSettings(em, organizationId, provider);
  if (!settings || settings.account_mappings.length === 0 || settings.contact_mappings.length === 0)
    return invalid(CRM_SYNC_MESSAGES.invalidSettings);
  if (!isAdmin && !(await em.findOne(CrmUserLink, { user: userId, provider })))
    return invalid(CRM_SYNC_MESSAGES.tooltipUsername(CRM_NAMES[provider]));
  const [started] = await createExecutions(em, boss, {
    organizationId,
    createdById: userId,
    type: 'crmsync',
    entityType: 'company',
    targets: [{ entityId: null, idempotencyKey: `crmsync:${organizationId}` }],
  });
  const [row] = await tenantSql(em, organizationId).all<ExecutionRow>(
    `select ${EXECUTION_COLUMNS} from execution where organization_id = ? and id = ?`,
    [organizationId, started.executionId],
  );
  return syncAnswer(row);
}

export async function latestSync(em: EntityManager, organizationId: string): Promise<SyncAnswer> {
  const [row] = await tenantSql(em, organizationId).all<ExecutionRow>(
    `select ${EXECUTION_COLUMNS} from execution where organization_id = ? and type = 'crmsync' order by created_at desc limit 1`,
    [organizationId],
  );
  if (!row) return { status: null, message: null, executionId: null, processed: null, total: null, result: null, completedAt: null };
  return syncAnswer(row);
}

export async function syncChanges(
  em: EntityManager,
  organizationId: string,
  entityType: 'company' | 'contact',
  entityId: string,
): Promise<SyncChangeDto[]> {
  const sql = tenantSql(em, organizationId);
  const exists = await sql.all(`select 1 from ${entityType} where organization_id = ? and id = ?`, [organizationId, entityId]);
  if (exists.length === 0) throw notFound(entityType === 'company' ? COMPANY_MESSAGES.notFound : CONTACT_MESSAGES.notFound);
  const rows = await sql.all<{
    id: string;
    side: string;
    action: string;
    field_label: string | null;
    old_value: string | null;
    new_value: string | null;
    provider: string;
    crm_id: string | null;
    changed_at: Date;
  }>(
    `select id, side, action, field_label, old_value, new_value, provider, crm_id, changed_at from crm_sync_change
      where organization_id = ? and entity_type = ? and entity_id = ? order by changed_at desc, id limit 200`,
    [organizationId, entityType, entityId],
  );
  return rows.map((r) => ({
    id: r.id,
    side: r.side as SyncChangeDto['side'],
    action: r.action as SyncChangeDto['action'],
    fieldLabel: r.field_label,
    oldValue: r.old_value,
    newValue: r.new_value,
    provider: r.provider as CrmProvider,
    crmId: r.crm_id,
    changedAt: new Date(r.changed_at).toISOString(),
  }));
}
