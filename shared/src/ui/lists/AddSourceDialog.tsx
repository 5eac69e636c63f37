// 'Add a source' for the data providers (spec 002 §2 'List source dialogs with previews', §7 'Lists
// and sources'): Ocean.io lookalikes of seed domains, Google Maps samples, Source Scrub (a company
// search, or the companies of chosen Source Scrub sources) and the List Building Agent. A preview
// shows what the provider answers (nothing is saved); 'Add source' saves the source and starts its
// list execution, whose progress the list page follows (processing → in progress, completed,
// error → failed). Failures show the spec's message with the provider's reason.
import { useState } from 'react';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Radio,
  RadioGroup,
  SpinButton,
  Spinner,
  Text,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { PreviewCompany, SourceScrubSourceDto } from '../../contracts';
import { LIST_SOURCE_MESSAGES } from '../../domain';
import { useApi } from '../ApiContext';
import { useModalSurfaceStyle } from '../PluginMode';
import { sourceLabel } from './labels';

export type ProviderKind = 'ocean' | 'googleMaps' | 'sourceScrub' | 'agent';
export const PROVIDER_KINDS: readonly ProviderKind[] = ['ocean', 'googleMaps', 'sourceScrub', 'agent'];

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  table: { width: '100%', borderCollapse: 'collapse', fontSize: tokens.fontSizeBase200 },
  cell: {
    textAlign: 'left',
    padding: `2px ${tokens.spacingHorizontalS}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  scroll: { maxHeight: '240px', overflowY: 'auto' },
  error: { color: tokens.colorPaletteRedForeground1 },
});

/** The message of a failed call and, when the server gave one, the provider's reason. */
function failure(e: unknown, fallback: string): string {
  if (!(e instanceof Error)) return fallback;
  const issues = ((e as { body?: { issues?: { message: string }[] } }).body?.issues ?? []).map((i) => i.message);
  return [e.message || fallback, ...issues].join(': ');
}

export function AddSourceDialog(props: {
  open: boolean;
  listId: string;
  kind: ProviderKind;
  onClose: () => void;
  onAdded: (message: string) => Promise<void> | void;
}) {
  const api = useApi();
  const styles = useStyles();
  const surface = useModalSurfaceStyle();
  const { kind } = props;
  const [domains, setDomains] = useState('');
  const [query, setQuery] = useState('');
  const [description, setDescription] = useState('');
  const [ssMode, setSsMode] = useState<'search' | 'sources'>('sources');
  const [ssSources, setSsSources] = useState<SourceScrubSourceDto[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [max, setMax] = useState<number>(kind === 'agent' ? 20 : kind === 'googleMaps' ? 60 : 100);
  const [preview, setPreview] = useState<{ companies: PreviewCompany[]; total: number; note?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const seeds = domains
    .split(/[\s,;]+/)
    .map((d) => d.trim())
    .filter(Boolean);
  const close = () => {
    setPreview(null);
    setError(null);
    setSsSources(null);
    setChosen([]);
    props.onClose();
  };
  const run = async (what: () => Promise<void>, fallback: string) => {
    setBusy(true);
    setError(null);
    try {
      await what();
    } catch (e) {
      setError(failure(e, fallback));
    } finally {
      setBusy(false);
    }
  };

  const params = (): Record<string, unknown> => {
    if (kind === 'ocean') return { domains: seeds, maxResultCount: max };
    if (kind === 'googleMaps') return { query, maxResultCount: max };
    if (kind === 'agent') return { description, maxResultCount: max };
    return ssMode === 'sources' ? { sourceIds: chosen, maxResultCount: max } : { searchText: query, maxResultCount: max };
  };

  const showPreview = () =>
    run(
      async () => {
        if (kind === 'ocean') {
          const r = await api.lists.oceanPreview({ domains: seeds, maxResultCount: 10 });
          const missing = Object.entries(r.missingDomains ?? {})
            .map(([d, why]) => `${d}: ${why}`)
            .join('; ');
          setPreview({ companies: r.companies, total: r.total, note: missing ? `Not used: ${missing}` : undefined });
        } else if (kind === 'googleMaps') {
          const r = await api.lists.googleMapsSamples({ query, maxResultCount: 10 });
          setPreview({ companies: r.companies, total: r.total });
        } else if (kind === 'sourceScrub' && ssMode === 'search') {
          const r = await api.lists.sourceScrubPreview({ searchText: query, maxResultCount: 10 });
          setPreview({ companies: r.companies, total: r.total });
        } else if (kind === 'sourceScrub') {
          const r = await api.lists.sourceScrubCompanies({ filters: { sourceIds: chosen }, maxResultCount: 10 });
          setPreview({ companies: r.companies, total: r.total });
        }
      },
      kind === 'sourceScrub' ? LIST_SOURCE_MESSAGES.sourceScrubCompaniesError : LIST_SOURCE_MESSAGES.companiesError,
    );

  const findSources = () =>
    run(async () => {
      const r = await api.lists.sourceScrubSources({ filters: { searchText: query }, maxResultCount: 25 });
      setSsSources(r.sources);
    }, LIST_SOURCE_MESSAGES.sourceScrubSourcesError);

  const add = () =>
    run(async () => {
      const res = await api.lists.addProviderSource(props.listId, kind, params());
      const started = await api.lists.execute({ typeId: res.sourceId, entityType: 'list', entityId: props.listId });
      await props.onAdded(started.message);
      close();
    }, 'Could not add the source');

  const canPreview =
    kind === 'ocean'
      ? seeds.length > 0
      : kind === 'googleMaps'
        ? query.trim().length > 0
        : kind === 'sourceScrub'
          ? ssMode === 'search'
            ? query.trim().length > 0
            : chosen.length > 0
          : false;
  const canAdd = kind === 'agent' ? description.trim().length > 0 : canPreview;

  return (
    <Dialog
      open={props.open}
      onOpenChange={(_, d) => {
        if (!d.open) close();
      }}
    >
      <DialogSurface style={surface} aria-label={`Add ${sourceLabel(kind)} source`} data-testid="add-source-dialog">
        <DialogBody>
          <DialogTitle>{`Add a source: ${sourceLabel(kind)}`}</DialogTitle>
          <DialogContent className={styles.form}>
            {kind === 'ocean' && (
              <Field
                label="Seed domains"
                hint="Up to 10 domains of companies like the ones you want, separated by commas or spaces."
                required
              >
                <Textarea
                  value={domains}
                  onChange={(_, d) => setDomains(d.value)}
                  placeholder="acme.com, globex.com"
                  data-testid="source-domains"
                />
              </Field>
            )}
            {kind === 'googleMaps' && (
              <Field label="Search Google Maps" hint="What and where, as in Google Maps (at most 60 places)." required>
                <Input
                  value={query}
                  onChange={(_, d) => setQuery(d.value)}
                  placeholder="industrial bakeries in Aarhus"
                  data-testid="source-query"
                />
              </Field>
            )}
            {kind === 'agent' && (
              <Field
                label="Describe the companies to find"
                hint="The agent searches the web and proposes companies with the pages it found them on."
                required
              >
                <Textarea
                  value={description}
                  onChange={(_, d) => setDescription(d.value)}
                  placeholder="Family-owned industrial bakeries in Denmark with 50–500 employees"
                  data-testid="source-description"
                />
              </Field>
            )}
            {kind === 'sourceScrub' && (
              <>
                <RadioGroup
                  layout="horizontal"
                  value={ssMode}
                  onChange={(_, d) => {
                    setSsMode(d.value as 'search' | 'sources');
                    setPreview(null);
                  }}
                >
                  <Radio value="sources" label="Companies of Source Scrub sources" />
                  <Radio value="search" label="Company search" />
                </RadioGroup>
                <Field label={ssMode === 'sources' ? 'Find sources (conferences, lists…)' : 'Search companies'}>
                  <Input value={query} onChange={(_, d) => setQuery(d.value)} data-testid="source-query" />
                </Field>
                {ssMode === 'sources' && (
                  <Button size="small" disabled={busy} onClick={findSources} data-testid="source-find-sources">
                    Find sources
                  </Button>
                )}
                {ssMode === 'sources' && ssSources && (
                  <div className={styles.scroll} data-testid="source-scrub-sources">
                    {ssSources.length === 0 && <Text>No sources found.</Text>}
                    {ssSources.map((s) => (
                      <Checkbox
                        key={s.id}
                        checked={chosen.includes(s.id)}
                        label={`${s.title}${s.type ? ` · ${s.type}` : ''}${s.companyCount !== null ? ` · ${s.companyCount} companies` : ''}`}
                        onChange={(_, d) => setChosen((c) => (d.checked ? [...c, s.id] : c.filter((x) => x !== s.id)))}
                      />
                    ))}
                  </div>
                )}
              </>
            )}
            <Field label="Most companies to add">
              <SpinButton
                value={max}
                min={1}
                max={kind === 'googleMaps' ? 60 : kind === 'agent' ? 50 : 1000}
                onChange={(_, d) => {
                  const v = d.value ?? Number(d.displayValue);
                  if (Number.isFinite(v) && v) setMax(v);
                }}
                data-testid="source-max"
              />
            </Field>
            {error && (
              <Text role="alert" className={styles.error} data-testid="source-error">
                {error}
              </Text>
            )}
            {busy && <Spinner size="tiny" label="Asking the provider…" />}
            {preview && (
              <div data-testid="source-preview">
                <Text weight="semibold">{`Preview: ${preview.companies.length} of ${preview.total.toLocaleString('en-US')} companies`}</Text>
                {preview.note && (
                  <Text block size={200}>
                    {preview.note}
                  </Text>
                )}
                <div className={styles.scroll}>
                  <table className={styles.table}>
                    <thead>
                      <tr>
                        <th className={styles.cell}>Name</th>
                        <th className={styles.cell}>Website</th>
                      </tr>
                    </thead>
                    <tbody>
                      {preview.companies.map((c, i) => (
                        <tr key={`${c.domain ?? c.name}-${i}`} data-testid="source-preview-row">
                          <td className={styles.cell}>{c.name}</td>
                          <td className={styles.cell}>{c.website ?? '— no website (skipped)'}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </div>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>Cancel</Button>
            {kind !== 'agent' && (
              <Button disabled={busy || !canPreview} onClick={showPreview} data-testid="source-preview-button">
                Preview
              </Button>
            )}
            <Button appearance="primary" disabled={busy || !canAdd} onClick={add} data-testid="source-add">
              Add source
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
