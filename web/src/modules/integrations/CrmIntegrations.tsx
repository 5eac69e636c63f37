// The CRM cards of the integrations page (organization settings and profile): Salesforce and
// Affinity. Salesforce's OAuth callback comes back to /organization/settings?crm=salesforce (or
// ?crmError=message; ?crmWarning=message when the Dealscout_Id__c External ID fields sync writes
// back by are missing): success is told once as a toast; a failure stays on the Salesforce card with
// what to do next until the admin acts; the query is removed.
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CRM_MESSAGES } from '@dealscout/shared/domain';
import { AffinityCard, INTEGRATIONS_QUERY_KEY, SalesforceCard, crmConnectFailureKey, keepFailure, useNotify } from '@dealscout/shared/ui';

export function CrmIntegrations({ isAdmin }: { isAdmin: boolean }) {
  const [params, setParams] = useSearchParams();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const connected = params.get('crm');
  const failed = params.get('crmError');
  const warning = params.get('crmWarning');
  useEffect(() => {
    if (!connected && !failed) return;
    if (connected === 'salesforce') {
      keepFailure(crmConnectFailureKey('salesforce'), null);
      notify.success(CRM_MESSAGES.connected('Salesforce'));
    }
    if (failed) {
      keepFailure(crmConnectFailureKey('salesforce'), failed);
      document.querySelector('[data-testid="salesforce-card"]')?.scrollIntoView({ block: 'center' });
    }
    // Stays until dismissed: the admin has a setup step to do in Salesforce.
    if (warning) notify.warning(warning, 0);
    void queryClient.invalidateQueries({ queryKey: INTEGRATIONS_QUERY_KEY });
    const next = new URLSearchParams(params);
    next.delete('crm');
    next.delete('crmError');
    next.delete('crmWarning');
    setParams(next, { replace: true });
  }, [connected, failed, warning, notify, params, queryClient, setParams]);
  return (
    <>
      <SalesforceCard isAdmin={isAdmin} onAuthorize={(url) => window.location.assign(url)} />
      <AffinityCard isAdmin={isAdmin} />
    </>
  );
}
