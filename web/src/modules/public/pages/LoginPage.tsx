import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { LOGIN_MESSAGES, isValidEmail, isValidLoginPassword } from '@dealscout/shared/domain';
import { ResetRequestForm } from '@dealscout/shared/ui';
import { api, errorMessage } from '../../../app/api';
import { setSignedInUser, useUserQuery } from '../../session/hooks/useSession';
import { LoadingScreen } from '../../session/components/LoadingScreen';

const useStyles = makeStyles({
  card: { padding: '28px', display: 'flex', flexDirection: 'column', gap: '16px' },
  form: { display: 'flex', flexDirection: 'column', gap: '14px' },
  muted: { color: tokens.colorNeutralForeground2 },
  submit: { alignSelf: 'stretch' },
});

interface LoginState {
  from?: string;
  notice?: string;
}

export default function LoginPage() {
  const user = useUserQuery();
  if (user.isPending) return <LoadingScreen inline />;
  // Logged-in users on the public layout go to the landing page.
  if (user.data) return <Navigate to="/" replace />;
  return (
    <>
      <SignInForm />
      <ResetRequestForm />
    </>
  );
}

function SignInForm() {
  const styles = useStyles();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = (location.state ?? {}) as LoginState;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});

  const login = useMutation({
    mutationFn: (body: { email: string; password: string }) => api.auth.login(body),
    meta: { authSignOut: false },
    onSuccess: (res) => {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
      navigate(state.from && state.from.startsWith('/') ? state.from : '/', { replace: true });
      setSignedInUser(queryClient, res.user);
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (!isValidEmail(email)) next.email = LOGIN_MESSAGES.invalidEmail;
    if (!isValidLoginPassword(password)) next.password = LOGIN_MESSAGES.invalidPassword;
    setErrors(next);
    if (next.email || next.password) return;
    login.mutate({ email: email.trim(), password });
  };

  return (
    <Card className={styles.card}>
      <div className="ds-intro">
        <Title2 as="h1" block>
          Sign in
        </Title2>
        <Text as="p" block className={styles.muted}>
          Welcome back. Sign in to your workspace.
        </Text>
      </div>
      {state.notice && !login.isError && (
        <MessageBar intent="success" data-testid="login-notice">
          <MessageBarBody>{state.notice}</MessageBarBody>
        </MessageBar>
      )}
      {login.isError && (
        <MessageBar intent="error" data-testid="login-error" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>{errorMessage(login.error, LOGIN_MESSAGES.failed)}</MessageBarTitle>
            <div>{LOGIN_MESSAGES.verify}</div>
            <div>Forgot your password? Request a reset link below.</div>
          </MessageBarBody>
        </MessageBar>
      )}
      <form className={styles.form} onSubmit={submit} noValidate aria-label="Sign in">
        <Field label="Email" validationMessage={errors.email} validationState={errors.email ? 'error' : 'none'}>
          <Input
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={(_, d) => setEmail(d.value)}
            data-testid="login-email"
          />
        </Field>
        <Field label="Password" validationMessage={errors.password} validationState={errors.password ? 'error' : 'none'}>
          <Input
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(_, d) => setPassword(d.value)}
            data-testid="login-password"
          />
        </Field>
        <Button
          type="submit"
          appearance="primary"
          className={styles.submit}
          disabled={login.isPending}
          icon={login.isPending ? <Spinner aria-hidden size="tiny" /> : undefined}
          data-testid="login-submit"
        >
          Sign in
        </Button>
      </form>
    </Card>
  );
}
