// The contact-graph CRM card for Affinity (spec 001 §2, §4): connect with an API key (Affinity →
// Settings → API); the key is checked with Affinity, stored encrypted and never shown again.
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button, Field, Input, MessageBar, MessageBarBody, Spinner } from '@fluentui/react-components';
import { PeopleCommunityRegular } from '@fluentui/react-icons';
import { type IntegrationDto } from '../../contracts';
import { CRM_MESSAGES } from '../../domain';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';
import { CrmCardFrame, useCrmCardStyles, useRefreshIntegrations } from './CrmCardFrame';

export const AFFINITY_TEXT = {
  title: 'Contact-graph CRM (Affinity)',
  apiKey: 'Affinity API key',
  apiKeyHint: 'In Affinity: Settings → API → Generate an API key. Stored encrypted; it is never shown again.',
  required: 'API key is required',
  connect: 'Connect',
  replace: 'Replace API key',
  failed: 'Could not connect Affinity. Please try again.',
} as const;

function AffinityKeyForm({ integration, onDone }: { integration: IntegrationDto | null; onDone: () => void }) {
  const styles = useCrmCardStyles();
  const api = useApi();
  const notify = useNotify();
  const refresh = useRefreshIntegrations();
  const [apiKey, setApiKey] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      integration?.data.active
        ? api.crm.update(integration.id, { apiKey: apiKey.trim() })
        : api.crm.connect({ provider: 'affinity', apiKey: apiKey.trim() }),
    onSuccess: async (res) => {
      notify.success(integration?.data.active ? 'Affinity API key replaced' : res.message || CRM_MESSAGES.connected('Affinity'));
      await refresh();
      onDone();
    },
  });
  const error = submitted && !apiKey.trim() ? AFFINITY_TEXT.required : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (apiKey.trim()) save.mutate();
  };
  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Connect Affinity" data-testid="affinity-form">
      <Field label={AFFINITY_TEXT.apiKey} required validationMessage={error} hint={AFFINITY_TEXT.apiKeyHint}>
        <Input type="password" value={apiKey} onChange={(_, d) => setApiKey(d.value)} autoComplete="off" data-testid="affinity-key" />
      </Field>
      {save.isError && (
        <MessageBar intent="error" data-testid="affinity-error">
          <MessageBarBody>{serverMessage(save.error) ?? AFFINITY_TEXT.failed}</MessageBarBody>
        </MessageBar>
      )}
      <div className={styles.actions}>
        <Button
          type="submit"
          appearance="primary"
          disabled={save.isPending}
          icon={save.isPending ? <Spinner aria-hidden size="tiny" /> : undefined}
          data-testid="affinity-submit"
        >
          {integration?.data.active ? AFFINITY_TEXT.replace : AFFINITY_TEXT.connect}
        </Button>
      </div>
    </form>
  );
}

export function AffinityCard({ isAdmin }: { isAdmin: boolean }) {
  const styles = useCrmCardStyles();
  return (
    <CrmCardFrame
      provider="affinity"
      icon={<PeopleCommunityRegular fontSize={24} />}
      title={AFFINITY_TEXT.title}
      isAdmin={isAdmin}
      renderConnect={(close) => <AffinityKeyForm integration={null} onDone={close} />}
      settingsFacts={(i) => (
        <>
          <dt className={styles.term}>Signed in as</dt>
          <dd style={{ margin: 0 }}>{i.data.metadata.username ?? '—'}</dd>
          <dt className={styles.term}>API key</dt>
          <dd style={{ margin: 0 }}>{i.data.metadata.keyHint ? `…${i.data.metadata.keyHint}` : '••••'}</dd>
        </>
      )}
      renderSettings={(i, close) => <AffinityKeyForm integration={i} onDone={close} />}
    />
  );
}
