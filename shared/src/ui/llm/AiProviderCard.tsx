// The AI provider card of the integrations page (spec 001 §2 'Integrations settings page': AI
// provider (openai) shows API key name, created by, created at, expires at, and 'Connected').
// Admins connect the organization's own OpenAI(-compatible) key here (the key is sent once and
// never shown again) or disconnect it; users see the state and are told to ask their Admin.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { BotRegular, PlugConnectedRegular, PlugDisconnectedRegular } from '@fluentui/react-icons';
import type { IntegrationDto, CreateOrgIntegrationBody } from '../../contracts';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { ConfirmDialog } from '../ConfirmDialog';
import { serverMessage } from '../server-message';

export const INTEGRATIONS_QUERY_KEY = ['integrations'] as const;
export const ORGANIZATION_DETAILS_KEY = ['organization', 'details'] as const;

export const AI_PROVIDER_TEXT = {
  title: 'AI provider (OpenAI)',
  connected: 'Connected',
  notConnected: 'Not connected',
  usingSystem: 'AI features use the system provider set up by your Dealscout operator.',
  noProvider: 'No AI provider is configured: AI enrichments will fail until an Admin connects an OpenAI API key.',
  askAdmin: 'Ask your organization Admin to connect an AI provider.',
  never: 'Never',
  loadFailed: 'Integration data not found',
} as const;

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
    padding: '16px 20px',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  head: { display: 'flex', alignItems: 'center', gap: '10px' },
  grow: { flexGrow: 1 },
  facts: { display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: '16px', rowGap: '4px', margin: 0 },
  term: { color: tokens.colorNeutralForeground2 },
  muted: { color: tokens.colorNeutralForeground2 },
  form: { display: 'flex', flexDirection: 'column', gap: '10px' },
  actions: { display: 'flex', justifyContent: 'flex-end', gap: '8px' },
});

export function formatAiDate(iso: string | null): string {
  if (!iso) return AI_PROVIDER_TEXT.never;
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

function ConnectForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const styles = useStyles();
  const api = useApi();
  const [name, setName] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [models, setModels] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const connect = useMutation({
    mutationFn: (body: CreateOrgIntegrationBody) => api.llm.connect(body),
    onSuccess: onDone,
  });
  const nameError = submitted && !name.trim() ? 'API key name is required' : undefined;
  const keyError = submitted && !apiKey.trim() ? 'API key is required' : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (!name.trim() || !apiKey.trim()) return;
    const list = models
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
    connect.mutate({
      provider: 'openai',
      name: name.trim(),
      apiKey: apiKey.trim(),
      baseUrl: baseUrl.trim() || null,
      ...(list.length ? { models: list } : {}),
    });
  };
  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Connect AI provider" data-testid="ai-provider-form">
      <Field label="API key name" required validationMessage={nameError}>
        <Input value={name} onChange={(_, d) => setName(d.value)} placeholder="e.g. Team OpenAI key" data-testid="ai-provider-name" />
      </Field>
      <Field label="API key" required validationMessage={keyError} hint="Stored encrypted; it is never shown again.">
        <Input type="password" value={apiKey} onChange={(_, d) => setApiKey(d.value)} autoComplete="off" data-testid="ai-provider-key" />
      </Field>
      <Field label="Base URL" hint="Optional: an OpenAI-compatible endpoint. Leave empty for OpenAI.">
        <Input
          value={baseUrl}
          onChange={(_, d) => setBaseUrl(d.value)}
          placeholder="https://api.openai.com/v1"
          data-testid="ai-provider-base-url"
        />
      </Field>
      <Field label="Models" hint="Optional, comma-separated; the first is the default.">
        <Input value={models} onChange={(_, d) => setModels(d.value)} placeholder="gpt-4o-mini, gpt-4o" data-testid="ai-provider-models" />
      </Field>
      {connect.isError && (
        <MessageBar intent="error" data-testid="ai-provider-error">
          <MessageBarBody>{serverMessage(connect.error) ?? 'Could not connect the AI provider. Please try again.'}</MessageBarBody>
        </MessageBar>
      )}
      <div className={styles.actions}>
        <Button onClick={onCancel} disabled={connect.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          appearance="primary"
          disabled={connect.isPending}
          icon={connect.isPending ? <Spinner aria-hidden size="tiny" /> : undefined}
          data-testid="ai-provider-submit"
        >
          Connect
        </Button>
      </div>
    </form>
  );
}

export interface AiProviderCardProps {
  isAdmin: boolean;
}

export function AiProviderCard({ isAdmin }: AiProviderCardProps) {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [connecting, setConnecting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const integrations = useQuery({ queryKey: INTEGRATIONS_QUERY_KEY, queryFn: async () => (await api.llm.integrations()).integrations });
  const org = useQuery({
    queryKey: ORGANIZATION_DETAILS_KEY,
    queryFn: async () => (await api.organization.get()).organization,
    staleTime: 60_000,
  });
  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: INTEGRATIONS_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: ['organization'] }),
    ]);
  };
  const openai: IntegrationDto | undefined = integrations.data?.find((i) => i.provider === 'openai' && i.scope === 'organization');
  const systemAvailable = org.data?.llmProvider?.systemAvailable ?? false;
  // Which provider is in use takes both answers: with the integrations alone, the card would say
  // there is no provider until the organization's answer arrived.
  const loaded = integrations.isSuccess && org.isSuccess;

  return (
    <section className={styles.card} aria-label={AI_PROVIDER_TEXT.title} data-testid="ai-provider-card">
      <div className={styles.head}>
        <BotRegular fontSize={24} />
        <Subtitle2 as="h3" className={styles.grow}>
          {AI_PROVIDER_TEXT.title}
        </Subtitle2>
        {openai?.data.active && (
          <Badge appearance="tint" color="success" icon={<PlugConnectedRegular />} data-testid="ai-provider-connected">
            {AI_PROVIDER_TEXT.connected}
          </Badge>
        )}
        {isAdmin && openai && (
          <Button icon={<PlugDisconnectedRegular />} onClick={() => setConfirming(true)} data-testid="ai-provider-disconnect">
            Disconnect
          </Button>
        )}
        {isAdmin && !openai && !connecting && integrations.isSuccess && (
          <Button appearance="primary" onClick={() => setConnecting(true)} data-testid="ai-provider-connect">
            Connect
          </Button>
        )}
      </div>
      {(integrations.isPending || org.isPending) && <Spinner size="tiny" label="Loading…" />}
      {(integrations.isError || org.isError) && (
        <Text role="alert" data-testid="ai-provider-load-error">
          {AI_PROVIDER_TEXT.loadFailed}
        </Text>
      )}
      {openai && (
        <dl className={styles.facts} data-testid="ai-provider-details">
          <dt className={styles.term}>API key name</dt>
          <dd style={{ margin: 0 }} data-testid="ai-provider-key-name">
            {openai.data.name}
            {openai.data.metadata.keyHint ? ` (…${openai.data.metadata.keyHint})` : ''}
          </dd>
          <dt className={styles.term}>Created by</dt>
          <dd style={{ margin: 0 }} data-testid="ai-provider-created-by">
            {openai.data.createdBy ? `${openai.data.createdBy.firstName} ${openai.data.createdBy.lastName}`.trim() : '—'}
          </dd>
          <dt className={styles.term}>Created at</dt>
          <dd style={{ margin: 0 }} data-testid="ai-provider-created-at">
            {formatAiDate(openai.data.createdAt)}
          </dd>
          <dt className={styles.term}>Expires at</dt>
          <dd style={{ margin: 0 }} data-testid="ai-provider-expires-at">
            {formatAiDate(openai.data.expiresAt)}
          </dd>
          {openai.data.metadata.baseUrl && (
            <>
              <dt className={styles.term}>Base URL</dt>
              <dd style={{ margin: 0 }}>{openai.data.metadata.baseUrl}</dd>
            </>
          )}
        </dl>
      )}
      {loaded && !openai && !connecting && (
        <Text className={styles.muted} data-testid="ai-provider-status">
          {AI_PROVIDER_TEXT.notConnected}. {systemAvailable ? AI_PROVIDER_TEXT.usingSystem : AI_PROVIDER_TEXT.noProvider}
          {!isAdmin && ` ${AI_PROVIDER_TEXT.askAdmin}`}
        </Text>
      )}
      {connecting && (
        <ConnectForm
          onCancel={() => setConnecting(false)}
          onDone={() => {
            setConnecting(false);
            notify.success('AI provider connected');
            void refresh();
          }}
        />
      )}
      <ConfirmDialog
        open={confirming}
        type="delete"
        title="Disconnect AI provider?"
        message="AI enrichments will use the system provider (if your Dealscout operator set one up) once the key is removed."
        confirmLabel="Yes, Disconnect"
        onCancel={() => setConfirming(false)}
        onConfirm={async () => {
          if (!openai) return;
          try {
            await api.llm.removeIntegration(openai.id);
          } catch (e) {
            throw new Error(serverMessage(e) ?? 'Could not disconnect the AI provider. Please try again.', { cause: e });
          }
          setConfirming(false);
          notify.success('AI provider disconnected');
          await refresh();
        }}
        data-testid="ai-provider-disconnect-dialog"
      />
    </section>
  );
}
