import { z } from 'zod';
import { CRM_PROVIDERS } from '../domain/crm';

// The CRMs' names and messages are plain values of the domain (domain/crm.ts), kept out of the zod contracts.
export {
  CRM_PROVIDERS,
  CRM_NAMES,
  CRM_MESSAGES,
  CRM_USERNAME_PATTERN,
  CRM_USERNAME_CHECK_DEBOUNCE_MS,
  CRM_USERNAME_MESSAGES,
  type CrmProvider,
} from '../domain/crm';

// ---- CRM integrations (spec 001 §2 'Integrations settings page', §4 'Integration card', §6)

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

// ---- CRM username (spec 001 §2 'Profile page pieces', §4, §5 'CRM username')

export const CRM_USERNAME_STATUSES = ['USER_AVAILABLE', 'USER_UNAVAILABLE', 'USER_INVALID'] as const;
export type CrmUsernameStatus = (typeof CRM_USERNAME_STATUSES)[number];

// POST /api/v1/crm/username/check
export const CrmUsernameBody = z.object({ username: z.string().trim().min(1, 'Username is required').max(255, 'Username is too long') });
export type CrmUsernameBody = z.infer<typeof CrmUsernameBody>;
export const CrmUsernameCheckResponse = z.object({
  success: z.literal(true),
  status: z.enum(CRM_USERNAME_STATUSES),
  message: z.string().nullable(),
});
export type CrmUsernameCheckResponse = z.infer<typeof CrmUsernameCheckResponse>;

// GET /api/v1/crm/user-settings; POST /api/v1/crm/user-settings (links, 201)
export const CrmUserSettingsDto = z.object({
  /** The organization's active CRM, null when none. */
  provider: z.enum(CRM_PROVIDERS).nullable(),
  crmName: z.string().nullable(),
  crmUserId: z.string().nullable(),
  crmUsername: z.string().nullable(),
  linkedAt: z.string().nullable(),
});
export type CrmUserSettingsDto = z.infer<typeof CrmUserSettingsDto>;
export const CrmUserSettingsResponse = z.object({ success: z.literal(true), message: z.string().optional(), settings: CrmUserSettingsDto });
export type CrmUserSettingsResponse = z.infer<typeof CrmUserSettingsResponse>;
