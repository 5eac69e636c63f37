// The enrichment type selector (spec 001 §2 'Enrichment type selector modal'): tabs Company and
// Contact, each offering LLM Prompt and AI Research Agent; Deep Research Agent and LinkedIn are
// offered below them. Picking one opens its editor (LLM Prompt, AI Agent, Deep Research Agent) or
// the LinkedIn modal (a name only, sent as enrichmentName). Modals are full width under a plugin.
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Spinner,
  Tab,
  TabList,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { BotSparkleRegular, GlobeSearchRegular, PeopleCommunityRegular, TextBulletListSquareSparkleRegular } from '@fluentui/react-icons';
import type { EnrichmentConfigDto, EnrichmentDto } from '../../contracts';
import { linkedinFormErrors, type EnrichmentType } from '../../domain';
import { useApi } from '../ApiContext';
import { useModalSurfaceStyle } from '../PluginMode';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';
import { EnrichmentEditor } from './EnrichmentEditor';
import { enrichmentKeys } from './keys';

type Entity = 'company' | 'contact';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  options: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  option: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    width: '100%',
    textAlign: 'left',
    cursor: 'pointer',
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    font: 'inherit',
    color: 'inherit',
    ':hover': {
      backgroundColor: tokens.colorNeutralBackground1Hover,
      borderTopColor: tokens.colorBrandStroke1,
      borderBottomColor: tokens.colorBrandStroke1,
      borderLeftColor: tokens.colorBrandStroke1,
      borderRightColor: tokens.colorBrandStroke1,
    },
  },
  icon: { fontSize: '24px', color: tokens.colorBrandForeground1, flexShrink: 0 },
  texts: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  title: { fontWeight: tokens.fontWeightSemibold },
  desc: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  more: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200, marginTop: tokens.spacingVerticalXS },
});

const MAIN: { type: EnrichmentType; title: string; desc: string }[] = [
  { type: 'llm', title: 'LLM Prompt', desc: 'Ask a language model, with the record’s fields in the prompt.' },
  { type: 'agent', title: 'AI Research Agent', desc: 'An agent that searches and reads the web to answer.' },
];
const MORE: { type: EnrichmentType; title: string; desc: string }[] = [
  { type: 'deepresearchagent', title: 'Deep Research Agent', desc: 'Longer research over many sources.' },
  { type: 'mixrankCompanyDetails', title: 'LinkedIn', desc: 'Company details: size, industry, country, founded, followers.' },
];
const ICONS: Record<EnrichmentType, typeof BotSparkleRegular> = {
  llm: TextBulletListSquareSparkleRegular,
  agent: BotSparkleRegular,
  deepresearchagent: GlobeSearchRegular,
  mixrankCompanyDetails: PeopleCommunityRegular,
};

export function useEnrichmentConfigs() {
  const api = useApi();
  return useQuery({
    queryKey: enrichmentKeys.configs,
    queryFn: async () => (await api.enrichments.configs()).configs,
    staleTime: 5 * 60_000,
  });
}

export function EnrichmentTypeSelector({
  open,
  onOpenChange,
  initialEntity = 'company',
  entities = ['company', 'contact'],
  onPick,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initialEntity?: Entity;
  /** The tabs offered (the Enrich popover of a table offers its own entity only). */
  entities?: readonly Entity[];
  onPick: (config: EnrichmentConfigDto, entityType: Entity) => void;
}) {
  const styles = useStyles();
  const surfaceStyle = useModalSurfaceStyle();
  const [tab, setTab] = useState<Entity>(initialEntity);
  useEffect(() => {
    if (open) setTab(initialEntity);
  }, [open, initialEntity]);
  const configs = useEnrichmentConfigs();
  const configOf = (type: EnrichmentType) => (configs.data ?? []).find((c) => c.entityType === tab && c.enrichmentType === type);

  const option = (o: { type: EnrichmentType; title: string; desc: string }) => {
    const config = configOf(o.type);
    if (!config) return null;
    const Icon = ICONS[o.type];
    return (
      <button
        key={o.type}
        type="button"
        className={styles.option}
        onClick={() => onPick(config, tab)}
        data-testid="enrichment-type-option"
        data-type={o.type}
      >
        <Icon className={styles.icon} aria-hidden />
        <span className={styles.texts}>
          <span className={styles.title}>{o.title}</span>
          <span className={styles.desc}>{o.desc}</span>
        </span>
      </button>
    );
  };
  const more = MORE.map(option).filter(Boolean);

  return (
    <Dialog open={open} modalType="modal" onOpenChange={(_, d) => onOpenChange(d.open)}>
      <DialogSurface style={surfaceStyle} data-testid="enrichment-type-selector" aria-label="New Enrichment">
        <DialogBody>
          <DialogTitle>New Enrichment</DialogTitle>
          <DialogContent className={styles.content}>
            {entities.length > 1 && (
              <TabList selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as Entity)} size="small">
                {entities.map((e) => (
                  <Tab key={e} value={e} data-testid={`enrichment-tab-${e}`}>
                    {e === 'company' ? 'Company' : 'Contact'}
                  </Tab>
                ))}
              </TabList>
            )}
            {configs.isPending ? (
              <Spinner size="small" label="Loading..." />
            ) : configs.isError ? (
              <MessageBar intent="error">
                <MessageBarBody>Could not load the enrichment types.</MessageBarBody>
              </MessageBar>
            ) : (
              <div className={styles.options}>
                {MAIN.map(option)}
                {more.length > 0 && <Text className={styles.more}>More</Text>}
                {more}
              </div>
            )}
          </DialogContent>
          <DialogActions fluid style={{ justifyContent: 'flex-end', marginTop: 8 }}>
            <Button appearance="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** The LinkedIn modal: a name only (enrichmentName). */
export function LinkedinEnrichmentModal({
  open,
  onOpenChange,
  config,
  entityType,
  enrichment,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  config: EnrichmentConfigDto;
  entityType: Entity;
  enrichment?: EnrichmentDto | null;
  onSaved?: (e: EnrichmentDto) => void;
}) {
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const surfaceStyle = useModalSurfaceStyle();
  const [enrichmentName, setName] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setSubmitted(false);
    setError(null);
    if (enrichment) {
      setName(enrichment.name);
      return;
    }
    setName('');
    let live = true;
    api.enrichments
      .nextName(config.id)
      .then((r) => {
        if (live) setName((n) => n || r.name);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [open, enrichment, api, config.id]);
  const errors = linkedinFormErrors({ enrichmentName });

  const save = async () => {
    setSubmitted(true);
    if (errors.enrichmentName) return;
    setBusy(true);
    setError(null);
    try {
      const body = { configId: config.id, entityType, enrichmentName: enrichmentName.trim() };
      const res = enrichment ? await api.enrichments.update({ ...body, id: enrichment.id }) : await api.enrichments.create(body);
      notify.success(res.message);
      await queryClient.invalidateQueries({ queryKey: enrichmentKeys.all });
      onSaved?.(res.enrichment);
      onOpenChange(false);
    } catch (e) {
      setError(serverMessage(e) ?? 'Could not save the enrichment.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      modalType="modal"
      onOpenChange={(_, d) => {
        if (!busy) onOpenChange(d.open);
      }}
    >
      <DialogSurface style={surfaceStyle} data-testid="linkedin-enrichment-modal" aria-label="LinkedIn">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <DialogBody>
            <DialogTitle>{enrichment ? 'Edit LinkedIn enrichment' : 'New LinkedIn enrichment'}</DialogTitle>
            <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
              <Field label="Enrichment Name *" validationMessage={submitted ? errors.enrichmentName : undefined}>
                <Input
                  value={enrichmentName}
                  onChange={(_, d) => setName(d.value)}
                  maxLength={200}
                  data-testid="linkedin-enrichment-name"
                />
              </Field>
              {error && (
                <MessageBar intent="error">
                  <MessageBarBody>{error}</MessageBarBody>
                </MessageBar>
              )}
            </DialogContent>
            <DialogActions fluid style={{ justifyContent: 'flex-end', marginTop: 8 }}>
              <Button appearance="secondary" disabled={busy} onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button
                appearance="primary"
                type="submit"
                disabled={busy}
                icon={busy ? <Spinner aria-hidden size="tiny" /> : undefined}
                data-testid="linkedin-enrichment-save"
              >
                {enrichment ? 'Save' : 'Create'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}

/**
 * Type selector → editor (or LinkedIn modal), as one piece: the enrichment table's New button and
 * the Enrich popover's button open it.
 */
export function NewEnrichmentFlow({
  open,
  onOpenChange,
  initialEntity,
  entities,
  initialFieldId,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initialEntity?: Entity;
  entities?: readonly Entity[];
  initialFieldId?: string | null;
  onSaved?: (e: EnrichmentDto) => void;
}) {
  const [picked, setPicked] = useState<{ config: EnrichmentConfigDto; entityType: Entity } | null>(null);
  return (
    <>
      <EnrichmentTypeSelector
        open={open && !picked}
        onOpenChange={(o) => {
          if (!o) onOpenChange(false);
        }}
        initialEntity={initialEntity}
        entities={entities}
        onPick={(config, entityType) => setPicked({ config, entityType })}
      />
      {picked &&
        (picked.config.hasPrompt ? (
          <EnrichmentEditor
            open={open}
            onOpenChange={(o) => {
              if (!o) {
                setPicked(null);
                onOpenChange(false);
              }
            }}
            config={picked.config}
            entityType={picked.entityType}
            initialFieldId={picked.entityType === initialEntity ? initialFieldId : null}
            onSaved={onSaved}
          />
        ) : (
          <LinkedinEnrichmentModal
            open={open}
            onOpenChange={(o) => {
              if (!o) {
                setPicked(null);
                onOpenChange(false);
              }
            }}
            config={picked.config}
            entityType={picked.entityType}
            onSaved={onSaved}
          />
        ))}
    </>
  );
}

/** Opens the right editor for an existing enrichment. */
export function EditEnrichment({ enrichment, onClose }: { enrichment: EnrichmentDto | null; onClose: () => void }) {
  const configs = useEnrichmentConfigs();
  if (!enrichment) return null;
  const config = (configs.data ?? []).find((c) => c.id === enrichment.configId);
  if (!config) return null;
  const entityType = enrichment.entityType === 'contact' ? 'contact' : 'company';
  return config.hasPrompt ? (
    <EnrichmentEditor
      open
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      config={config}
      entityType={entityType}
      enrichment={enrichment}
    />
  ) : (
    <LinkedinEnrichmentModal
      open
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      config={config}
      entityType={entityType}
      enrichment={enrichment}
    />
  );
}
