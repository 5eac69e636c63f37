import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
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
import { passwordProblem } from '@dealscout/shared/domain';
import { RESET_MESSAGES } from '@dealscout/shared/contracts';
import { api, errorMessage } from '../../../app/api';
import { AppLink } from '../../../components/AppLink';
import { NewPasswordField } from '../components/NewPasswordField';
import { setSignedInUser } from '../../session/hooks/useSession';

const useStyles = makeStyles({
  card: { padding: '28px', display: 'flex', flexDirection: 'column', gap: '16px' },
  form: { display: 'flex', flexDirection: 'column', gap: '14px' },
  muted: { color: tokens.colorNeutralForeground2 },
});

export const PASSWORDS_DIFFER = 'Passwords do not match';

export default function ResetPasswordPage() {
  const styles = useStyles();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitted, setSubmitted] = useState(false);

  const reset = useMutation({
    mutationFn: () => api.auth.resetPassword({ token, password }),
    meta: { authSignOut: false },
    onSuccess: (res) => {
      // The server ends every session of the account: sign in again with the new password.
      setSignedInUser(queryClient, null);
      navigate('/login', { replace: true, state: { notice: res.message || RESET_MESSAGES.done } });
    },
  });

  const mismatch = confirm.length > 0 || submitted ? (confirm !== password ? PASSWORDS_DIFFER : null) : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (passwordProblem(password) || password !== confirm) return;
    reset.mutate();
  };

  return (
    <Card className={styles.card}>
      <div className="ds-intro">
        <Title2 as="h1" block>
          Choose a new password
        </Title2>
        <Text as="p" block className={styles.muted}>
          The link works once. After the change, sign in with the new password.
        </Text>
      </div>
      {!token ? (
        <MessageBar intent="error" data-testid="reset-error">
          <MessageBarBody>{RESET_MESSAGES.invalid}</MessageBarBody>
        </MessageBar>
      ) : (
        <>
          {reset.isError && (
            <MessageBar intent="error" data-testid="reset-error">
              <MessageBarBody>{errorMessage(reset.error, RESET_MESSAGES.invalid)}</MessageBarBody>
            </MessageBar>
          )}
          <form className={styles.form} onSubmit={submit} noValidate aria-label="Choose a new password">
            <NewPasswordField
              label="New password"
              value={password}
              onChange={setPassword}
              showErrors={submitted}
              data-testid="reset-password"
            />
            <Field
              label="Confirm password"
              required
              validationMessage={mismatch ?? undefined}
              validationState={mismatch ? 'error' : 'none'}
            >
              <Input
                type="password"
                autoComplete="new-password"
                value={confirm}
                onChange={(_, d) => setConfirm(d.value)}
                data-testid="reset-confirm"
              />
            </Field>
            <Button
              type="submit"
              appearance="primary"
              disabled={reset.isPending}
              icon={reset.isPending ? <Spinner aria-hidden size="tiny" /> : undefined}
              data-testid="reset-submit"
            >
              Change password
            </Button>
          </form>
        </>
      )}
      <AppLink to="/login" data-testid="reset-back-to-login">
        Back to sign in
      </AppLink>
    </Card>
  );
}
