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

// ---- CRM username (spec 001 §2 'Profile page pieces', §4, §5 'CRM username')

export const CRM_USERNAME_STATUSES = ['USER_AVAILABLE', 'USER_UNAVAILABLE', 'USER_INVALID'] as const;
export type CrmUsernameStatus = (typeof CRM_USERNAME_STATUSES)[number];
/** The email pattern a CRM username must match (Salesforce usernames and Affinity logins are email-shaped). */
export const CRM_USERNAME_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Quiet time before the username is checked (001 §9). */
export const CRM_USERNAME_CHECK_DEBOUNCE_MS = 250;

export const CRM_USERNAME_MESSAGES = {
  invalid: "That doesn't appear to be a valid crm username, check with your CRM admin to get your username",
  unavailable:
    'It appears that username is linked to another Dealscout user. Check the username or tell your Dealscout Admin if this apprears to be incorrect.',
  notEnabled: 'CRM integration is not enabled. Please configure CRM integration for the organization.',
  alreadyLinked: 'Your CRM username is already linked and cannot be changed.',
  linked: 'CRM username linked',
  title: 'Connect your CRM Username',
  confirmTitle: 'Link this CRM username?',
  confirm: (username: string, crm: string) =>
    `${username} will be linked to your Dealscout user for ${crm} sync. Once linked, the link cannot be changed.`,
} as const;

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
