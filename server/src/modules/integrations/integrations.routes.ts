// Integrations: GET /integration (the organization's and the caller's own; secrets never leave the
// server), POST /organization/integration (admin; provider openai: the key is checked against the
// provider, then stored encrypted) and DELETE /organization/integration/{id} (admin).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import OpenAI from 'openai';
import {
  ErrorResponse, IdParams, SuccessResponse, IntegrationsResponse, IntegrationResponse, CreateOrgIntegrationBody,
  INTEGRATION_MESSAGES, type IntegrationDto,
} from '@dealscout/shared/contracts';
import { Integration, type IIntegration } from './integration.entity';
import { authOf } from '../../plugins/types';
import { badRequest, notFound } from '../../lib/errors';
import { encryptSecret } from '../../lib/secrets';
import { setLlmSettings } from '../llm/llm-settings';
import { checkOutboundUrl, outboundFetchFor, outboundRefusal, type OutboundFetch } from '../../providers/web/outbound';

export function toIntegrationDto(i: IIntegration): IntegrationDto {
  const data = (i.data ?? {}) as { baseUrl?: string | null; models?: string[]; keyHint?: string | null; accountName?: string | null };
  const createdBy = i.createdBy && 'firstName' in i.createdBy && i.createdBy.firstName !== undefined
    ? { id: i.createdBy.id, firstName: i.createdBy.firstName, lastName: i.createdBy.lastName } : null;
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

export async function integrationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/integration', {
    schema: { tags: ['integrations'], summary: "The organization's integrations and the caller's own (no secrets)", response: { 200: IntegrationsResponse } },
  }, async (req) => {
    const auth = authOf(req);
    const rows = await req.em.find(Integration, { $or: [{ user: null }, { user: auth.user.id }] }, { populate: ['createdBy'], orderBy: { createdAt: 'asc' } });
    return { success: true as const, integrations: rows.map(toIntegrationDto) };
  });

  r.post('/organization/integration', {
    config: { auth: 'admin' },
    schema: {
      tags: ['integrations'], summary: "Connects an organization integration (admin). Provider openai: the organization's own API key, stored encrypted",
      body: CreateOrgIntegrationBody, response: { 201: IntegrationResponse, 400: ErrorResponse },
    },
  }, async (req, reply) => {
    const auth = authOf(req);
    const body = req.body;
    const baseUrl = body.baseUrl ? body.baseUrl.replace(/\/+$/, '') : null;
    if (baseUrl && app.config.NODE_ENV === 'production' && !app.config.LLM_ALLOW_HTTP_BASE_URL && !baseUrl.startsWith('https://')) throw badRequest(INTEGRATION_MESSAGES.httpsRequired);
    if (baseUrl) {
      try {
        await checkOutboundUrl(baseUrl, { allowedPrivateHosts: app.config.allowedPrivateHosts });
      } catch (err) {
        const refused = outboundRefusal(err);
        if (refused) throw badRequest(INTEGRATION_MESSAGES.baseUrlRefused(refused.message));
        throw err;
      }
    }
    await verifyOpenAiKey(body.apiKey, baseUrl, Math.min(app.config.LLM_TIMEOUT_MS, 15_000), outboundFetchFor(app.config));
    const models = [...new Set(body.models ?? [])];
    const id = await req.em.transactional(async (tem) => {
      // One openai key per organization: a new one replaces the old.
      await tem.nativeDelete(Integration, { provider: 'openai', user: null });
      const row = tem.create(Integration, {
        organization: auth.organizationId, provider: 'openai', type: 'llm', name: body.name, active: true, createdBy: auth.user.id,
        secret: encryptSecret(body.apiKey, app.config.SECRETS_KEY, auth.organizationId),
        data: { baseUrl, models, keyHint: keyHint(body.apiKey) },
      });
      await tem.flush();
      await setLlmSettings(tem, auth.organizationId, (s) => ({ ...s, llmSettings: { ...((s.llmSettings as Record<string, unknown> | undefined) ?? {}), useSystemLlmSetting: false } }));
      return row.id;
    });
    const saved = await req.em.findOneOrFail(Integration, { id }, { populate: ['createdBy'] });
    reply.status(201);
    return { success: true as const, message: INTEGRATION_MESSAGES.connected, integration: toIntegrationDto(saved) };
  });

  r.delete('/organization/integration/:id', {
    config: { auth: 'admin' },
    schema: {
      tags: ['integrations'], summary: 'Removes an organization integration (admin)', params: IdParams,
      response: { 200: SuccessResponse, 404: ErrorResponse },
    },
  }, async (req) => {
    const auth = authOf(req);
    await req.em.transactional(async (tem) => {
      const row = await tem.findOne(Integration, { id: req.params.id, user: null });
      if (!row) throw notFound(INTEGRATION_MESSAGES.notFound);
      const provider = row.provider;
      tem.remove(row);
      await tem.flush();
      if (provider === 'openai') {
        await setLlmSettings(tem, auth.organizationId, (s) => ({ ...s, llmSettings: { ...((s.llmSettings as Record<string, unknown> | undefined) ?? {}), useSystemLlmSetting: true } }));
      }
    });
    return { success: true as const, message: INTEGRATION_MESSAGES.removed };
  });
}
