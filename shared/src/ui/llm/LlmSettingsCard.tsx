// The organization's LLM settings (admin, /organization/settings): whether AI calls use the system
// provider or the organization's own key (PUT /organization/useSystemLLMSetting), the default model
// (PUT /organization/llmSetting), and the AI credits left (credits.ai).
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Field,
  MessageBar,
  MessageBarBody,
  Select,
  Spinner,
  Subtitle1,
  Switch,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OrganizationAiDto } from '../../contracts';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';
import { ORGANIZATION_DETAILS_KEY, formatAiDate } from './AiProviderCard';

export const LLM_SETTINGS_TEXT = {
  title: 'LLM settings',
  useSystem: 'Use the system LLM setting',
  systemOn: "On: AI features use the system provider. Switch off to use your organization's own OpenAI key.",
  systemOff: "Off: AI features use your organization's own OpenAI key. Switch on to use the system provider.",
  noSystem: 'The system AI provider is not set up on this server.',
  noOwnKey: 'No organization key connected yet: connect one on the Profile page under Integrations.',
  notConfigured: 'No AI provider is configured: AI enrichments fail until an Admin connects an OpenAI API key (Profile → Integrations).',
  defaultModel: 'Default model',
  credits: 'AI credits',
  unlimited: 'Unlimited',
  saved: 'LLM settings updated',
} as const;

const useStyles = makeStyles({
  section: {
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
    padding: '16px 20px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
  },
  row: { display: 'flex', alignItems: 'flex-end', gap: '12px', flexWrap: 'wrap' },
  select: { minWidth: '260px' },
  muted: { color: tokens.colorNeutralForeground2 },
});

export function creditsText(c: OrganizationAiDto['credits']['ai']): string {
  if (c.total === null) return LLM_SETTINGS_TEXT.unlimited;
  const base = `${c.remaining ?? 0} of ${c.total} left`;
  return c.expiresAt ? `${base} · expire ${formatAiDate(c.expiresAt)}` : base;
}

export function LlmSettingsCard() {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const org = useQuery({
    queryKey: ORGANIZATION_DETAILS_KEY,
    queryFn: async () => (await api.organization.get()).organization,
    staleTime: 60_000,
  });
  const ai = org.data as (OrganizationAiDto & { id: string }) | undefined;
  const currentDefault = ai?.settings.llm.find((l) => l.isDefault)?.llmModel.id ?? '';
  const [model, setModel] = useState(currentDefault);
  useEffect(() => setModel(currentDefault), [currentDefault]);

  const apply = (res: { ai: OrganizationAiDto }) => {
    queryClient.setQueryData(ORGANIZATION_DETAILS_KEY, (old: object | undefined) => (old ? { ...old, ...res.ai } : old));
    void queryClient.invalidateQueries({ queryKey: ['organization'] });
  };
  const toggle = useMutation({
    mutationFn: (status: boolean) => api.llm.useSystemSetting({ id: ai!.settings.llmSettings.id, status }),
    onSuccess: (res) => {
      apply(res);
      notify.success(LLM_SETTINGS_TEXT.saved);
    },
    onError: (e) => notify.error(serverMessage(e) ?? 'Could not save the LLM settings. Please try again.'),
  });
  const save = useMutation({
    mutationFn: () =>
      api.llm.setSettings({ settings: { llm: ai!.llmModels.map((m) => ({ llmModelId: m.id, isDefault: m.id === model })) } }),
    onSuccess: (res) => {
      apply(res);
      notify.success(LLM_SETTINGS_TEXT.saved);
    },
    onError: (e) => notify.error(serverMessage(e) ?? 'Could not save the LLM settings. Please try again.'),
  });

  if (org.isPending) return <Spinner size="tiny" label="Loading…" />;
  if (!ai?.settings?.llmSettings) return <Text role="alert">Organization data not found</Text>;
  const p = ai.llmProvider;
  const canToggle = ai.settings.llmSettings.useSystemLlmSetting ? p.organizationIntegrationId !== null : p.systemAvailable;

  return (
    <section className={styles.section} aria-label={LLM_SETTINGS_TEXT.title} data-testid="llm-settings">
      <Subtitle1 as="h2" block>
        {LLM_SETTINGS_TEXT.title}
      </Subtitle1>
      {!p.configured && (
        <MessageBar intent="warning" data-testid="llm-settings-not-configured">
          <MessageBarBody>{LLM_SETTINGS_TEXT.notConfigured}</MessageBarBody>
        </MessageBar>
      )}
      <Field
        hint={
          ai.settings.llmSettings.useSystemLlmSetting
            ? p.organizationIntegrationId
              ? LLM_SETTINGS_TEXT.systemOn
              : LLM_SETTINGS_TEXT.noOwnKey
            : p.systemAvailable
              ? LLM_SETTINGS_TEXT.systemOff
              : LLM_SETTINGS_TEXT.noSystem
        }
      >
        <Switch
          label={LLM_SETTINGS_TEXT.useSystem}
          checked={ai.settings.llmSettings.useSystemLlmSetting}
          disabled={!canToggle || toggle.isPending}
          onChange={(_, d) => toggle.mutate(d.checked)}
          data-testid="llm-use-system"
        />
      </Field>
      <div className={styles.row}>
        <Field label={LLM_SETTINGS_TEXT.defaultModel} className={styles.select}>
          <Select value={model} onChange={(_, d) => setModel(d.value)} disabled={ai.llmModels.length === 0} data-testid="llm-default-model">
            {ai.llmModels.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </Select>
        </Field>
        <Button
          appearance="primary"
          disabled={!model || model === currentDefault || save.isPending}
          icon={save.isPending ? <Spinner aria-hidden size="tiny" /> : undefined}
          onClick={() => save.mutate()}
          data-testid="llm-save"
        >
          Save
        </Button>
      </div>
      <Text className={styles.muted} data-testid="llm-credits">
        {LLM_SETTINGS_TEXT.credits}: {creditsText(ai.credits.ai)}
      </Text>
    </section>
  );
}
