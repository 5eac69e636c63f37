// CRM sync routes (spec 001 §3 'Sync settings', §4 'CRM sync result', §7 'Get sync settings', 'Run
// CRM sync' — paths not shown by the spec): GET/PUT /crm/sync-settings, GET /crm/fields (the CRM's
// own fields of accounts and contacts), POST /crm/sync (starts the sync execution; answers invalid
// or progress), GET /crm/sync (the latest sync: progress, completed or failed), GET
// /crm/sync-changes (a record's sync history, for its drawer).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CrmFieldsResponse,
  CrmSyncResponse,
  ErrorResponse,
  SyncChangesQuery,
  SyncChangesResponse,
  SyncSettingsBody,
  SyncSettingsResponse,
  CRM_SYNC_MESSAGES,
} from '@dealscout/shared/contracts';
import { authOf } from '../../../plugins/types';
import { forbidden } from '../../../lib/errors';
import { crmFields, getSyncSettings, saveSyncSettings } from './settings';
import { latestSync, startSync, syncChanges } from './sync.service';

export async function crmSyncRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/crm/sync-settings',
    {
      schema: {
        tags: ['crm'],
        summary: "The organization's CRM sync settings and field mappings",
        response: { 200: SyncSettingsResponse },
      },
    },
    async (req) => ({ success: true as const, settings: await getSyncSettings(req.em, authOf(req).organizationId) }),
  );

  r.put(
    '/crm/sync-settings',
    {
      schema: {
        tags: ['crm'],
        summary: 'Saves the CRM sync settings and field mappings (admin)',
        body: SyncSettingsBody,
        response: { 200: SyncSettingsResponse, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const auth = authOf(req);
      if (!auth.isAdmin) throw forbidden('Only an organization Admin can change the sync settings');
      const settings = await saveSyncSettings(req.em, auth.organizationId, auth.user.id, req.body);
      return { success: true as const, message: CRM_SYNC_MESSAGES.settingsSaved, settings };
    },
  );

  r.get(
    '/crm/fields',
    {
      schema: {
        tags: ['crm'],
        summary: "The active CRM's fields of accounts and contacts (Salesforce describe, Affinity fields)",
        response: { 200: CrmFieldsResponse, 400: ErrorResponse },
      },
    },
    async (req) => ({ success: true as const, ...(await crmFields(req.em, app.config)) }),
  );

  r.post(
    '/crm/sync',
    {
      schema: {
        tags: ['crm'],
        summary: 'Starts a CRM sync (one at a time per organization): invalid with a message, or progress with the execution',
        response: { 200: CrmSyncResponse, 503: ErrorResponse },
      },
    },
    async (req, reply) => {
      if (!app.boss) return reply.status(503).send({ success: false as const, message: CRM_SYNC_MESSAGES.error });
      const auth = authOf(req);
      return { success: true as const, ...(await startSync(req.em, app.boss, auth.organizationId, auth.user.id, auth.isAdmin)) };
    },
  );

  r.get(
    '/crm/sync',
    {
      schema: {
        tags: ['crm'],
        summary: "The organization's latest CRM sync: progress, completed or failed (null when it never synced)",
        response: { 200: CrmSyncResponse },
      },
    },
    async (req) => ({ success: true as const, ...(await latestSync(req.em, authOf(req).organizationId)) }),
  );

  r.get(
    '/crm/sync-changes',
    {
      schema: {
        tags: ['crm'],
        summary: 'What CRM sync changed on a company or contact, newest first (404 for a record of another organization)',
        querystring: SyncChangesQuery,
        response: { 200: SyncChangesResponse, 404: ErrorResponse },
      },
    },
    async (req) => ({
      success: true as const,
      changes: await syncChanges(req.em, authOf(req).organizationId, req.query.entityType, req.query.entityId),
    }),
  );
}
