import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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
import { passwordProblem } from '@dealscout/shared/domain';
import { INVITE_LINK_MESSAGES } from '@dealscout/shared/contracts';
import { api, errorMessage } from '../../../app/api';
import { AppLink } from '../../../components/AppLink';
import { NewPasswordField } from '../components/NewPasswordField';
import { setSignedInUser, useUserQuery } from '../../session/hooks/useSession';
import { LoadingScreen } from '../../session/components/LoadingScreen';

const useStyles = makeStyles({
  card: { padding: '28px', display: 'flex', flexDirection: 'column', gap: '16px' },
  form: { display: 'flex', flexDirection: 'column', gap: '14px' },
  row: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gap: '12px' },
  muted: { color: tokens.colorNeutralForeground2 },
});

export default function InvitePage() {
  const styles = useStyles();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const current = useUserQuery();
  const info = useQuery({
    queryKey: ['invite', token],
    queryFn: () => api.invite.info(token),
    retry: false,
    staleTime: Infinity,
    meta: { authSignOut: false },
  });
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);

  const accept = useMutation({
    mutationFn: () => api.invite.accept({ token, firstName: firstName.trim(), lastName: lastName.trim(), password }),
    meta: { authSignOut: false },
    onSuccess: (res) => {
      // The invitation's own query stays: removing it while this page is still mounted refetched
      // it, and the used token answered 404.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' && q.queryKey[0] !== 'invite' });
      navigate('/', { replace: true });
      setSignedInUser(queryClient, res.user);
    },
  });

  if (info.isPending) return <LoadingScreen inline />;
  if (info.isError) {
    return (
      <Card className={styles.card}>
        <Title2 as="h1" block>
          Invitation
        </Title2>
        <MessageBar intent="error" data-testid="invite-accept-error">
          <MessageBarBody>{errorMessage(info.error, INVITE_LINK_MESSAGES.invalid)}</MessageBarBody>
        </MessageBar>
        <AppLink to="/login">Go to sign in</AppLink>
      </Card>
    );
  }

  const firstMissing = submitted && !firstName.trim() ? 'First name is required' : undefined;
  const lastMissing = submitted && !lastName.trim() ? 'Last name is required' : undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (!firstName.trim() || !lastName.trim() || passwordProblem(password)) return;
    accept.mutate();
  };

  const { organizationName, email, role } = info.data;
  return (
    <Card className={styles.card} data-testid="invite-accept">
      <div className="ds-intro">
        <Title2 as="h1" block>
          Join {organizationName}
        </Title2>
        <Text as="p" block className={styles.muted}>
          You were invited as <strong>{role}</strong>. Your account will use <strong>{email}</strong>.
        </Text>
      </div>
      {current.data && current.data.email !== email && (
        <MessageBar intent="info">
          <MessageBarBody>
            You are signed in as {current.data.email}. Accepting this invitation signs you in as {email}.
          </MessageBarBody>
        </MessageBar>
      )}
      {accept.isError && (
        <MessageBar intent="error" data-testid="invite-accept-error">
          <MessageBarBody>{errorMessage(accept.error, INVITE_LINK_MESSAGES.invalid)}</MessageBarBody>
        </MessageBar>
      )}
      <form className={styles.form} onSubmit={submit} noValidate aria-label="Accept invitation">
        <Field label="Email">
          <Input value={email} readOnly data-testid="invite-accept-email" />
        </Field>
        <div className={styles.row}>
          <Field label="First name" required validationMessage={firstMissing}>
            <Input
              value={firstName}
              autoComplete="given-name"
              onChange={(_, d) => setFirstName(d.value)}
              data-testid="invite-accept-first-name"
            />
          </Field>
          <Field label="Last name" required validationMessage={lastMissing}>
            <Input
              value={lastName}
              autoComplete="family-name"
              onChange={(_, d) => setLastName(d.value)}
              data-testid="invite-accept-last-name"
            />
          </Field>
        </div>
        <NewPasswordField
          label="Password"
          value={password}
          onChange={setPassword}
          showErrors={submitted}
          data-testid="invite-accept-password"
        />
        <Button
          type="submit"
          appearance="primary"
          disabled={accept.isPending}
          icon={accept.isPending ? <Spinner aria-hidden size="tiny" /> : undefined}
          data-testid="invite-accept-submit"
        >
          Accept invitation
        </Button>
      </form>
    </Card>
  );
}
