// Sign-in inside the pane (spec 000 §2 'Sign-in': email and password; the messages of §8). The
// server address is asked too: it defaults to the server that served the pane.
import { useState, type FormEvent } from 'react';
import {
  Button,
  Field,
  Input,
  Link,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { LOGIN_MESSAGES, isValidEmail, isValidLoginPassword } from '@dealscout/shared/domain';
import { AppToaster, serverMessage } from '@dealscout/shared/ui';
import { normalizeServerUrl, type SessionStore } from './session';

export const INVALID_SERVER = 'Type the address of your Dealscout server, like https://dealscout.example.com';
export const SERVER_UNREACHABLE = 'Could not reach the Dealscout server at this address';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    padding: '24px 16px',
    maxWidth: '420px',
    margin: '0 auto',
    boxSizing: 'border-box',
  },
  title: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  hint: { color: tokens.colorNeutralForeground3 },
});

/** The signed-out pane: the form and the toaster (the signed-in pane has its own). */
export function SignInScreen({ store }: { store: SessionStore }) {
  return (
    <>
      <SignIn store={store} />
      <AppToaster />
    </>
  );
}

export function SignIn({ store }: { store: SessionStore }) {
  const styles = useStyles();
  const [server, setServer] = useState(() => store.serverUrl());
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ server?: string; email?: string; password?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const serverUrl = normalizeServerUrl(server);
    const next: typeof errors = {};
    if (!serverUrl) next.server = INVALID_SERVER;
    if (!isValidEmail(email)) next.email = LOGIN_MESSAGES.invalidEmail;
    if (!isValidLoginPassword(password)) next.password = LOGIN_MESSAGES.invalidPassword;
    setErrors(next);
    setFailure(null);
    if (Object.keys(next).length > 0 || !serverUrl) return;
    setBusy(true);
    try {
      await store.signIn(serverUrl, email.trim(), password);
    } catch (err) {
      // A TypeError is fetch's own: no answer from that address.
      setFailure(err instanceof TypeError ? SERVER_UNREACHABLE : (serverMessage(err) ?? LOGIN_MESSAGES.failed));
      setBusy(false);
    }
  };

  return (
    <form className={styles.root} onSubmit={(e) => void submit(e)} noValidate data-testid="addin-sign-in">
      <Text as="h1" className={styles.title}>
        Sign in to Dealscout
      </Text>
      <Text size={200} className={styles.hint}>
        The people of your emails, their activities and enrichments, right in Outlook.
      </Text>
      {failure && (
        <MessageBar intent="error" data-testid="sign-in-error">
          <MessageBarBody>
            <MessageBarTitle>{failure}</MessageBarTitle>
            <div>{LOGIN_MESSAGES.verify}</div>
          </MessageBarBody>
        </MessageBar>
      )}
      <Field label="Server address" validationMessage={errors.server} required>
        <Input
          type="url"
          value={server}
          onChange={(_, d) => setServer(d.value)}
          placeholder="https://dealscout.example.com"
          data-testid="sign-in-server"
        />
      </Field>
      <Field label="Email" validationMessage={errors.email} required>
        <Input type="email" autoComplete="username" value={email} onChange={(_, d) => setEmail(d.value)} data-testid="sign-in-email" />
      </Field>
      <Field label="Password" validationMessage={errors.password} required>
        <Input
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(_, d) => setPassword(d.value)}
          data-testid="sign-in-password"
        />
      </Field>
      <Button appearance="primary" type="submit" disabled={busy} data-testid="sign-in-submit">
        {busy ? 'Signing in...' : 'Sign in'}
      </Button>
      {normalizeServerUrl(server) && (
        <Link href={`${normalizeServerUrl(server)}/login`} target="_blank" rel="noopener noreferrer">
          Forgot password?
        </Link>
      )}
    </form>
  );
}
