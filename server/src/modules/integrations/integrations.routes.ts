// Integrations: GET /integration (the organization's and the caller's own; secrets never leave the
// server), POST /organization/integration (admin; openai / affinity: the key is checked against the
// provider, then stored encrypted; salesforce: starts the OAuth web-server flow with PKCE and answers
// the authorization URL), GET /integrations/salesforce/callback (the OAuth redirect), PUT
// /integrations/{id} (rename, replace a key, pause) and DELETE /organization/integration/{id} (admin).
// The use cases are in integrations.service.ts; the CRM's part comes in as the crm option (app.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  IdParams,
  SuccessResponse,
  IntegrationsResponse,
  IntegrationResponse,
  CreateOrgIntegrationBody,
  INTEGRATION_MESSAGES,
  CRM_MESSAGES,
  UpdateIntegrationBody,
} from '@dealscout/shared/contracts';
import { z } from 'zod';
import { authOf } from '../../plugins/types';
import type { CrmConnector } from './crm-connector';
import {
  connectIntegration,
  listIntegrations,
  removeIntegration,
  updateIntegration,
  type IntegrationContext,
} from './integrations.service';

export async function integrationRoutes(app: FastifyInstance, opts: { crm: CrmConnector }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest): IntegrationContext => {
    const auth = authOf(req);
    return {
      em: req.em,
      config: app.config,
      crm: opts.crm,
      organizationId: auth.organizationId,
      userId: auth.user.id,
      isAdmin: auth.isAdmin,
    };
  };

  r.get(
    '/integration',
    {
      schema: {
        tags: ['integrations'],
        summary: "The organization's integrations and the caller's own (no secrets)",
        response: { 200: IntegrationsResponse },
      },
    },
    async (req) => ({ success: true as const, integrations: await listIntegrations(ctx(req)) }),
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
      const connected = await connectIntegration(ctx(req), req.body);
      reply.status(201);
      return { success: true as const, ...connected };
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
      await removeIntegration(ctx(req), req.params.id);
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
      const outcome = await opts.crm.finishSalesforceConnect(req.em, app.config, auth.organizationId, auth.user.id, req.query);
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
          'Updates an integration: its name, an Affinity key (checked first), or pauses / resumes a CRM. Organization ' +
          "integrations: admin; a user's own: that user",
        params: IdParams,
        body: UpdateIntegrationBody,
        response: { 200: IntegrationResponse, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => ({
      success: true as const,
      message: CRM_MESSAGES.updated,
      integration: await updateIntegration(ctx(req), req.params.id, req.body),
    }),
  );
}
