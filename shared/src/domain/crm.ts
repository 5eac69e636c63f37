// The CRMs (spec 001 §2 'Integrations settings page', §4 'Integration card', §5 'CRM username', §8 'CRM sync toasts'):
// their names and messages, plain values the clients' first views use without the zod contracts (contracts/crm.ts,
// crm-sync.ts re-export them).
export const CRM_PROVIDERS = ['salesforce', 'affinity'] as const;
export type CrmProvider = (typeof CRM_PROVIDERS)[number];
export const CRM_NAMES: Record<CrmProvider, string> = { salesforce: 'Salesforce', affinity: 'Affinity' };
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

export const CRM_SYNC_MESSAGES = {
  invalidSettings: 'Invalid settings, please ensure you added Account and Contact mappings.',
  failures: 'Sync completed with failures!',
  progress: 'Sync in progress, please wait..',
  completed: 'Sync completed successfully!',
  error: 'Error syncing data',
  settingsSaved: 'Sync settings saved',
  tooltipFetch: (crm: string) => `Click to fetch your data from ${crm}`,
  tooltipUsername: (crm: string) => `To enable user based sync, please add your ${crm} username in the profile settings page`,
  tooltipNotEnabled: 'CRM integration is not enabled. Please configure CRM integration for the organization.',
  fieldInvalid: 'This Dealscout field cannot be mapped.',
  duplicateTarget: 'Each Dealscout field can be mapped once.',
  crmFieldRequired: 'Pick a CRM field.',
  /** Salesforce lacks the External ID field sync writes back by (ARCHITECTURE 'Idempotency'). */
  externalIdMissing: (field: string, sobject: string) =>
    `Salesforce has no ${field} External ID field on ${sobject}. Ask your Salesforce admin to create it (Text(64), ` +
    `External ID, Unique) on Account, Contact and Activity, then sync again.`,
} as const;
