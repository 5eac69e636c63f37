// CRM user settings (spec 001 §2 'Profile page pieces', §5 'CRM username'): POST /crm/username/check
// (USER_AVAILABLE | USER_UNAVAILABLE | USER_INVALID with the spec's messages), GET /crm/user-settings
// (the active CRM and the caller's linked CRM user), POST /crm/user-settings (links once, 201).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CrmUsernameBody,
  CrmUsernameCheckResponse,
  CrmUserSettingsResponse,
  CRM_USERNAME_MESSAGES,
  ErrorResponse,
} from '@dealscout/shared/contracts';
import { authOf } from '../../plugins/types';
import { checkCrmUsername, crmUserSettings, linkCrmUsername, statusMessage } from './crm-username';

export async function crmRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/crm/username/check',
    {
      schema: {
        tags: ['crm'],
        summary: "Checks a CRM username against the organization's active CRM",
        body: CrmUsernameBody,
        response: { 200: CrmUsernameCheckResponse, 400: ErrorResponse },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const { status } = await checkCrmUsername(req.em, app.config, auth.user.id, req.body.username);
      return { success: true as const, status, message: statusMessage(status) };
    },
  );

  r.get(
    '/crm/user-settings',
    {
      schema: { tags: ['crm'], summary: "The active CRM and the caller's linked CRM user", response: { 200: CrmUserSettingsResponse } },
    },
    async (req) => ({ success: true as const, settings: await crmUserSettings(req.em, authOf(req).user.id) }),
  );

  r.post(
    '/crm/user-settings',
    {
      schema: {
        tags: ['crm'],
        summary: "Links the caller's CRM username (once; it cannot be changed afterwards)",
        body: CrmUsernameBody,
        response: { 201: CrmUserSettingsResponse, 400: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const settings = await linkCrmUsername(req.em, app.config, auth.organizationId, auth.user.id, req.body.username);
      reply.status(201);
      return { success: true as const, message: CRM_USERNAME_MESSAGES.linked, settings };
    },
  );
}
