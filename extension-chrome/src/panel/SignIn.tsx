// Sign-in in the side panel: email and password give a bearer token (POST /api/v1/auth/token,
// TOKEN_TTL_DAYS on the server), kept in extension storage. The reset request sits below, as on
// the web login page.
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import {
  Button,
  Card,
  Field,
  Input,
  Link,
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
import { ResetRequestForm, serverMessage, useApi } from '@dealscout/shared/ui';
import type { TokenResponse } from '@dealscout/shared/contracts';

export const TOKEN_LABEL = 'Chrome extension';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, padding: tokens.spacingHorizontalL },
  card: { padding: '20px', display: 'flex', flexDirection: 'column', gap: '14px' },
  form: { display: 'flex', flexDirection: 'column', gap: '12px' },
  muted: { color: tokens.colorNeutralForeground2 },
});

export function SignIn(props: { serverUrl: string; notice?: string | null; onSignedIn(res: TokenResponse): void; onChangeServer(): void }) {
  const styles = useStyles();
  const api = useApi();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const login = useMutation({
    mutationFn: (body: { email: string; password: string }) => api.auth.token({ ...body, label: TOKEN_LABEL }),
    meta: { authSignOut: false },
    onSuccess: props.onSignedIn,
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
  // A server that cannot be reached has no message of its own.
  const failure = login.isError ? (serverMessage(login.error) ?? `Cannot reach ${props.serverUrl}. Check the server address.`) : null;

  return (
    <div className={styles.root}>
      <Card className={styles.card}>
        <div>
          <Title2 as="h1" block>
            Sign in
          </Title2>
          <Text as="p" block className={styles.muted}>
            to Dealscout at{' '}
            <Text weight="semibold" data-testid="signin-server">
              {props.serverUrl}
            </Text>{' '}
            (
            <Link as="button" onClick={props.onChangeServer} data-testid="signin-change-server">
              change
            </Link>
            )
          </Text>
        </div>
        {props.notice && !login.isError && (
          <MessageBar intent="warning" data-testid="signin-notice">
            <MessageBarBody>{props.notice}</MessageBarBody>
          </MessageBar>
        )}
        {failure && (
          <MessageBar intent="error" layout="multiline" data-testid="login-error">
            <MessageBarBody>
              <MessageBarTitle>{failure === serverMessage(login.error) ? failure : LOGIN_MESSAGES.failed}</MessageBarTitle>
              <div>{failure === serverMessage(login.error) ? LOGIN_MESSAGES.verify : failure}</div>
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
            disabled={login.isPending}
            icon={login.isPending ? <Spinner aria-hidden size="tiny" /> : undefined}
            data-testid="login-submit"
          >
            Sign in
          </Button>
        </form>
      </Card>
      <ResetRequestForm className={styles.card} />
    </div>
  );
}
