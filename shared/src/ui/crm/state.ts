// The CRM card's state (spec 001 §4 'Integration card'): absent → Connect; present but inactive →
// Connect; active → Settings. Connect and Settings are disabled while another CRM is active.
import { CRM_NAMES, type CrmProvider, type IntegrationDto } from '../../contracts';

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
