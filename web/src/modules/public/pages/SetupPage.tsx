import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { LOGIN_MESSAGES, isValidEmail, passwordProblem } from '@dealscout/shared/domain';
import type { SetupBody } from '@dealscout/shared/contracts';
import { api, errorMessage } from '../../../app/api';
import { PublicFrame } from '../components/PublicLayout';
import { NewPasswordField } from '../components/NewPasswordField';
import { SETUP_KEY, setSignedInUser } from '../../session/hooks/useSession';

const useStyles = makeStyles({
  card: { padding: '28px', display: 'flex', flexDirection: 'column', gap: '16px' },
  form: { display: 'flex', flexDirection: 'column', gap: '14px' },
  row: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gap: '12px' },
  muted: { color: tokens.colorNeutralForeground2 },
});

type Errors = Partial<Record<keyof SetupBody, string>>;

function validate(v: SetupBody): Errors {
  const e: Errors = {};
  if (!v.organizationName.trim()) e.organizationName = 'Organization name is required';
  if (!v.firstName.trim()) e.firstName = 'First name is required';
  if (!v.lastName.trim()) e.lastName = 'Last name is required';
  if (!isValidEmail(v.email)) e.email = LOGIN_MESSAGES.invalidEmail;
  const p = passwordProblem(v.password);
  if (p) e.password = p;
  return e;
}

/** First run: creates the organization and its first admin, then signs the admin in. */
export default function SetupPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<SetupBody>({ organizationName: '', firstName: '', lastName: '', email: '', password: '' });
  const [submitted, setSubmitted] = useState(false);
  const errors = submitted ? validate(values) : {};
  const set = (key: keyof SetupBody) => (_: unknown, d: { value: string }) => setValues((v) => ({ ...v, [key]: d.value }));

  const setup = useMutation({
    mutationFn: (body: SetupBody) => api.setup.run(body),
    meta: { authSignOut: false },
    onSuccess: (res) => {
      setSignedInUser(queryClient, res.user);
      queryClient.setQueryData(SETUP_KEY, { needsSetup: false });
      navigate('/', { replace: true });
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (Object.keys(validate(values)).length > 0) return;
    setup.mutate({
      ...values,
      organizationName: values.organizationName.trim(),
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      email: values.email.trim(),
    });
  };

  return (
    <PublicFrame>
      <Card className={styles.card} data-testid="setup-page">
        <div className="ds-intro">
          <Title2 as="h1" block>
            Set up your workspace
          </Title2>
          <Text as="p" block className={styles.muted}>
            Create your organization and its first admin account. You can invite your colleagues afterwards.
          </Text>
        </div>
        {setup.isError && (
          <MessageBar intent="error" data-testid="setup-error">
            <MessageBarBody>{errorMessage(setup.error, 'Setup failed. Please try again.')}</MessageBarBody>
          </MessageBar>
        )}
        <form className={styles.form} onSubmit={submit} noValidate aria-label="Set up your workspace">
          <Field label="Organization name" required validationMessage={errors.organizationName}>
            <Input
              value={values.organizationName}
              onChange={set('organizationName')}
              autoComplete="organization"
              data-testid="setup-organization"
            />
          </Field>
          <div className={styles.row}>
            <Field label="First name" required validationMessage={errors.firstName}>
              <Input value={values.firstName} onChange={set('firstName')} autoComplete="given-name" data-testid="setup-first-name" />
            </Field>
            <Field label="Last name" required validationMessage={errors.lastName}>
              <Input value={values.lastName} onChange={set('lastName')} autoComplete="family-name" data-testid="setup-last-name" />
            </Field>
          </div>
          <Field label="Email" required validationMessage={errors.email}>
            <Input type="email" value={values.email} onChange={set('email')} autoComplete="username" data-testid="setup-email" />
          </Field>
          <NewPasswordField
            label="Password"
            value={values.password}
            onChange={(password) => setValues((v) => ({ ...v, password }))}
            showErrors={submitted}
            data-testid="setup-password"
          />
          <Button
            type="submit"
            appearance="primary"
            disabled={setup.isPending}
            icon={setup.isPending ? <Spinner aria-hidden size="tiny" /> : undefined}
            data-testid="setup-submit"
          >
            Create organization
          </Button>
        </form>
      </Card>
    </PublicFrame>
  );
}
