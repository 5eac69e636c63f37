// The CRM card for Salesforce (spec 001 §2, §4). Connect: choose the production or sandbox login,
// then the browser goes to Salesforce's consent page (OAuth web-server flow with PKCE); Salesforce
// sends it back to the organization settings. The host decides how to go there (`onAuthorize`).
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button, Field, MessageBar, MessageBarBody, Radio, RadioGroup, Spinner, Text } from '@fluentui/react-components';
import { CloudRegular } from '@fluentui/react-icons';
import type { IntegrationDto, SalesforceEnvironment } from '../../contracts';
import { useApi } from '../ApiContext';
import { serverMessage } from '../server-message';
import { CrmCardFrame, useCrmCardStyles } from './CrmCardFrame';

export const SALESFORCE_TEXT = {
  title: 'CRM (Salesforce)',
  environment: 'Salesforce environment',
  production: 'Production (login.salesforce.com)',
  sandbox: 'Sandbox (test.salesforce.com)',
  explain: 'You will sign in to Salesforce and allow Dealscout to access your data. Salesforce then brings you back here.',
  continue: 'Continue to Salesforce',
  reconnect: 'Reconnect to Salesforce',
  failed: 'Could not start the Salesforce connection. Please try again.',
} as const;

function ConnectSalesforce({
  onAuthorize,
  initial,
  label = SALESFORCE_TEXT.continue,
}: {
  onAuthorize: (url: string) => void;
  initial: SalesforceEnvironment;
  label?: string;
}) {
  const styles = useCrmCardStyles();
  const api = useApi();
  const [environment, setEnvironment] = useState<SalesforceEnvironment>(initial);
  const start = useMutation({
    mutationFn: () => api.crm.connect({ provider: 'salesforce', environment }),
    onSuccess: (res) => {
      if (res.authorizationUrl) onAuthorize(res.authorizationUrl);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate();
  };
  return (
    <form className={styles.form} onSubmit={submit} aria-label="Connect Salesforce" data-testid="salesforce-form">
      <Field label={SALESFORCE_TEXT.environment}>
        <RadioGroup
          value={environment}
          onChange={(_, d) => setEnvironment(d.value as SalesforceEnvironment)}
          data-testid="salesforce-environment"
        >
          <Radio value="production" label={SALESFORCE_TEXT.production} />
          <Radio value="sandbox" label={SALESFORCE_TEXT.sandbox} data-testid="salesforce-sandbox" />
        </RadioGroup>
      </Field>
      <Text className={styles.muted}>{SALESFORCE_TEXT.explain}</Text>
      {start.isError && (
        <MessageBar intent="error" data-testid="salesforce-error">
          <MessageBarBody>{serverMessage(start.error) ?? SALESFORCE_TEXT.failed}</MessageBarBody>
        </MessageBar>
      )}
      <div className={styles.actions}>
        <Button
          type="submit"
          appearance="primary"
          disabled={start.isPending || start.isSuccess}
          icon={start.isPending || start.isSuccess ? <Spinner aria-hidden size="tiny" /> : undefined}
          data-testid="salesforce-submit"
        >
          {label}
        </Button>
      </div>
    </form>
  );
}

export interface SalesforceCardProps {
  isAdmin: boolean;
  /** Sends the browser to Salesforce's authorization page (web: location.assign). */
  onAuthorize: (url: string) => void;
}

export function SalesforceCard({ isAdmin, onAuthorize }: SalesforceCardProps) {
  const styles = useCrmCardStyles();
  const env = (i: IntegrationDto) => (i.data.metadata.environment === 'sandbox' ? 'sandbox' : 'production') as SalesforceEnvironment;
  return (
    <CrmCardFrame
      provider="salesforce"
      icon={<CloudRegular fontSize={24} />}
      title={SALESFORCE_TEXT.title}
      isAdmin={isAdmin}
      renderConnect={() => <ConnectSalesforce onAuthorize={onAuthorize} initial="production" />}
      settingsFacts={(i) => (
        <>
          <dt className={styles.term}>Environment</dt>
          <dd style={{ margin: 0 }} data-testid="salesforce-environment-value">
            {env(i) === 'sandbox' ? 'Sandbox' : 'Production'}
          </dd>
          <dt className={styles.term}>Instance</dt>
          <dd style={{ margin: 0 }}>{i.data.metadata.instanceUrl ?? '—'}</dd>
        </>
      )}
      renderSettings={(i) => <ConnectSalesforce onAuthorize={onAuthorize} initial={env(i)} label={SALESFORCE_TEXT.reconnect} />}
    />
  );
}
