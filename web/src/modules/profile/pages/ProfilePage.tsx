import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useIsFetching, useMutation, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Button, Field, Input, Spinner, Switch, Text, Title2, Subtitle1, makeStyles, tokens } from '@fluentui/react-components';
import { AiProviderCard, CrmUsernameSettings, DataProviderKeysCard, useNotify } from '@dealscout/shared/ui';
import { EmailServiceCard } from '@dealscout/shared/ui';
import { api, errorMessage } from '../../../app/api';
import { CrmIntegrations } from '../../integrations/CrmIntegrations';
import { CalendarSettings } from '../components/CalendarSettings';
import { EmailSettings } from '../components/EmailSettings';
import { USER_KEY, useSaveSettings, useUser, useUserConfig } from '../../session/hooks/useSession';

const useStyles = makeStyles({
  root: { maxWidth: '760px', margin: '0 auto', display: 'flex', flexDirection: 'column', gap: '16px' },
  section: {
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
    padding: '20px 24px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
  },
  row: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gap: '12px' },
  actions: { display: 'flex', justifyContent: 'flex-end', gap: '8px' },
  muted: { color: tokens.colorNeutralForeground2 },
});

function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  const styles = useStyles();
  return (
    <section className={styles.section} aria-label={title} data-testid={testId}>
      <Subtitle1 as="h2" block>
        {title}
      </Subtitle1>
      {children}
    </section>
  );
}

export default function ProfilePage() {
  const styles = useStyles();
  const user = useUser();
  const config = useUserConfig();
  const saveSettings = useSaveSettings();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const [submitted, setSubmitted] = useState(false);
  // Back from Microsoft's consent page (?o365=connected|error): the email service card takes the
  // focus once the page has loaded (the cards above it no longer change height), then the outcome
  // leaves the address so a reload does not repeat it.
  const [params, setParams] = useSearchParams();
  const o365 = params.get('o365');
  const returnedWith = o365 === 'connected' || o365 === 'error' ? o365 : null;
  const settled = useIsFetching() === 0;

  useEffect(() => {
    setFirstName(user.firstName);
    setLastName(user.lastName);
  }, [user.firstName, user.lastName]);

  const saveProfile = useMutation({
    mutationFn: () => api.user.updateProfile({ firstName: firstName.trim(), lastName: lastName.trim() }),
    onSuccess: (res) => {
      queryClient.setQueryData(USER_KEY, res.user);
      setSubmitted(false);
      notify.success('Profile saved');
    },
    onError: (e) => notify.error(errorMessage(e, 'Could not save your profile. Please try again.')),
  });

  const firstMissing = submitted && !firstName.trim() ? 'First name is required' : undefined;
  const lastMissing = submitted && !lastName.trim() ? 'Last name is required' : undefined;
  const dirty = firstName.trim() !== user.firstName || lastName.trim() !== user.lastName;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (!firstName.trim() || !lastName.trim()) return;
    saveProfile.mutate();
  };

  return (
    <div className={styles.root} data-testid="profile-page">
      <Title2 as="h1" block>
        Profile
      </Title2>
      <Section title="User settings" testId="profile-user-settings">
        <form onSubmit={submit} noValidate aria-label="User settings" style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
          <div className={styles.row}>
            <Field label="First name" required validationMessage={firstMissing}>
              <Input
                value={firstName}
                onChange={(_, d) => setFirstName(d.value)}
                autoComplete="given-name"
                data-testid="profile-first-name"
              />
            </Field>
            <Field label="Last name" required validationMessage={lastMissing}>
              <Input
                value={lastName}
                onChange={(_, d) => setLastName(d.value)}
                autoComplete="family-name"
                data-testid="profile-last-name"
              />
            </Field>
          </div>
          <Field label="Email" hint="Your sign-in address. Ask your organization Admin if it needs to change.">
            <Input value={user.email} readOnly data-testid="profile-email" />
          </Field>
          <div className={styles.actions}>
            <Button
              type="submit"
              appearance="primary"
              disabled={!dirty || saveProfile.isPending}
              icon={saveProfile.isPending ? <Spinner aria-hidden size="tiny" /> : undefined}
              data-testid="profile-save"
            >
              Save
            </Button>
          </div>
        </form>
        <Switch
          label="Keep the navigation menu expanded"
          checked={config.navigationExpanded}
          onChange={(_, d) => saveSettings.mutate({ navigationExpanded: d.checked })}
          data-testid="profile-navigation-expanded"
        />
        <CalendarSettings />
      </Section>
      <Section title="CRM settings" testId="profile-crm-settings">
        <CrmUsernameSettings isAdmin={user.isAdmin} />
      </Section>
      <Section title="Email settings" testId="profile-email-settings">
        <EmailSettings />
      </Section>
      <Section title="Integrations" testId="profile-integrations">
        <Text className={styles.muted}>
          Your own Office 365 mailbox sends and schedules your emails; the AI provider is the organization's.
        </Text>
        <AiProviderCard isAdmin={user.isAdmin} />
        <EmailServiceCard
          returnedWith={settled ? returnedWith : null}
          returnedReason={params.get('o365Reason')}
          onReturnHandled={() =>
            setParams(
              (p) => {
                const next = new URLSearchParams(p);
                next.delete('o365');
                next.delete('o365Reason');
                return next;
              },
              { replace: true },
            )
          }
        />
        <CrmIntegrations isAdmin={user.isAdmin} />
        <DataProviderKeysCard isAdmin={user.isAdmin} />
      </Section>
    </div>
  );
}
