// CRM sync settings (spec 001 §3 'Sync settings'): syncAccounts, syncContacts and the field
// mappings, per organization and CRM provider; the CRM's own field lists to pick from (Salesforce
// describe of Account and Contact, Affinity's organization and person attributes and fields).
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CRM_MESSAGES,
  CRM_NAMES,
  CRM_SYNC_MESSAGES,
  CRM_USERNAME_MESSAGES,
  type CrmFieldDto,
  type CrmProvider,
  type FieldMapping,
  type SyncSettingsBody,
  type SyncSettingsDto,
} from '@dealscout/shared/contracts';
import { FIELD_MESSAGES, type FieldDataType } from '@dealscout/shared/domain';
import type { Config } from '../../../config';
import { badRequest, notFound } from '../../../lib/errors';
import { tenantSql } from '../../../db/sql';
import { decryptSecret } from '../../../lib/secrets';
import { outboundFetchFor } from '../../../providers/web/outbound';
import { AffinityClient, AffinityError } from '../providers/affinity';
import { SalesforceError } from '../providers/salesforce';
import type { IIntegration } from '../../integrations/integration.entity';
import { salesforceClientFor } from '../connect/crm-connect';
import { activeCrm } from '../crm-username';
import { FieldDefinition } from '../../fields/field.entity';
import type { ResolvedMapping } from './inbound';

/** Built-in Dealscout fields sync may write (the identity, owner and creation columns are not mappable). */
export const MAPPABLE_BUILT_INS: Record<'company' | 'contact', readonly string[]> = {
  company: ['name', 'website'],
  contact: ['first_name', 'last_name', 'email'],
};

/** The attributes every Affinity organization / person has (v1), offered next to its fields. */
export const AFFINITY_ATTRIBUTES: Record<'account' | 'contact', CrmFieldDto[]> = {
  account: [
    { name: 'name', label: 'Name', type: 'string', custom: false },
    { name: 'domain', label: 'Domain', type: 'url', custom: false },
  ],
  contact: [
    { name: 'first_name', label: 'First name', type: 'string', custom: false },
    { name: 'last_name', label: 'Last name', type: 'string', custom: false },
    { name: 'primary_email', label: 'Primary email', type: 'email', custom: false },
  ],
};

interface SettingsRow {
  provider: string;
  sync_accounts: boolean;
  sync_contacts: boolean;
  account_mappings: FieldMapping[];
  contact_mappings: FieldMapping[];
  updated_at: Date;
}

export async function readSyncSettings(em: EntityManager, organizationId: string, provider: CrmProvider): Promise<SettingsRow | null> {
  const [row] = await tenantSql(em, organizationId).all<SettingsRow>(
    `select provider, sync_accounts, sync_contacts, account_mappings, contact_mappings, updated_at from crm_sync_settings where
      organization_id = ? and provider = ?`,
    [organizationId, provider],
  );
  return row ?? null;
}

export async function getSyncSettings(em: EntityManager, organizationId: string): Promise<SyncSettingsDto> {
  const crm = await activeCrm(em);
  const provider = (crm?.provider ?? null) as CrmProvider | null;
  const row = provider ? await readSyncSettings(em, organizationId, provider) : null;
  return {
    provider,
    syncAccounts: row?.sync_accounts ?? true,
    syncContacts: row?.sync_contacts ?? true,
    accountMappings: row?.account_mappings ?? [],
    contactMappings: row?.contact_mappings ?? [],
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
  };
}

/** Checks each mapping's Dealscout field (the organization's, of the right type, mappable, mapped once) and answers them resolved. */
export async function resolveMappings(
  em: EntityManager,
  entityType: 'company' | 'contact',
  mappings: readonly FieldMapping[],
): Promise<ResolvedMapping[]> {
  const fields = await em.find(FieldDefinition, { entityType, id: { $in: mappings.map((m) => m.fieldId) } });
  const byId = new Map(fields.map((f) => [f.id, f]));
  const seen = new Set<string>();
  return mappings.map((m) => {
    const f = byId.get(m.fieldId);
    // Another organization's field (or none): 404, as for every foreign id.
    if (!f) throw notFound(FIELD_MESSAGES.notFound);
    if (f.isPseudo || (f.builtInColumn && !MAPPABLE_BUILT_INS[entityType].includes(f.key)) || ['id', 'reference'].includes(f.dataType))
      throw badRequest(CRM_SYNC_MESSAGES.fieldInvalid, { fieldId: m.fieldId });
    if (seen.has(f.id)) throw badRequest(CRM_SYNC_MESSAGES.duplicateTarget, { fieldId: m.fieldId });
    seen.add(f.id);
    return {
      crmField: m.crmField,
      fieldId: f.id,
      label: f.label,
      dataType: f.dataType as FieldDataType,
      builtInColumn: f.builtInColumn ? f.key : null,
      slot: f.slot ?? null,
      reconciliation: m.reconciliation,
    };
  });
}

export async function saveSyncSettings(
  em: EntityManager,
  organizationId: string,
  userId: string,
  body: SyncSettingsBody,
): Promise<SyncSettingsDto> {
  await resolveMappings(em, 'company', body.accountMappings);
  await resolveMappings(em, 'contact', body.contactMappings);
  const crm = await activeCrm(em);
  if (!crm) throw badRequest(CRM_USERNAME_MESSAGES.notEnabled);
  await tenantSql(em, organizationId).run(
    `insert into crm_sync_settings (id, organization_id, provider, sync_accounts, sync_contacts, account_mappings, contact_mappings, updated_by_id, updated_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, now())
     on conflict (organization_id, provider) do update set sync_accounts = excluded.sync_accounts, sync_contacts = excluded.sync_contacts,
       account_mappings = excluded.account_mappings, contact_mappings = excluded.contact_mappings, updated_by_id = excluded.updated_by_id, updated_at = now()`,
    [
      organizationId,
      crm.provider,
      body.syncAccounts,
      body.syncContacts,
      JSON.stringify(body.accountMappings),
      JSON.stringify(body.contactMappings),
      userId,
    ],
  );
  return getSyncSettings(em, organizationId);
}

/** A CRM failure as the 400 a user sees. */
export function crmFailure(crm: IIntegration, err: unknown): Error {
  const name = CRM_NAMES[crm.provider as CrmProvider];
  if ((err instanceof SalesforceError || err instanceof AffinityError) && err.rateLimited)
    return badRequest(CRM_MESSAGES.rateLimited(name));
  if (err instanceof SalesforceError && err.authorizationLost)
    return badRequest(`${name} no longer accepts Dealscout's connection. Ask your organization Admin to reconnect ${name}.`);
  if (err instanceof AffinityError && err.unauthorized) return badRequest(CRM_MESSAGES.affinityKeyRefused);
  if (err instanceof Error && 'statusCode' in err) return err;
  return badRequest(CRM_MESSAGES.unreachable(name));
}

export function affinityClientFor(
  config: Config,
  crm: IIntegration,
  opts: { maxAttempts?: number; maxRetryWaitMs?: number } = {},
): AffinityClient {
  const orgId = typeof crm.organization === 'string' ? crm.organization : crm.organization.id;
  return new AffinityClient({
    apiKey: decryptSecret(crm.secret ?? '', config.SECRETS_KEY, orgId),
    baseUrl: config.AFFINITY_BASE_URL,
    fetch: outboundFetchFor(config),
    maxAttempts: opts.maxAttempts ?? 4,
    maxRetryWaitMs: opts.maxRetryWaitMs ?? 30_000,
    timeoutMs: 30_000,
  });
}

/** The CRM's own fields of accounts and contacts, to map from. */
export async function crmFields(
  em: EntityManager,
  config: Config,
): Promise<{ provider: CrmProvider; account: CrmFieldDto[]; contact: CrmFieldDto[] }> {
  const crm = await activeCrm(em);
  if (!crm) throw badRequest(CRM_USERNAME_MESSAGES.notEnabled);
  try {
    if (crm.provider === 'salesforce') {
      const client = salesforceClientFor(em, config, crm);
      const skip = new Set(['Id', 'SystemModstamp', 'LastModifiedDate', 'CreatedDate', 'IsDeleted']);
      const shape = (fs: Awaited<ReturnType<typeof client.describe>>) =>
        fs
          .filter((f) => !skip.has(f.name) && f.type !== 'id')
          .map((f) => ({ name: f.name, label: f.label, type: f.type, custom: f.custom }))
          .sort((a, b) => a.label.localeCompare(b.label));
      const [account, contact] = await Promise.all([client.describe('Account'), client.describe('Contact')]);
      return { provider: 'salesforce', account: shape(account), contact: shape(contact) };
    }
    const client = affinityClientFor(config, crm, { maxAttempts: 2, maxRetryWaitMs: 5_000 });
    const [orgs, persons] = await Promise.all([client.fields('organizations'), client.fields('persons')]);
    const shape = (fs: typeof orgs) => fs.map((f) => ({ name: `field:${f.id}`, label: f.name, type: String(f.value_type), custom: true }));
    return {
      provider: 'affinity',
      account: [...AFFINITY_ATTRIBUTES.account, ...shape(orgs)],
      contact: [...AFFINITY_ATTRIBUTES.contact, ...shape(persons)],
    };
  } catch (err) {
    throw crmFailure(crm, err);
  }
}
