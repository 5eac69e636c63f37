// The CRM cards of the integrations page (organization settings and profile): Salesforce and
// Affinity. Salesforce's OAuth callback comes back to /organization/settings?crm=salesforce (or
// ?crmError=message): the outcome is told once as a toast and the query removed.
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CRM_MESSAGES } from '@dealscout/shared/contracts';
import { AffinityCard, INTEGRATIONS_QUERY_KEY, SalesforceCard, useNotify } from '@dealscout/shared/ui';

export function CrmIntegrations({ isAdmin }: { isAdmin: boolean }) {
  const [params, setParams] = useSearchParams();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const connected = params.get('crm');
  const failed = params.get('crmError');
  useEffect(() => {
    if (!connected && !failed) return;
    if (connected === 'salesforce') notify.success(CRM_MESSAGES.connected('Salesforce'));
    if (failed) notify.error(failed);
    void queryClient.invalidateQueries({ queryKey: INTEGRATIONS_QUERY_KEY });
    const next = new URLSearchParams(params);
    next.delete('crm');
    next.delete('crmError');
    setParams(next, { replace: true });
  }, [connected, failed, notify, params, queryClient, setParams]);
  return (
    <>
      <SalesforceCard isAdmin={isAdmin} onAuthorize={(url) => window.location.assign(url)} />
      <AffinityCard isAdmin={isAdmin} />
    </>
  );
}
