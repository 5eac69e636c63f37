// The list-source data providers of the integrations page: Ocean.io, Source Scrub and
// Google Maps, each with the organization's own API key (Source Scrub: its account as
// username:password). Admins connect (the key is sent once, stored encrypted, never shown again —
// the last four characters as a hint) or remove a key; users see whether each is connected.
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Input, Subtitle2, Text, makeStyles, tokens } from '@fluentui/react-components';
import { DATA_PROVIDERS, DATA_PROVIDER_NAMES, type DataProvider } from '../../domain';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';
import { INTEGRATIONS_QUERY_KEY } from '../llm/AiProviderCard';

const HINTS: Record<DataProvider, string> = {
  ocean: 'Lookalike companies of seed domains. Your Ocean.io API token.',
  sourceScrub: 'Companies of Source Scrub searches and sources. Your Source Scrub account as username:password.',
  googleMaps: 'Businesses of a Google Maps text search. A Google Cloud API key with the Places API (New) enabled.',
};

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
    padding: '16px 20px',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  row: { display: 'grid', gridTemplateColumns: '140px 1fr auto', alignItems: 'center', columnGap: '12px', rowGap: '4px' },
  form: { display: 'flex', gap: '8px', alignItems: 'center' },
  muted: { color: tokens.colorNeutralForeground3 },
});

export function DataProviderKeysCard(props: { isAdmin: boolean }) {
  const api = useApi();
  const qc = useQueryClient();
  const notify = useNotify();
  const styles = useStyles();
  const integrations = useQuery({ queryKey: INTEGRATIONS_QUERY_KEY, queryFn: () => api.llm.integrations() });
  const [keys, setKeys] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const byProvider = new Map((integrations.data?.integrations ?? []).filter((i) => i.scope === 'organization').map((i) => [i.provider, i]));

  const act = async (provider: DataProvider, what: () => Promise<{ message: string }>) => {
    setBusy(provider);
    try {
      notify.success((await what()).message);
      setKeys((k) => ({ ...k, [provider]: '' }));
      await qc.invalidateQueries({ queryKey: INTEGRATIONS_QUERY_KEY });
    } catch (e) {
      notify.error(serverMessage(e) ?? (e instanceof Error ? e.message : 'Could not save the key'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className={styles.card} aria-label="Data providers for lists" data-testid="data-provider-keys">
      <Subtitle2>Data providers for lists</Subtitle2>
      {DATA_PROVIDERS.map((p) => {
        const row = byProvider.get(p);
        return (
          <div key={p} className={styles.row} data-testid={`data-provider-${p}`}>
            <Text weight="semibold">{DATA_PROVIDER_NAMES[p]}</Text>
            <div>
              <Text block size={200} className={styles.muted}>
                {HINTS[p]}
              </Text>
              {props.isAdmin && !row && (
                <div className={styles.form}>
                  <Input
                    type="password"
                    size="small"
                    aria-label={`${DATA_PROVIDER_NAMES[p]} API key`}
                    value={keys[p] ?? ''}
                    onChange={(_, d) => setKeys((k) => ({ ...k, [p]: d.value }))}
                    data-testid={`data-provider-${p}-key`}
                  />
                  <Button
                    size="small"
                    appearance="primary"
                    disabled={busy === p || !(keys[p] ?? '').trim()}
                    onClick={() => act(p, () => api.llm.connect({ provider: p, apiKey: (keys[p] ?? '').trim() }))}
                    data-testid={`data-provider-${p}-connect`}
                  >
                    Connect
                  </Button>
                </div>
              )}
            </div>
            <div className={styles.form}>
              {row ? (
                <Badge
                  appearance="tint"
                  color="success"
                >{`Connected${row.data.metadata.keyHint ? ` · …${row.data.metadata.keyHint}` : ''}`}</Badge>
              ) : (
                <Badge appearance="tint" color="informative">
                  Not connected
                </Badge>
              )}
              {props.isAdmin && row && (
                <Button
                  size="small"
                  disabled={busy === p}
                  onClick={() => act(p, () => api.llm.removeIntegration(row.id))}
                  data-testid={`data-provider-${p}-remove`}
                >
                  Remove
                </Button>
              )}
            </div>
          </div>
        );
      })}
    </section>
  );
}
