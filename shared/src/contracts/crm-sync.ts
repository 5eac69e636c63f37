import { z } from 'zod';
import { CRM_PROVIDERS, CRM_SYNC_MESSAGES } from '../domain/crm';

export { CRM_SYNC_MESSAGES } from '../domain/crm';

// ---- CRM sync settings and sync runs (spec 001 §3 'Sync settings', §4 'CRM sync result', §8 'CRM
// sync toasts', 'Sync tooltips'; 000 §2 header CRM sync icon). The spec shows no paths; ours are
// GET/PUT /crm/sync-settings, GET /crm/fields, POST /crm/sync, GET /crm/sync, GET /crm/sync-changes.

export const RECONCILIATIONS = ['use_latest', 'keep_existing'] as const;
export type Reconciliation = (typeof RECONCILIATIONS)[number];

// NUL characters and lone surrogates are refused for every route by the server's input guard.
const CrmFieldName = (max: number) => z.string().trim().min(1, CRM_SYNC_MESSAGES.crmFieldRequired).max(max);

export const FieldMapping = z.object({
  /** The CRM's field name (Salesforce API name, Affinity attribute or field id). */
  crmField: CrmFieldName(120),
  crmLabel: z.string().max(255).optional(),
  /** A Dealscout field definition of the entity type (built-in or custom). */
  fieldId: z.uuid(),
  /**
   * Who wins a conflict: use_latest — the later change (CRM modstamp vs our last write); keep_existing — a Dealscout
   * value is kept, the CRM only fills empties.
   */
  reconciliation: z.enum(RECONCILIATIONS).default('use_latest'),
});
export type FieldMapping = z.infer<typeof FieldMapping>;

export const SyncSettingsBody = z.object({
  syncAccounts: z.boolean(),
  syncContacts: z.boolean(),
  accountMappings: z.array(FieldMapping).max(100),
  contactMappings: z.array(FieldMapping).max(100),
});
export type SyncSettingsBody = z.infer<typeof SyncSettingsBody>;

export const SyncSettingsDto = SyncSettingsBody.extend({
  provider: z.enum(CRM_PROVIDERS).nullable(),
  updatedAt: z.string().nullable(),
});
export type SyncSettingsDto = z.infer<typeof SyncSettingsDto>;
export const SyncSettingsResponse = z.object({ success: z.literal(true), message: z.string().optional(), settings: SyncSettingsDto });

export const CrmFieldDto = z.object({ name: z.string(), label: z.string(), type: z.string(), custom: z.boolean() });
export type CrmFieldDto = z.infer<typeof CrmFieldDto>;
export const CrmFieldsResponse = z.object({
  success: z.literal(true),
  provider: z.enum(CRM_PROVIDERS),
  account: z.array(CrmFieldDto),
  contact: z.array(CrmFieldDto),
});
export type CrmFieldsResponse = z.infer<typeof CrmFieldsResponse>;

export const CRM_SYNC_STATUSES = ['invalid', 'failed', 'progress', 'completed'] as const;
export type CrmSyncStatus = (typeof CRM_SYNC_STATUSES)[number];

export const CrmSyncCounts = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
});
export type CrmSyncCounts = z.infer<typeof CrmSyncCounts>;
export const CrmSyncResult = z.object({
  accounts: CrmSyncCounts,
  contacts: CrmSyncCounts,
  /** The outbound phase (pushChanges): records and activities written to the CRM, and those that failed (null: not run, e.g. an older result). */
  outbound: z.object({ written: z.number().int(), failed: z.number().int() }).nullable(),
  failures: z.array(z.string()).max(50),
});
export type CrmSyncResult = z.infer<typeof CrmSyncResult>;

export const CrmSyncResponse = z.object({
  success: z.literal(true),
  /** null: this organization never synced (GET /crm/sync). */
  status: z.enum(CRM_SYNC_STATUSES).nullable(),
  message: z.string().nullable(),
  executionId: z.string().nullable(),
  processed: z.number().int().nullable(),
  total: z.number().int().nullable(),
  result: CrmSyncResult.nullable(),
  completedAt: z.string().nullable(),
});
export type CrmSyncResponse = z.infer<typeof CrmSyncResponse>;

export const SyncChangesQuery = z.object({ entityType: z.enum(['company', 'contact']), entityId: z.uuid() });
export const SyncChangeDto = z.object({
  id: z.string(),
  side: z.enum(['dealscout', 'crm']),
  action: z.enum(['created', 'updated', 'linked']),
  fieldLabel: z.string().nullable(),
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
  provider: z.enum(CRM_PROVIDERS),
  crmId: z.string().nullable(),
  changedAt: z.string(),
});
export type SyncChangeDto = z.infer<typeof SyncChangeDto>;
export const SyncChangesResponse = z.object({ success: z.literal(true), changes: z.array(SyncChangeDto) });
export type SyncChangesResponse = z.infer<typeof SyncChangesResponse>;
