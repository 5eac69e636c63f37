// The CRM card's state (spec 001 §4 'Integration card'): absent → Connect; present but inactive →
// Connect; active → Settings. Connect and Settings are disabled while another CRM is active.
import { type CrmProvider, type IntegrationDto } from '../../contracts';
import { CRM_NAMES } from '../../domain';

/** The signed-in user's CRM settings in the query cache (the username section, the sync button, the drawer's history). */
export const CRM_USER_SETTINGS_KEY = ['crm', 'user-settings'] as const;

export interface CrmCardState {
  integration: IntegrationDto | null;
  action: 'connect' | 'settings';
  /** The other CRM, when it is active (this card's buttons are disabled). */
  blockedBy: string | null;
}

export function crmCardState(integrations: readonly IntegrationDto[], provider: CrmProvider): CrmCardState {
  const integration = integrations.find((i) => i.provider === provider && i.scope === 'organization') ?? null;
  const other = integrations.find(
    (i) =>
      i.provider !== provider && (i.provider === 'salesforce' || i.provider === 'affinity') && i.scope === 'organization' && i.data.active,
  );
  return {
    integration,
    action: integration?.data.active ? 'settings' : 'connect',
    blockedBy: other ? CRM_NAMES[other.provider as CrmProvider] : null,
  };
}
