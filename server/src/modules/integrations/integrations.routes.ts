// Integrations: GET /integration (the organization's and the caller's own; secrets never leave the
// server), POST /organization/integration (admin; openai / affinity: the key is checked against the
// provider, then stored encrypted; salesforce: starts the OAuth web-server flow with PKCE and answers
// the authorization URL), GET /integrations/salesforce/callback (the OAuth redirect), PUT
// /integrations/{id} (rename, replace a key, pause) and DELETE /organization/integration/{id} (admin).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import OpenAI from 'openai';
import {
  ErrorResponse,
  IdParams,
  SuccessResponse,
  IntegrationsResponse,
  IntegrationResponse,
  CreateOrgIntegrationBody,
  INTEGRATION_MESSAGES,
  type IntegrationDto,
  CRM_MESSAGES,
  CRM_NAMES,
  UpdateIntegrationBody,
  type CrmProvider,
  DATA_PROVIDERS,
  DATA_PROVIDER_NAMES,
  type DataProvider,
} from '@dealscout/shared/contracts';
import { z } from 'zod';
import {
  affinityData,
  connectAffinity,
  finishSalesforceConnect,
  otherActiveCrm,
  revokeSalesforce,
  startSalesforceConnect,
  verifyAffinityKey,
} from '../crm/connect/crm-connect';
import { Integration, type IIntegration } from './integration.entity';
import { authOf } from '../../plugins/types';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { encryptSecret } from '../../lib/secrets';
import { setLlmSettings } from '../llm/llm-settings';
import { checkOutboundUrl, outboundFetchFor, outboundRefusal, type OutboundFetch } from '../../providers/web/outbound';

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

export async function integrationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/integration',
    {
      schema: {
        tags: ['integrations'],
        summary: "The organization's integrations and the caller's own (no secrets)",
        response: { 200: IntegrationsResponse },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const rows = await req.em.find(
        Integration,
        { $or: [{ user: null }, { user: auth.user.id }] },
        { populate: ['createdBy'], orderBy: { createdAt: 'asc' } },
      );
      return { success: true as const, integrations: rows.map(toIntegrationDto) };
    },
  );

  r.post(
    '/organization/integration',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['integrations'],
        summary: "Connects an organization integration (admin). Provider openai: the organization's own API key, stored encrypted",
        body: CreateOrgIntegrationBody,
        response: { 201: IntegrationResponse, 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const body = req.body;
      if (body.provider === 'salesforce') {
        const started = await startSalesforceConnect(
          req.em,
          app.config,
          auth.organizationId,
          auth.user.id,
          body.environment ?? 'production',
        );
        const saved = await req.em.findOneOrFail(Integration, { id: started.id }, { populate: ['createdBy'], refresh: true });
        reply.status(201);
        return {
          success: true as const,
          message: 'Continue in Salesforce to authorize the connection',
          integration: toIntegrationDto(saved),
          authorizationUrl: started.url,
        };
      }
      if (body.provider === 'affinity') {
        const id = await connectAffinity(req.em, app.config, auth.organizationId, auth.user.id, body.apiKey ?? '', body.name);
        const saved = await req.em.findOneOrFail(Integration, { id }, { populate: ['createdBy'] });
        reply.status(201);
        return { success: true as const, message: CRM_MESSAGES.connected('Affinity'), integration: toIntegrationDto(saved) };
      }
      if ((DATA_PROVIDERS as readonly string[]).includes(body.provider)) {
        // A list-source provider's key (Ocean.io, Source Scrub, Google Maps): stored encrypted, one per
        // organization (a new one replaces the old). It is not checked here: each check would spend
        // the organization's credits; the first preview says at once when the provider refuses it.
        const provider = body.provider as DataProvider;
        const apiKey = body.apiKey ?? '';
        const id = await req.em.transactional(async (tem) => {
          await tem.nativeDelete(Integration, { provider, user: null });
          const row = tem.create(Integration, {
            organization: auth.organizationId,
            provider,
            type: 'data',
            name: body.name || DATA_PROVIDER_NAMES[provider],
            active: true,
            createdBy: auth.user.id,
            secret: encryptSecret(apiKey, app.config.SECRETS_KEY, auth.organizationId),
            data: { keyHint: provider === 'sourceScrub' ? null : keyHint(apiKey) },
          });
          await tem.flush();
          return row.id;
        });
        const saved = await req.em.findOneOrFail(Integration, { id }, { populate: ['createdBy'] });
        reply.status(201);
        return { success: true as const, message: `${DATA_PROVIDER_NAMES[provider]} connected`, integration: toIntegrationDto(saved) };
      }
      const keyName = body.name;
      const apiKey = body.apiKey;
      // Checked by the body schema for openai; narrowed here for the compiler.
      if (!keyName || !apiKey) throw badRequest(INTEGRATION_MESSAGES.keyRefused);
      const baseUrl = body.baseUrl ? body.baseUrl.replace(/\/+$/, '') : null;
      if (baseUrl && app.config.NODE_ENV === 'production' && !app.config.LLM_ALLOW_HTTP_BASE_URL && !baseUrl.startsWith('https://'))
        throw badRequest(INTEGRATION_MESSAGES.httpsRequired);
      if (baseUrl) {
        try {
          await checkOutboundUrl(baseUrl, { allowedPrivateHosts: app.config.allowedPrivateHosts });
        } catch (err) {
          const refused = outboundRefusal(err);
          if (refused) throw badRequest(INTEGRATION_MESSAGES.baseUrlRefused(refused.message));
          throw err;
        }
      }
      await verifyOpenAiKey(apiKey, baseUrl, Math.min(app.config.LLM_TIMEOUT_MS, 15_000), outboundFetchFor(app.config));
      const models = [...new Set(body.models ?? [])];
      const id = await req.em.transactional(async (tem) => {
        // One openai key per organization: a new one replaces the old.
        await tem.nativeDelete(Integration, { provider: 'openai', user: null });
        const row = tem.create(Integration, {
          organization: auth.organizationId,
          provider: 'openai',
          type: 'llm',
          name: keyName,
          active: true,
          createdBy: auth.user.id,
          secret: encryptSecret(apiKey, app.config.SECRETS_KEY, auth.organizationId),
          data: { baseUrl, models, keyHint: keyHint(apiKey) },
        });
        await tem.flush();
        await setLlmSettings(tem, auth.organizationId, (s) => ({
          ...s,
          llmSettings: { ...((s.llmSettings as Record<string, unknown> | undefined) ?? {}), useSystemLlmSetting: false },
        }));
        return row.id;
      });
      const saved = await req.em.findOneOrFail(Integration, { id }, { populate: ['createdBy'] });
      reply.status(201);
      return { success: true as const, message: INTEGRATION_MESSAGES.connected, integration: toIntegrationDto(saved) };
    },
  );

  r.delete(
    '/organization/integration/:id',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['integrations'],
        summary: 'Removes an organization integration (admin)',
        params: IdParams,
        response: { 200: SuccessResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const auth = authOf(req);
      await req.em.transactional(async (tem) => {
        const row = await tem.findOne(Integration, { id: req.params.id, user: null });
        if (!row) throw notFound(INTEGRATION_MESSAGES.notFound);
        const provider = row.provider;
        if (provider === 'salesforce') await revokeSalesforce(app.config, row);
        tem.remove(row);
        await tem.flush();
        if (provider === 'openai') {
          await setLlmSettings(tem, auth.organizationId, (s) => ({
            ...s,
            llmSettings: { ...((s.llmSettings as Record<string, unknown> | undefined) ?? {}), useSystemLlmSetting: true },
          }));
        }
      });
      return { success: true as const, message: INTEGRATION_MESSAGES.removed };
    },
  );

  r.get(
    '/integrations/salesforce/callback',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['integrations'],
        summary:
          "Salesforce's OAuth redirect: exchanges the code (PKCE), stores the tokens encrypted, then sends the browser back to the organization settings",
        querystring: z.object({
          code: z.string().max(2000).optional(),
          state: z.string().max(200).optional(),
          error: z.string().max(200).optional(),
          error_description: z.string().max(2000).optional(),
        }),
        response: {
          302: z
            .null()
            .describe(
              'Back to the organization settings (Location): crm=salesforce (and crmWarning) when connected, ' +
                'crmError with the reason otherwise',
            ),
        },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const outcome = await finishSalesforceConnect(req.em, app.config, auth.organizationId, auth.user.id, req.query);
      const back = new URL(`${app.config.publicUrl}/organization/settings`);
      if (outcome.ok) {
        back.searchParams.set('crm', 'salesforce');
        if (outcome.warning) back.searchParams.set('crmWarning', outcome.warning);
      } else back.searchParams.set('crmError', outcome.message);
      return reply.redirect(back.toString(), 302);
    },
  );

  r.put(
    '/integrations/:id',
    {
      schema: {
        tags: ['integrations'],
        summary:
          "Updates an integration: its name, an Affinity key (checked first), or pauses / resumes a CRM. Organization integrations: admin; a user's own: that user",
        params: IdParams,
        body: UpdateIntegrationBody,
        response: { 200: IntegrationResponse, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const row = await req.em.findOne(
        Integration,
        { id: req.params.id, $or: [{ user: null }, { user: auth.user.id }] },
        { populate: ['createdBy'] },
      );
      if (!row) throw notFound(INTEGRATION_MESSAGES.notFound);
      if (!row.user && !auth.isAdmin) throw forbidden('Only an organization Admin can change organization integrations');
      const body = req.body;
      if (body.apiKey !== undefined) {
        if (row.provider !== 'affinity') throw badRequest('This integration has no API key to replace');
        const me = await verifyAffinityKey(app.config, body.apiKey);
        row.secret = encryptSecret(body.apiKey, app.config.SECRETS_KEY, auth.organizationId);
        row.data = { ...(row.data ?? {}), ...affinityData(me, body.apiKey) };
      }
      if (body.name !== undefined) row.name = body.name;
      if (body.active !== undefined && body.active !== row.active) {
        const crm = row.provider === 'salesforce' || row.provider === 'affinity';
        if (!crm) throw badRequest('Only a CRM integration can be paused');
        if (body.active) {
          const other = await otherActiveCrm(req.em, row.provider as CrmProvider);
          if (other) throw badRequest(CRM_MESSAGES.otherCrmActive(CRM_NAMES[other.provider as CrmProvider]));
          if (!row.secret) throw badRequest(CRM_MESSAGES.authorizationExpired);
        }
        row.active = body.active;
      }
      await req.em.flush();
      return { success: true as const, message: CRM_MESSAGES.updated, integration: toIntegrationDto(row) };
    },
  );
}
