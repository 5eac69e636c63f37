// Connecting a CRM (spec 001 §2 'Integrations settings page', §4 'Integration card': one active CRM
// at a time). Salesforce: OAuth 2.0 web-server flow with PKCE — POST /organization/integration
// starts the authorization (integrations/oauth.ts: a pending authorization for 15 minutes), creates
// the organization's salesforce row inactive when new (so a half-done first connect shows Connect) and
// answers the authorization URL; the callback takes the authorization (the same organization and
// user), exchanges the code, reads the identity and stores the refresh token encrypted. Affinity: the
// API key is checked with GET /auth/whoami, then stored encrypted.
import type { EntityManager } from '@mikro-orm/postgresql';
import { CRM_MESSAGES, CRM_NAMES, CRM_SYNC_MESSAGES, type CrmProvider, type SalesforceEnvironment } from '@dealscout/shared/contracts';
import type { Config } from '../../../config';
import { Integration, type IIntegration } from '../../integrations/integration.entity';
import type { CrmCallbackOutcome, CrmConnector } from '../../integrations/crm-connector';
import { User } from '../../users/user.entity';
import { badRequest } from '../../../lib/errors';
import { scopedTo } from '../../../db/sql';
import { decryptSecret, encryptSecret } from '../../../lib/secrets';
import { checkOutboundUrl, outboundFetchFor, outboundRefusal } from '../../../providers/web/outbound';
import { authorizationUrl, exchangeCode, SalesforceClient, SalesforceError, type SalesforceAppConfig } from '../providers/salesforce';
import { AffinityClient, AffinityError } from '../providers/affinity';
import { startAuthorization, takeAuthorization } from '../../integrations/oauth';

export const SALESFORCE_CALLBACK_PATH = '/api/v1/integrations/salesforce/callback';

/** What a salesforce row keeps in `secret` (encrypted as one JSON text). */
interface SalesforceSecret {
  refreshToken: string | null;
  accessToken: string | null;
}

export function salesforceAppConfig(config: Config, environment: SalesforceEnvironment): SalesforceAppConfig | null {
  if (!config.SALESFORCE_CLIENT_ID) return null;
  return {
    clientId: config.SALESFORCE_CLIENT_ID,
    clientSecret: config.SALESFORCE_CLIENT_SECRET,
    loginUrl: (environment === 'sandbox' ? config.SALESFORCE_SANDBOX_LOGIN_URL : config.SALESFORCE_LOGIN_URL).replace(/\/+$/, ''),
    redirectUri: `${config.publicUrl}${SALESFORCE_CALLBACK_PATH}`,
  };
}

/** The other CRM, when it is connected and active (one active CRM at a time). */
export async function otherActiveCrm(em: EntityManager, provider: CrmProvider): Promise<IIntegration | null> {
  const other: CrmProvider = provider === 'salesforce' ? 'affinity' : 'salesforce';
  return em.findOne(Integration, { provider: other, user: null, active: true });
}

async function refuseWhenOtherActive(em: EntityManager, provider: CrmProvider): Promise<void> {
  const other = await otherActiveCrm(em, provider);
  if (other) throw badRequest(CRM_MESSAGES.otherCrmActive(CRM_NAMES[other.provider as CrmProvider]));
}

/** Starts the Salesforce authorization: answers the row (created inactive if new) and the URL to go to. */
export async function startSalesforceConnect(
  em: EntityManager,
  config: Config,
  organizationId: string,
  userId: string,
  environment: SalesforceEnvironment,
): Promise<{ id: string; url: string }> {
  const app = salesforceAppConfig(config, environment);
  if (!app) throw badRequest(CRM_MESSAGES.salesforceNotConfigured);
  await refuseWhenOtherActive(em, 'salesforce');
  const id = await em.transactional(async (tem) => {
    let row = await tem.findOne(Integration, { provider: 'salesforce', user: null });
    if (!row) {
      row = tem.create(Integration, {
        organization: organizationId,
        provider: 'salesforce',
        type: 'crm',
        name: 'Salesforce',
        active: false,
        createdBy: userId,
        data: { environment },
      });
    }
    await tem.flush();
    return row.id;
  });
  const { state, challenge } = await startAuthorization(em, config.SECRETS_KEY, { organizationId, userId }, 'salesforce', { environment });
  return { id, url: authorizationUrl(app, state, challenge) };
}

export type CallbackOutcome = CrmCallbackOutcome;

/** The sObjects sync writes to with the Dealscout_Id__c External ID (sync/push.ts). */
const EXTERNAL_ID_OBJECTS = ['Account', 'Contact', 'Task'] as const;

/**
 * After a connect: the sObjects missing the Dealscout_Id__c External ID field, said as a warning
 * (the connection stands; sync fails with the same words before writing back). A failed describe
 * says nothing here: the sync checks again.
 */
async function externalIdWarning(client: SalesforceClient): Promise<string | undefined> {
  try {
    const missing: string[] = [];
    for (const sobject of EXTERNAL_ID_OBJECTS) {
      const f = (await client.describe(sobject)).find((x) => x.name.toLowerCase() === 'dealscout_id__c');
      if (!f?.externalId) missing.push(sobject === 'Task' ? 'Activity' : sobject);
    }
    return missing.length ? CRM_SYNC_MESSAGES.externalIdMissing('Dealscout_Id__c', missing.join(', ')) : undefined;
  } catch {
    return undefined;
  }
}

/** The OAuth callback: checks the state, exchanges the code with the PKCE verifier, stores the tokens encrypted. */
export async function finishSalesforceConnect(
  em: EntityManager,
  config: Config,
  organizationId: string,
  userId: string,
  q: { code?: string; state?: string; error?: string },
): Promise<CallbackOutcome> {
  // Taken (deleted) whatever follows: a state is used once.
  const taken = await takeAuthorization(em, config.SECRETS_KEY, q.state, { provider: 'salesforce', organizationId, userId });
  const row = taken && (await em.findOne(Integration, { provider: 'salesforce', user: null }));
  if (!taken || !row) return { ok: false, message: CRM_MESSAGES.authorizationExpired };
  const pending = { environment: taken.data.environment as SalesforceEnvironment, verifier: taken.verifier };
  if (q.error || !q.code) {
    return { ok: false, message: q.error === 'access_denied' ? CRM_MESSAGES.authorizationDenied : CRM_MESSAGES.authorizationFailed };
  }
  const app = salesforceAppConfig(config, pending.environment);
  if (!app) return { ok: false, message: CRM_MESSAGES.salesforceNotConfigured };
  const other = await otherActiveCrm(em, 'salesforce');
  if (other) {
    return { ok: false, message: CRM_MESSAGES.otherCrmActive(CRM_NAMES[other.provider as CrmProvider]) };
  }
  let identity;
  let tokens;
  try {
    tokens = await exchangeCode(app, q.code, pending.verifier);
    // The instance URL comes from Salesforce's answer: it must pass the outbound address policy.
    await checkOutboundUrl(tokens.instanceUrl, { allowedPrivateHosts: config.allowedPrivateHosts });
    identity = await new SalesforceClient(app, tokens).identity(tokens.identityUrl);
  } catch (err) {
    const refused = outboundRefusal(err);
    if (refused) return { ok: false, message: `Salesforce answered an instance URL that cannot be used: ${refused.message}` };
    if (err instanceof SalesforceError && err.errorCode === 'CONNECTION_FAILED')
      return { ok: false, message: CRM_MESSAGES.unreachable('Salesforce') };
    return { ok: false, message: CRM_MESSAGES.authorizationFailed };
  }
  const secret: SalesforceSecret = { refreshToken: tokens.refreshToken, accessToken: tokens.accessToken };
  row.secret = encryptSecret(JSON.stringify(secret), config.SECRETS_KEY, organizationId);
  row.active = true;
  row.name = 'Salesforce';
  row.createdBy = em.getReference(User, userId);
  row.createdAt = new Date();
  row.expiresAt = null;
  row.data = {
    environment: pending.environment,
    loginUrl: app.loginUrl,
    instanceUrl: tokens.instanceUrl,
    identityUrl: tokens.identityUrl,
    accountName: identity.username,
    username: identity.username,
    salesforceOrgId: identity.organizationId,
    salesforceUserId: identity.userId,
  };
  await em.flush();
  return { ok: true, warning: await externalIdWarning(salesforceClientFor(em, config, row)) };
}

/** A Salesforce client for an organization's active connection; new access tokens are stored (encrypted). */
export function salesforceClientFor(em: EntityManager, config: Config, row: IIntegration): SalesforceClient {
  const data = row.data as { environment?: SalesforceEnvironment; instanceUrl?: string };
  const app = salesforceAppConfig(config, data.environment ?? 'production');
  if (!app || !row.secret || !data.instanceUrl) throw badRequest(CRM_MESSAGES.salesforceNotConfigured);
  const orgId = typeof row.organization === 'string' ? row.organization : row.organization.id;
  const secret = JSON.parse(decryptSecret(row.secret, config.SECRETS_KEY, orgId)) as SalesforceSecret;
  return new SalesforceClient(app, { ...secret, instanceUrl: data.instanceUrl }, async (accessToken) => {
    await em
      .fork()
      .nativeUpdate(
        Integration,
        { id: row.id, organization: orgId },
        { secret: encryptSecret(JSON.stringify({ ...secret, accessToken }), config.SECRETS_KEY, orgId) },
        scopedTo(orgId),
      );
  });
}

/** Checks an Affinity key with GET /auth/whoami; a refusal becomes a 400 with a message for the admin. */
export async function verifyAffinityKey(config: Config, apiKey: string) {
  const client = new AffinityClient({
    apiKey,
    baseUrl: config.AFFINITY_BASE_URL,
    fetch: outboundFetchFor(config),
    maxAttempts: 2,
    maxRetryWaitMs: 5_000,
    timeoutMs: 15_000,
  });
  try {
    return await client.whoami();
  } catch (err) {
    const refused = outboundRefusal(err) ?? outboundRefusal((err as { cause?: unknown }).cause);
    if (refused) throw badRequest(CRM_MESSAGES.unreachable('Affinity'));
    if (err instanceof AffinityError && err.unauthorized) throw badRequest(CRM_MESSAGES.affinityKeyRefused);
    if (err instanceof AffinityError && err.rateLimited) throw badRequest(CRM_MESSAGES.rateLimited('Affinity'));
    throw badRequest(CRM_MESSAGES.unreachable('Affinity'));
  }
}

/** Connects (or replaces) the organization's Affinity key. */
export async function connectAffinity(
  em: EntityManager,
  config: Config,
  organizationId: string,
  userId: string,
  apiKey: string,
  name: string | undefined,
): Promise<string> {
  await refuseWhenOtherActive(em, 'affinity');
  const me = await verifyAffinityKey(config, apiKey);
  return em.transactional(async (tem) => {
    await tem.nativeDelete(Integration, { provider: 'affinity', user: null });
    const row = tem.create(Integration, {
      organization: organizationId,
      provider: 'affinity',
      type: 'crm',
      name: name || me.tenant.name,
      active: true,
      createdBy: userId,
      secret: encryptSecret(apiKey, config.SECRETS_KEY, organizationId),
      data: affinityData(me, apiKey),
    });
    await tem.flush();
    return row.id;
  });
}

export function affinityData(me: Awaited<ReturnType<AffinityClient['whoami']>>, apiKey: string): Record<string, unknown> {
  return {
    accountName: me.tenant.name,
    username: me.user.email,
    instanceUrl: `https://${me.tenant.subdomain}.affinity.co`,
    affinityTenantId: me.tenant.id,
    affinityUserId: me.user.id,
    keyHint: apiKey.length >= 12 ? apiKey.slice(-4) : null,
  };
}

/** Best effort: tells Salesforce to revoke the refresh token of a connection being removed. */
export async function revokeSalesforce(config: Config, row: IIntegration): Promise<void> {
  const data = row.data as { environment?: SalesforceEnvironment };
  const app = salesforceAppConfig(config, data.environment ?? 'production');
  if (!app || !row.secret) return;
  try {
    const orgId = typeof row.organization === 'string' ? row.organization : row.organization.id;
    const secret = JSON.parse(decryptSecret(row.secret, config.SECRETS_KEY, orgId)) as SalesforceSecret;
    if (!secret.refreshToken) return;
    await fetch(`${app.loginUrl}/services/oauth2/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token: secret.refreshToken }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    /* the row is removed either way; an unrevoked token dies with the connected app's policy */
  }
}

/** What the integrations routes call to connect, pause and remove a CRM (wired in app.ts). */
export const crmConnector: CrmConnector = {
  startSalesforceConnect,
  finishSalesforceConnect,
  connectAffinity,
  affinityKeyData: async (config, apiKey) => affinityData(await verifyAffinityKey(config, apiKey), apiKey),
  otherActiveCrm,
  revokeSalesforce,
};
