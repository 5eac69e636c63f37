// The organization's key for a list-source provider: the integration row of that provider
// (organization scope, active), its secret encrypted like the LLM and CRM keys
// (server/src/lib/secrets.ts). Source Scrub's secret is its account as 'username:password'; the
// API client credential is the operator's (SOURCESCRUB_CLIENT_BASIC). No key → a clear message.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { decryptSecret } from '../../lib/secrets';
import { tenantSql } from '../../db/sql';
import { GooglePlacesClient } from './google-places';
import { OceanClient } from './ocean';
import { SourceScrubClient } from './sourcescrub';
import { LIST_PROVIDERS, ListProviderError, type ListProvider } from './port';

export function notConfiguredMessage(provider: ListProvider): string {
  return `No ${LIST_PROVIDERS[provider].name} API key is connected for your organization. An admin can add it under Profile → Integrations.`;
}

export async function providerSecret(em: EntityManager, config: Config, organizationId: string, provider: ListProvider): Promise<string> {
  const [row] = await tenantSql(em, organizationId).all<{ secret: string | null }>(
    `select secret from integration where organization_id = ? and provider = ? and user_id is null and active order by created_at desc limit 1`,
    [organizationId, provider],
  );
  if (!row?.secret) throw new ListProviderError('not_configured', notConfiguredMessage(provider));
  try {
    return decryptSecret(row.secret, config.SECRETS_KEY, organizationId);
  } catch {
    throw new ListProviderError(
      'not_configured',
      `Your organization's ${LIST_PROVIDERS[provider].name} API key cannot be read (the server's SECRETS_KEY ` +
        `changed). An admin must connect it again under Profile → Integrations.`,
    );
  }
}

export async function oceanFor(em: EntityManager, config: Config, organizationId: string): Promise<OceanClient> {
  return new OceanClient({
    apiToken: await providerSecret(em, config, organizationId, 'ocean'),
    baseUrl: config.OCEAN_BASE_URL,
    timeoutMs: config.LIST_PROVIDER_TIMEOUT_MS,
  });
}

export async function googlePlacesFor(em: EntityManager, config: Config, organizationId: string): Promise<GooglePlacesClient> {
  return new GooglePlacesClient({
    apiKey: await providerSecret(em, config, organizationId, 'googleMaps'),
    baseUrl: config.GOOGLE_PLACES_BASE_URL,
    timeoutMs: config.LIST_PROVIDER_TIMEOUT_MS,
  });
}

export async function sourceScrubFor(em: EntityManager, config: Config, organizationId: string): Promise<SourceScrubClient> {
  const secret = await providerSecret(em, config, organizationId, 'sourceScrub');
  if (!config.SOURCESCRUB_CLIENT_BASIC)
    throw new ListProviderError(
      'not_configured',
      'Source Scrub is not set up on this server (the operator must set SOURCESCRUB_CLIENT_BASIC).',
    );
  const at = secret.indexOf(':');
  if (at <= 0)
    throw new ListProviderError(
      'not_configured',
      "Your organization's Source Scrub account must be entered as username:password. An admin can replace it under Profile → Integrations.",
    );
  return new SourceScrubClient({
    username: secret.slice(0, at),
    password: secret.slice(at + 1),
    clientBasic: config.SOURCESCRUB_CLIENT_BASIC,
    baseUrl: config.SOURCESCRUB_BASE_URL,
    identityUrl: config.SOURCESCRUB_IDENTITY_URL,
    timeoutMs: config.LIST_PROVIDER_TIMEOUT_MS,
  });
}
