import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { FieldMapping } from '@dealscout/shared/contracts';
import { Organization } from '../../../db/organization.entity';

/**
 * An organization's CRM sync settings (spec 001 §3 'Sync settings': syncAccounts, syncContacts) and
 * its field mappings: Account ↔ company and Contact ↔ contact, each a CRM field onto a Dealscout
 * field with the side that wins a conflict. One row per organization and CRM provider.
 */
export const CrmSyncSettings = defineEntity({
  name: 'CrmSyncSettings',
  tableName: 'crm_sync_settings',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    provider: p.string().length(20),
    syncAccounts: p.boolean().default(true),
    syncContacts: p.boolean().default(true),
    accountMappings: p.json<FieldMapping[]>(),
    contactMappings: p.json<FieldMapping[]>(),
    /** The user who saved them last (no FK: the row outlives a deleted user). */
    updatedById: p.uuid().nullable(),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'crm_sync_settings_org_provider_unique', properties: ['organization', 'provider'] }],
});
export type ICrmSyncSettings = InferEntity<typeof CrmSyncSettings>;

/**
 * How far inbound sync has read one CRM object for one scope (a CRM user id, or '*' for an admin's
 * sync of everything): the modification stamp and id of the last record of the last committed page.
 * Written in the transaction that writes the page, so a crashed sync resumes after it.
 */
export const CrmSyncState = defineEntity({
  name: 'CrmSyncState',
  tableName: 'crm_sync_state',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    provider: p.string().length(20),
    /** Account | Contact (Salesforce), organizations | persons (Affinity). */
    object: p.string().length(40),
    scope: p.string().length(255),
    /** Salesforce: the SystemModstamp of the last record written. */
    highWater: p.datetime().nullable(),
    /** Salesforce: its Id (ties on the stamp are read again and skipped up to it). Affinity: the page token to go on with, null once a pass is complete. */
    lastId: p.string().length(255).nullable(),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'crm_sync_state_org_provider_object_scope_unique', properties: ['organization', 'provider', 'object', 'scope'] }],
});
export type ICrmSyncState = InferEntity<typeof CrmSyncState>;

/** What a sync changed, on which side, when: the record drawer's sync history. */
export const CrmSyncChange = defineEntity({
  name: 'CrmSyncChange',
  tableName: 'crm_sync_change',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    executionId: p.uuid().nullable(),
    provider: p.string().length(20),
    entityType: p.string().length(20),
    /**
     * The company or contact (no FK: the history outlives nothing, but it must not block deletes; rows of deleted
     * records are pruned with them by nobody — they are simply never shown).
     */
    entityId: p.uuid(),
    /** dealscout: sync changed our record; crm: sync wrote to the CRM (outbound phase). */
    side: p.string().length(20),
    /** created | updated | linked */
    action: p.string().length(20),
    fieldLabel: p.string().length(255).nullable(),
    oldValue: p.text().nullable(),
    newValue: p.text().nullable(),
    crmId: p.string().length(255).nullable(),
    changedAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ name: 'crm_sync_change_org_entity_index', properties: ['organization', 'entityType', 'entityId', 'changedAt'] }],
});
export type ICrmSyncChange = InferEntity<typeof CrmSyncChange>;

/**
 * A Bulk API 2.0 job the outbound phase started and has not collected yet: its id (heard as soon as
 * Salesforce made it) and what was sent per Dealscout id (the CRM id it had, the values to remember
 * as agreed). A sync resumed after a crash collects the job instead of loading a second one.
 */
export const CrmPushJob = defineEntity({
  name: 'CrmPushJob',
  tableName: 'crm_push_job',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    provider: p.string().length(20),
    entityType: p.string().length(20),
    jobId: p.string().length(40),
    items: p.json<Record<string, { crmId: string | null; values: Record<string, string | null>; sent: Record<string, string | null> }>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ name: 'crm_push_job_org_provider_type_index', properties: ['organization', 'provider', 'entityType'] }],
});
export type ICrmPushJob = InferEntity<typeof CrmPushJob>;

/** An activity logged in the CRM (a Salesforce Task, an Affinity note): each once per provider. */
export const CrmActivityPush = defineEntity({
  name: 'CrmActivityPush',
  tableName: 'crm_activity_push',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    provider: p.string().length(20),
    /** The activity (no FK, like crm_sync_change: the CRM keeps the Task when the activity is deleted here). */
    activityId: p.uuid(),
    crmId: p.string().length(255),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ name: 'crm_activity_push_org_provider_activity_unique', properties: ['organization', 'provider', 'activityId'] }],
});
export type ICrmActivityPush = InferEntity<typeof CrmActivityPush>;
