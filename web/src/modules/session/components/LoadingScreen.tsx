import { Spinner, makeStyles } from '@fluentui/react-components';

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight: '100vh', width: '100%' },
  inline: { display: 'flex', alignItems: 'center', justifyContent: 'center', padding: '48px', width: '100%' },
});

/** Spec 000 §2 'Shell': while authentication loads a 'Loading...' screen shows. */
export function LoadingScreen({ inline = false }: { inline?: boolean }) {
  const styles = useStyles();
  return (
    <div className={inline ? styles.inline : styles.root} data-testid="loading-screen" role="status">
      <Spinner label="Loading..." />
    </div>
  );
}
