// The options page: the Dealscout server's address. Changing it signs the panel out (a token
// belongs to one server).
import { useEffect, useState, type FormEvent } from 'react';
import {
  Button,
  Card,
  Field,
  FluentProvider,
  Input,
  MessageBar,
  MessageBarBody,
  Text,
  Title2,
  makeStyles,
  tokens,
  webLightTheme,
} from '@fluentui/react-components';
import type { Store } from '../host/types';
import { DEFAULT_SERVER_URL, SERVER_URL_MESSAGES, parseServerUrl } from '../panel/server-url';

const useStyles = makeStyles({
  root: { maxWidth: '520px', margin: '32px auto', padding: '0 16px' },
  card: { padding: '24px', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  muted: { color: tokens.colorNeutralForeground2 },
});

export function OptionsPage({ store }: { store: Store }) {
  const styles = useStyles();
  const [value, setValue] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void store.getSettings().then((s) => setValue(s?.serverUrl ?? DEFAULT_SERVER_URL));
  }, [store]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(null);
    const parsed = parseServerUrl(value);
    if ('error' in parsed) return setError(parsed.error);
    setError(null);
    const before = await store.getSettings();
    await store.setSettings({ serverUrl: parsed.origin });
    if ((before?.serverUrl ?? DEFAULT_SERVER_URL) !== parsed.origin) await store.setSession(null);
    setValue(parsed.origin);
    setSaved(SERVER_URL_MESSAGES.saved);
  };

  return (
    <FluentProvider theme={webLightTheme}>
      <div className={styles.root}>
        <Card className={styles.card}>
          <Title2 as="h1">Dealscout</Title2>
          <Text className={styles.muted}>
            The side panel signs in to this Dealscout server. Its CORS settings must admit this extension.
          </Text>
          {saved && (
            <MessageBar intent="success" data-testid="options-saved">
              <MessageBarBody>{saved}</MessageBarBody>
            </MessageBar>
          )}
          <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
            <Field
              label="Server address"
              validationMessage={error}
              validationState={error ? 'error' : 'none'}
              hint="For example https://dealscout.example.com"
            >
              <Input value={value} onChange={(_, d) => setValue(d.value)} data-testid="options-server-url" />
            </Field>
            <Button type="submit" appearance="primary" data-testid="options-save">
              Save
            </Button>
          </form>
        </Card>
      </div>
    </FluentProvider>
  );
}
