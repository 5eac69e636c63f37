import { z } from 'zod';

// ---- CRM integrations (spec 001 §2 'Integrations settings page', §4 'Integration card', §6)

export const CRM_PROVIDERS = ['salesforce', 'affinity'] as const;
export type CrmProvider = (typeof CRM_PROVIDERS)[number];
export const CRM_NAMES: Record<CrmProvider, string> = { salesforce: 'Salesforce', affinity: 'Affinity' };
export const SALESFORCE_ENVIRONMENTS = ['production', 'sandbox'] as const;
export type SalesforceEnvironment = (typeof SALESFORCE_ENVIRONMENTS)[number];

// PUT /api/v1/integrations/{id} (admin for organization integrations): rename; affinity: a new API
// key (checked with Affinity first); active: false pauses a CRM (the card shows Connect again).
export const UpdateIntegrationBody = z.object({
  name: z.string().trim().min(1, 'Name is required').max(200, 'Name is too long').optional(),
  apiKey: z.string().trim().min(1, 'API key is required').max(500, 'API key is too long').optional(),
  active: z.boolean().optional(),
});
export type UpdateIntegrationBody = z.infer<typeof UpdateIntegrationBody>;

export const CRM_MESSAGES = {
  connected: (crm: string) => `${crm} connected`,
  updated: 'Integration updated',
  /** One active CRM at a time (001 §4). */
  otherCrmActive: (other: string) => `${other} is already connected. Disconnect it before connecting another CRM.`,
  salesforceNotConfigured: 'Salesforce is not set up on this server: the operator must set SALESFORCE_CLIENT_ID.',
  affinityKeyRefused: 'Affinity refused this API key. Check the key and try again.',
  unreachable: (crm: string) => `Could not reach ${crm}. Please try again.`,
  rateLimited: (crm: string) => `${crm} is limiting requests right now. Please try again in a minute.`,
  authorizationFailed: 'Salesforce did not authorize the connection. Please try again.',
  authorizationDenied: 'The Salesforce connection was cancelled.',
  authorizationExpired: 'This Salesforce authorization link has expired. Please connect again.',
  askAdmin: 'Please ask your organization Admin to connect a CRM.',
} as const;
