// The password-reset request below the sign-in form (spec 000 §2 'Sign-in'): the confirmation is
// the same whether or not the account exists. Used by the web login page and the Chrome side panel
// (moved from web/src/modules/public/pages/LoginPage.tsx).
import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import {
  Button,
  Card,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
  Title3,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useApi } from '../ApiContext';
import { serverMessage } from '../server-message';

const useStyles = makeStyles({
  card: { padding: '28px', display: 'flex', flexDirection: 'column', gap: '16px' },
  form: { display: 'flex', flexDirection: 'column', gap: '14px' },
  muted: { color: tokens.colorNeutralForeground2 },
});

export function ResetRequestForm({ className }: { className?: string }) {
  const styles = useStyles();
  const api = useApi();
  const [email, setEmail] = useState('');
  const request = useMutation({
    mutationFn: (value: string) => api.auth.forgotPassword({ email: value }),
    meta: { authSignOut: false },
  });

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    // The browser checks 'required' and the email type before this runs.
    request.mutate(email.trim());
  };

  return (
    <Card className={className ?? styles.card} data-testid="reset-request">
      <div className="ds-intro">
        <Title3 as="h2" block>
          Forgot your password?
        </Title3>
        <Text as="p" block className={styles.muted}>
          Enter your email and we will send you a link to choose a new password.
        </Text>
      </div>
      {request.isSuccess && (
        <MessageBar intent="success" data-testid="reset-request-confirmation">
          <MessageBarBody>{request.data.message}</MessageBarBody>
        </MessageBar>
      )}
      {request.isError && (
        <MessageBar intent="error" data-testid="reset-request-error">
          <MessageBarBody>{serverMessage(request.error) ?? 'Could not send the reset request. Please try again.'}</MessageBarBody>
        </MessageBar>
      )}
      <form className={styles.form} onSubmit={submit} aria-label="Request a password reset">
        <Field label="Email" required>
          <Input
            type="email"
            name="reset-email"
            required
            autoComplete="email"
            value={email}
            onChange={(_, d) => setEmail(d.value)}
            data-testid="reset-request-email"
          />
        </Field>
        <Button
          type="submit"
          disabled={request.isPending}
          icon={request.isPending ? <Spinner aria-hidden size="tiny" /> : undefined}
          data-testid="reset-request-submit"
        >
          Send reset link
        </Button>
      </form>
    </Card>
  );
}
