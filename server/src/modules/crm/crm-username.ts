// The CRM username check and link (spec 001 §5 'CRM username', §4: USER_AVAILABLE, USER_UNAVAILABLE,
// USER_INVALID; a user's CRM link cannot be changed once linked). The username is looked up in the
// organization's active CRM: Salesforce `SELECT … FROM User WHERE Username = '…'` (active users
// only); Affinity: an internal person (a user of the instance) with that email.
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CRM_NAMES,
  CRM_USERNAME_MESSAGES,
  CRM_USERNAME_PATTERN,
  CRM_MESSAGES,
  type CrmProvider,
  type CrmUsernameStatus,
  type CrmUserSettingsDto,
} from '@dealscout/shared/contracts';
import type { Config } from '../../config';
import { Integration, type IIntegration } from '../integrations/integration.entity';
import { salesforceClientFor } from './connect/crm-connect';
import { AffinityClient, AffinityError } from './providers/affinity';
import { SalesforceError } from './providers/salesforce';
import { decryptSecret } from '../../lib/secrets';
import { outboundFetchFor } from '../../providers/web/outbound';
import { badRequest, conflict } from '../../lib/errors';
import { CrmUserLink } from './crm-user-link.entity';
import { scopedTo, tenantSql } from '../../db/sql';

export async function activeCrm(em: EntityManager): Promise<IIntegration | null> {
  return em.findOne(Integration, { user: null, provider: { $in: ['salesforce', 'affinity'] }, active: true });
}

/** The CRM user behind a username, or null when the CRM knows no such (active) user. */
async function lookUp(
  em: EntityManager,
  config: Config,
  crm: IIntegration,
  username: string,
): Promise<{ id: string; username: string } | null> {
  try {
    if (crm.provider === 'salesforce') {
      const u = await salesforceClientFor(em, config, crm).findUserByUsername(username);
      return u && u.active ? { id: u.id, username: u.username } : null;
    }
    const orgId = typeof crm.organization === 'string' ? crm.organization : crm.organization.id;
    const client = new AffinityClient({
      apiKey: decryptSecret(crm.secret ?? '', config.SECRETS_KEY, orgId),
      baseUrl: config.AFFINITY_BASE_URL,
      fetch: outboundFetchFor(config),
      maxAttempts: 2,
      maxRetryWaitMs: 5_000,
      timeoutMs: 15_000,
    });
    const p = await client.findInternalPerson(username);
    return p ? { id: String(p.id), username: p.primary_email ?? username } : null;
  } catch (err) {
    const name = CRM_NAMES[crm.provider as CrmProvider];
    if ((err instanceof SalesforceError || err instanceof AffinityError) && err.rateLimited)
      throw badRequest(CRM_MESSAGES.rateLimited(name));
    if (err instanceof SalesforceError && err.authorizationLost)
      throw badRequest(`${name} no longer accepts Dealscout's connection. Ask your organization Admin to reconnect ${name}.`);
    throw badRequest(CRM_MESSAGES.unreachable(name));
  }
}

export async function checkCrmUsername(
  em: EntityManager,
  config: Config,
  userId: string,
  username: string,
): Promise<{ status: CrmUsernameStatus; crmUser: { id: string; username: string } | null; crm: IIntegration }> {
  const crm = await activeCrm(em);
  if (!crm) throw badRequest(CRM_USERNAME_MESSAGES.notEnabled);
  if (!CRM_USERNAME_PATTERN.test(username)) return { status: 'USER_INVALID', crmUser: null, crm };
  const crmUser = await lookUp(em, config, crm, username);
  if (!crmUser) return { status: 'USER_INVALID', crmUser: null, crm };
  const taken = await em.findOne(CrmUserLink, { provider: crm.provider, crmUserId: crmUser.id });
  const takenBy = taken ? (typeof taken.user === 'string' ? taken.user : taken.user.id) : null;
  return { status: takenBy && takenBy !== userId ? 'USER_UNAVAILABLE' : 'USER_AVAILABLE', crmUser, crm };
}

export const statusMessage = (s: CrmUsernameStatus): string | null =>
  s === 'USER_INVALID' ? CRM_USERNAME_MESSAGES.invalid : s === 'USER_UNAVAILABLE' ? CRM_USERNAME_MESSAGES.unavailable : null;

export async function crmUserSettings(em: EntityManager, userId: string): Promise<CrmUserSettingsDto> {
  const crm = await activeCrm(em);
  const provider = (crm?.provider ?? null) as CrmProvider | null;
  const link = provider ? await em.findOne(CrmUserLink, { user: userId, provider }) : null;
  return {
    provider,
    crmName: provider ? CRM_NAMES[provider] : null,
    crmUserId: link?.crmUserId ?? null,
    crmUsername: link?.crmUsername ?? null,
    linkedAt: link?.createdAt.toISOString() ?? null,
  };
}

/** Links the caller's CRM username once; a second link for the same CRM is refused (409). */
export async function linkCrmUsername(
  em: EntityManager,
  config: Config,
  organizationId: string,
  userId: string,
  username: string,
): Promise<CrmUserSettingsDto> {
  const crm = await activeCrm(em);
  if (!crm) throw badRequest(CRM_USERNAME_MESSAGES.notEnabled);
  if (await em.findOne(CrmUserLink, { user: userId, provider: crm.provider })) throw conflict(CRM_USERNAME_MESSAGES.alreadyLinked);
  const checked = await checkCrmUsername(em, config, userId, username);
  if (checked.status !== 'USER_AVAILABLE' || !checked.crmUser)
    throw badRequest(statusMessage(checked.status) ?? CRM_USERNAME_MESSAGES.invalid, { status: checked.status });
  // Both uniques hold under concurrency: (user, provider) and (provider, CRM user).
  const inserted = await tenantSql(em, organizationId).all<{ id: string }>(
    `insert into crm_user_link (id, organization_id, user_id, provider, crm_user_id, crm_username, created_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, now()) on conflict do nothing returning id`,
    [organizationId, userId, crm.provider, checked.crmUser.id, checked.crmUser.username],
  );
  if (!inserted.length) {
    const mine = await em
      .fork()
      .findOne(CrmUserLink, { organization: organizationId, user: userId, provider: crm.provider }, scopedTo(organizationId));
    if (mine) throw conflict(CRM_USERNAME_MESSAGES.alreadyLinked);
    throw badRequest(CRM_USERNAME_MESSAGES.unavailable, { status: 'USER_UNAVAILABLE' });
  }
  return crmUserSettings(em, userId);
}
