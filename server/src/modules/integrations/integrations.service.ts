// The integrations' use cases (routes in integrations.routes.ts): the list, connecting an
// organization integration (an OpenAI-compatible key, a data provider's key, or a CRM through the
// CrmConnector the CRM module provides), updating (rename, replace an Affinity key, pause / resume a
// CRM) and removing. Each receives one IntegrationContext: the request's EntityManager, the config,
// the CRM connector and the caller.
import type { EntityManager } from '@mikro-orm/postgresql';
import OpenAI from 'openai';
import type { z } from 'zod';
import {
  INTEGRATION_MESSAGES,
  type IntegrationDto,
  CRM_MESSAGES,
  CRM_NAMES,
  type CreateOrgIntegrationBody,
  type UpdateIntegrationBody,
  type CrmProvider,
  DATA_PROVIDERS,
  DATA_PROVIDER_NAMES,
  type DataProvider,
} from '@dealscout/shared/contracts';
import type { Config } from '../../config';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { encryptSecret } from '../../lib/secrets';
import { checkOutboundUrl, outboundFetchFor, outboundRefusal, type OutboundFetch } from '../../providers/web/outbound';
import { setLlmSettings } from '../llm/llm-settings';
import { Integration, type IIntegration } from './integration.entity';
import type { CrmConnector } from './crm-connector';

export interface IntegrationContext {
  em: EntityManager;
  config: Config;
  crm: CrmConnector;
  organizationId: string;
  userId: string;
  isAdmin: boolean;
}

export function toIntegrationDto(i: IIntegration): IntegrationDto {
  const data = (i.data ?? {}) as {
    baseUrl?: string | null;
    models?: string[];
    keyHint?: string | null;
    accountName?: string | null;
    environment?: string | null;
    instanceUrl?: string | null;
    username?: string | null;
  };
  const createdBy =
    i.createdBy && 'firstName' in i.createdBy && i.createdBy.firstName !== undefined
      ? { id: i.createdBy.id, firstName: i.createdBy.firstName, lastName: i.createdBy.lastName }
      : null;
  return {
    id: i.id,
    provider: i.provider,
    type: i.type,
    scope: i.user ? 'user' : 'organization',
    data: {
      name: i.name,
      createdById: i.createdBy?.id ?? null,
      createdBy,
      createdAt: i.createdAt.toISOString(),
      expiresAt: i.expiresAt?.toISOString() ?? null,
      active: i.active,
      metadata: {
        name: data.accountName ?? i.name,
        ...(i.provider === 'openai' ? { baseUrl: data.baseUrl ?? null, models: data.models ?? [], keyHint: data.keyHint ?? null } : {}),
        ...(i.provider === 'salesforce'
          ? { environment: data.environment ?? null, instanceUrl: data.instanceUrl ?? null, username: data.username ?? null }
          : {}),
        ...((DATA_PROVIDERS as readonly string[]).includes(i.provider) ? { keyHint: data.keyHint ?? null } : {}),
        ...(i.provider === 'affinity'
          ? { instanceUrl: data.instanceUrl ?? null, username: data.username ?? null, keyHint: data.keyHint ?? null }
          : {}),
      },
    },
  };
}

/** Checks a key against the provider (GET /models). A provider without /models (404) is accepted. */
async function verifyOpenAiKey(apiKey: string, baseURL: string | null, timeoutMs: number, fetch: OutboundFetch): Promise<void> {
  // The organization's own base URL goes through the outbound address policy (no internal hosts
  // unless the operator allows them, pinned DNS, every redirect checked); the default OpenAI URL too.
  const client = new OpenAI({ apiKey, baseURL: baseURL ?? undefined, maxRetries: 0, timeout: timeoutMs, fetch });
  try {
    await client.models.list();
  } catch (err) {
    const refused = outboundRefusal(err);
    if (refused) throw badRequest(INTEGRATION_MESSAGES.baseUrlRefused(refused.message));
    if (err instanceof OpenAI.APIError && (err.status === 401 || err.status === 403)) throw badRequest(INTEGRATION_MESSAGES.keyRefused);
    if (err instanceof OpenAI.APIConnectionError) throw badRequest(INTEGRATION_MESSAGES.unreachable);
    if (err instanceof OpenAI.APIError && err.status !== undefined && err.status >= 500) throw badRequest(INTEGRATION_MESSAGES.unreachable);
    // 404 / 405 and the like: an OpenAI-compatible server without a models list.
  }
}

/** The last 4 characters of a key as its hint, none for keys under 12 characters (the hint would be most of the key). */
export function keyHint(apiKey: string): string | null {
  return apiKey.length >= 12 ? apiKey.slice(-4) : null;
}

/** The organization's integrations and the caller's own (no secrets). */
export async function listIntegrations(ctx: IntegrationContext): Promise<IntegrationDto[]> {
  const rows = await ctx.em.find(
    Integration,
    { $or: [{ user: null }, { user: ctx.userId }] },
    { populate: ['createdBy'], orderBy: { createdAt: 'asc' } },
  );
  return rows.map(toIntegrationDto);
}

async function savedDto(ctx: IntegrationContext, id: string, refresh = false): Promise<IntegrationDto> {
  return toIntegrationDto(
    await ctx.em.findOneOrFail(Integration, { id }, { populate: ['createdBy'], ...(refresh ? { refresh: true } : {}) }),
  );
}

/** Connects an organization integration (admin): answers the message, the row and, for Salesforce, the URL to authorize at. */
export async function connectIntegration(
  ctx: IntegrationContext,
  body: z.output<typeof CreateOrgIntegrationBody>,
): Promise<{ message: string; integration: IntegrationDto; authorizationUrl?: string }> {
  const { em, config } = ctx;
  if (body.provider === 'salesforce') {
    const started = await ctx.crm.startSalesforceConnect(em, config, ctx.organizationId, ctx.userId, body.environment ?? 'production');
    return {
      message: 'Continue in Salesforce to authorize the connection',
      integration: await savedDto(ctx, started.id, true),
      authorizationUrl: started.url,
    };
  }
  if (body.provider === 'affinity') {
    const id = await ctx.crm.connectAffinity(em, config, ctx.organizationId, ctx.userId, body.apiKey ?? '', body.name);
    return { message: CRM_MESSAGES.connected('Affinity'), integration: await savedDto(ctx, id) };
  }
  if ((DATA_PROVIDERS as readonly string[]).includes(body.provider)) {
    // A list-source provider's key (Ocean.io, Source Scrub, Google Maps): stored encrypted, one per
    // organization (a new one replaces the old). It is not checked here: each check would spend
    // the organization's credits; the first preview says at once when the provider refuses it.
    const provider = body.provider as DataProvider;
    const apiKey = body.apiKey ?? '';
    const id = await em.transactional(async (tem) => {
      await tem.nativeDelete(Integration, { provider, user: null });
      const row = tem.create(Integration, {
        organization: ctx.organizationId,
        provider,
        type: 'data',
        name: body.name || DATA_PROVIDER_NAMES[provider],
        active: true,
        createdBy: ctx.userId,
        secret: encryptSecret(apiKey, config.SECRETS_KEY, ctx.organizationId),
        data: { keyHint: provider === 'sourceScrub' ? null : keyHint(apiKey) },
      });
      await tem.flush();
      return row.id;
    });
    return { message: `${DATA_PROVIDER_NAMES[provider]} connected`, integration: await savedDto(ctx, id) };
  }
  return connectOpenAi(ctx, body);
}

/** The organization's own OpenAI-compatible key: checked against the provider, stored encrypted, the system LLM turned off. */
async function connectOpenAi(ctx: IntegrationContext, body: z.output<typeof CreateOrgIntegrationBody>) {
  const { em, config } = ctx;
  const keyName = body.name;
  const apiKey = body.apiKey;
  // Checked by the body schema for openai; narrowed here for the compiler.
  if (!keyName || !apiKey) throw badRequest(INTEGRATION_MESSAGES.keyRefused);
  const baseUrl = body.baseUrl ? body.baseUrl.replace(/\/+$/, '') : null;
  if (baseUrl && config.NODE_ENV === 'production' && !config.LLM_ALLOW_HTTP_BASE_URL && !baseUrl.startsWith('https://'))
    throw badRequest(INTEGRATION_MESSAGES.httpsRequired);
  if (baseUrl) {
    try {
      await checkOutboundUrl(baseUrl, { allowedPrivateHosts: config.allowedPrivateHosts });
    } catch (err) {
      const refused = outboundRefusal(err);
      if (refused) throw badRequest(INTEGRATION_MESSAGES.baseUrlRefused(refused.message));
      throw err;
    }
  }
  await verifyOpenAiKey(apiKey, baseUrl, Math.min(config.LLM_TIMEOUT_MS, 15_000), outboundFetchFor(config));
  const models = [...new Set(body.models ?? [])];
  const id = await em.transactional(async (tem) => {
    // One openai key per organization: a new one replaces the old.
    await tem.nativeDelete(Integration, { provider: 'openai', user: null });
    const row = tem.create(Integration, {
      organization: ctx.organizationId,
      provider: 'openai',
      type: 'llm',
      name: keyName,
      active: true,
      createdBy: ctx.userId,
      secret: encryptSecret(apiKey, config.SECRETS_KEY, ctx.organizationId),
      data: { baseUrl, models, keyHint: keyHint(apiKey) },
    });
    await tem.flush();
    await setLlmSettings(tem, ctx.organizationId, (s) => ({
      ...s,
      llmSettings: { ...((s.llmSettings as Record<string, unknown> | undefined) ?? {}), useSystemLlmSetting: false },
    }));
    return row.id;
  });
  return { message: INTEGRATION_MESSAGES.connected, integration: await savedDto(ctx, id) };
}

/** Removes an organization integration (admin); a Salesforce token is revoked, an OpenAI key gives the system LLM back. */
export async function removeIntegration(ctx: IntegrationContext, id: string): Promise<void> {
  await ctx.em.transactional(async (tem) => {
    const row = await tem.findOne(Integration, { id, user: null });
    if (!row) throw notFound(INTEGRATION_MESSAGES.notFound);
    const provider = row.provider;
    if (provider === 'salesforce') await ctx.crm.revokeSalesforce(ctx.config, row);
    tem.remove(row);
    await tem.flush();
    if (provider === 'openai') {
      await setLlmSettings(tem, ctx.organizationId, (s) => ({
        ...s,
        llmSettings: { ...((s.llmSettings as Record<string, unknown> | undefined) ?? {}), useSystemLlmSetting: true },
      }));
    }
  });
}

/** Renames an integration, replaces an Affinity key (checked first), or pauses / resumes a CRM. */
export async function updateIntegration(ctx: IntegrationContext, id: string, body: UpdateIntegrationBody): Promise<IntegrationDto> {
  const { em, config } = ctx;
  const row = await em.findOne(Integration, { id, $or: [{ user: null }, { user: ctx.userId }] }, { populate: ['createdBy'] });
  if (!row) throw notFound(INTEGRATION_MESSAGES.notFound);
  if (!row.user && !ctx.isAdmin) throw forbidden('Only an organization Admin can change organization integrations');
  if (body.apiKey !== undefined) {
    if (row.provider !== 'affinity') throw badRequest('This integration has no API key to replace');
    const data = await ctx.crm.affinityKeyData(config, body.apiKey);
    row.secret = encryptSecret(body.apiKey, config.SECRETS_KEY, ctx.organizationId);
    row.data = { ...(row.data ?? {}), ...data };
  }
  if (body.name !== undefined) row.name = body.name;
  if (body.active !== undefined && body.active !== row.active) {
    const crm = row.provider === 'salesforce' || row.provider === 'affinity';
    if (!crm) throw badRequest('Only a CRM integration can be paused');
    if (body.active) {
      const other = await ctx.crm.otherActiveCrm(em, row.provider as CrmProvider);
      if (other) throw badRequest(CRM_MESSAGES.otherCrmActive(CRM_NAMES[other.provider as CrmProvider]));
      if (!row.secret) throw badRequest(CRM_MESSAGES.authorizationExpired);
    }
    row.active = body.active;
  }
  await em.flush();
  return toIntegrationDto(row);
}
