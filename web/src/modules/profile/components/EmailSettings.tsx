// Profile → Email settings (spec 001 §2 /account/profile 'Engage email settings'): the user's email
// signature, and the organization's AI summary used as context in generated emails — admins
// generate a draft from the organization's website, edit it and save; Users read it.
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Field, MessageBar, MessageBarBody, Spinner, Text, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { SparkleRegular } from '@fluentui/react-icons';
import { EMAIL_SETTINGS_MESSAGES } from '@dealscout/shared/domain';
import { useNotify } from '@dealscout/shared/ui';
import { api, errorMessage } from '../../../app/api';

const KEY = ['user', 'email-settings'] as const;
const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '12px' },
  actions: { display: 'flex', justifyContent: 'flex-end', gap: '8px' },
  muted: { color: tokens.colorNeutralForeground2 },
});

export function EmailSettings() {
  const styles = useStyles();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: KEY, queryFn: async () => (await api.user.emailSettings()).settings });
  const [signature, setSignature] = useState('');
  const [summary, setSummary] = useState('');
  useEffect(() => {
    if (!settings.data) return;
    setSignature(settings.data.signature ?? '');
    setSummary(settings.data.aiSummary ?? '');
  }, [settings.data]);

  const saveSignature = useMutation({
    mutationFn: () => api.user.saveSignature(signature),
    onSuccess: (res) => {
      queryClient.setQueryData(KEY, res.settings);
      notify.success(EMAIL_SETTINGS_MESSAGES.signatureSaved);
    },
    onError: (e) => notify.error(errorMessage(e, 'Could not save your signature. Please try again.')),
  });
  const saveSummary = useMutation({
    mutationFn: () => api.user.saveAiSummary(summary),
    onSuccess: (res) => {
      queryClient.setQueryData(KEY, res.settings);
      notify.success(EMAIL_SETTINGS_MESSAGES.summarySaved);
    },
    onError: (e) => notify.error(errorMessage(e, 'Could not save the summary. Please try again.')),
  });
  const generate = useMutation({
    mutationFn: () => api.user.generateAiSummary(),
    onSuccess: (res) => setSummary(res.aiSummary),
  });

  if (settings.isPending) return <Spinner size="tiny" label="Loading…" />;
  if (settings.isError) return <Text role="alert">Organization data not found</Text>;
  const s = settings.data;
  const signatureDirty = signature.trim() !== (s.signature ?? '');
  const summaryDirty = summary.trim() !== (s.aiSummary ?? '');

  return (
    <div className={styles.root} data-testid="email-settings">
      <Field label="Email signature" hint="Added under the emails you generate and send.">
        <Textarea value={signature} onChange={(_, d) => setSignature(d.value)} resize="vertical" rows={4} data-testid="email-signature" />
      </Field>
      <div className={styles.actions}>
        <Button
          appearance="primary"
          disabled={!signatureDirty || saveSignature.isPending}
          onClick={() => saveSignature.mutate()}
          data-testid="email-signature-save"
        >
          Save signature
        </Button>
      </div>
      <Field
        label="AI summary of your organization"
        hint={
          s.canEditSummary
            ? `Context for generated emails. Generate it from ${s.website ?? "the organization's website"}, then edit.`
            : 'Context for generated emails; your organization Admin maintains it.'
        }
      >
        <Textarea
          value={summary}
          onChange={(_, d) => setSummary(d.value)}
          readOnly={!s.canEditSummary}
          resize="vertical"
          rows={5}
          data-testid="ai-summary"
        />
      </Field>
      {generate.isError && (
        <MessageBar intent="error" data-testid="ai-summary-error">
          <MessageBarBody>{errorMessage(generate.error, 'Could not generate the summary. Please try again.')}</MessageBarBody>
        </MessageBar>
      )}
      {s.canEditSummary && (
        <div className={styles.actions}>
          <Button
            icon={generate.isPending ? <Spinner aria-hidden size="tiny" /> : <SparkleRegular />}
            disabled={generate.isPending}
            onClick={() => generate.mutate()}
            data-testid="ai-summary-generate"
          >
            Generate from website
          </Button>
          <Button
            appearance="primary"
            disabled={!summaryDirty || saveSummary.isPending}
            onClick={() => saveSummary.mutate()}
            data-testid="ai-summary-save"
          >
            Save summary
          </Button>
        </div>
      )}
    </div>
  );
}
