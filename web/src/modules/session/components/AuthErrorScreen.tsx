import { Button, Card, Text, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { ErrorCircleRegular } from '@fluentui/react-icons';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    minHeight: '100vh',
    padding: '24px',
    backgroundColor: tokens.colorNeutralBackground2,
  },
  card: {
    maxWidth: '440px',
    width: '100%',
    padding: '32px',
    display: 'flex',
    flexDirection: 'column',
    gap: '16px',
    alignItems: 'flex-start',
  },
  icon: { fontSize: '40px', color: tokens.colorPaletteRedForeground1 },
  actions: { display: 'flex', gap: '8px' },
});

/** Spec 000 §2 'Shell': the authentication-error screen (the user fetch failed, not with a 401). */
export function AuthErrorScreen({ onGoToLogin }: { onGoToLogin: () => void }) {
  const styles = useStyles();
  return (
    <div className={styles.root} data-testid="auth-error-screen">
      <Card className={styles.card}>
        <ErrorCircleRegular className={styles.icon} aria-hidden />
        <Title2 as="h1" block>
          Authentication Error
        </Title2>
        <Text>An authentication error occurred. Please refresh the page or log in again.</Text>
        <div className={styles.actions}>
          <Button appearance="primary" onClick={() => window.location.reload()} data-testid="auth-error-refresh">
            Refresh Page
          </Button>
          <Button onClick={onGoToLogin} data-testid="auth-error-login">
            Go to Login
          </Button>
        </div>
      </Card>
    </div>
  );
}
