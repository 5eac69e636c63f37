// Run Play popover (spec 001 §2 'Run Play popover', spec 000 §2 'Mini drawer' Run Play, §5, §7 'How
// answers are handled'): search plays ('Search Plays', case-insensitive on the name), each with its
// description or 'Created By' and its creator, a list at most 300 px high, a button to create a new
// play, and what the run will take before it starts (model calls, AI credits, expected time).
// Host-neutral: the new-play action is a callback (the web opens /playbooks/new; a plugin its own way).
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  SearchBox,
  Spinner,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, PlayRegular } from '@fluentui/react-icons';
import type { PlayDto, PlaySkippedTarget } from '../../contracts';
import { PLAY_MESSAGES, playExecutionToast } from '../../domain';
import { useApi } from '../ApiContext';
import { useOptionalDrawer } from '../DrawerContext';
import { useNotify } from '../toast';
import { SkippedTargets } from './SkippedTargets';

const useStyles = makeStyles({
  surface: { width: '340px', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  list: { maxHeight: '300px', overflowY: 'auto', display: 'flex', flexDirection: 'column' },
  item: {
    textAlign: 'left',
    border: 'none',
    background: 'none',
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    cursor: 'pointer',
    borderRadius: tokens.borderRadiusMedium,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  picked: { backgroundColor: tokens.colorBrandBackground2 },
  sub: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200, display: 'block' },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, justifyContent: 'space-between', alignItems: 'center' },
  estimate: { fontSize: tokens.fontSizeBase200, color: tokens.colorNeutralForeground3 },
  warn: { color: tokens.colorPaletteRedForeground1 },
});

export function playSubtitle(p: Pick<PlayDto, 'description' | 'createdBy' | 'isProvidedByProduct'>): string {
  if (p.description) return p.description;
  const by = p.isProvidedByProduct ? 'Dealscout' : p.createdBy ? `${p.createdBy.firstName} ${p.createdBy.lastName}`.trim() : '';
  return `Created By ${by}`.trim();
}

export function filterPlays<T extends { name: string }>(plays: readonly T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  return q ? plays.filter((p) => p.name.toLowerCase().includes(q)) : [...plays];
}

export interface RunPlayListProps {
  entityType: 'company' | 'contact';
  /** The selected rows (null or empty: nothing selected). */
  targetIds: readonly string[] | null;
  onNewPlay?: () => void;
  /** The executions started, and their run when there are several (its id, for its progress line). */
  onStarted?: (executionIds: string[], runId: string | null) => void;
  /** Shown when there is no published play at all. */
  emptyText?: string;
}

/** The list and Run button: the popover's content, and the mini drawer's Run Play tab. */
export function RunPlayList({ entityType, targetIds, onNewPlay, onStarted, emptyText }: RunPlayListProps) {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const drawer = useOptionalDrawer();
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<PlayDto | null>(null);
  const [running, setRunning] = useState(false);
  const plays = useQuery({ queryKey: ['plays', 'published'], queryFn: async () => (await api.plays.published()).plays, staleTime: 30_000 });
  const shown = useMemo(() => filterPlays(plays.data ?? [], query), [plays.data, query]);
  const count = targetIds?.length ?? 0;
  const estimate = useQuery({
    queryKey: ['plays', 'estimate', picked?.id, count],
    queryFn: () => api.plays.estimate({ playId: picked!.id, count }),
    enabled: !!picked && count > 0,
  });
  const run = async () => {
    if (!picked || !targetIds || targetIds.length === 0) {
      notify.error(PLAY_MESSAGES.invalidSelection);
      return;
    }
    setRunning(true);
    try {
      const res = await api.plays.execute({ playId: picked.id, targetIds: [...targetIds], entityType });
      const toast = playExecutionToast(res.items, res.missing);
      // The spec's message, then who was skipped and what they lack, each with its fix: kept until dismissed.
      const skipped = res.skipped ?? [];
      if (skipped.length > 0) {
        const onFix = drawer
          ? (t: PlaySkippedTarget) => drawer.open({ entityType: t.fix.entityType, id: t.fix.id, edit: t.fix.action === 'edit' })
          : undefined;
        notify[toast.intent](toast.message, 0, {
          kind: 'play-run',
          body: <SkippedTargets skipped={skipped} total={res.missing} onFix={onFix} />,
        });
      } else notify[toast.intent](toast.message, undefined, { kind: 'play-run' });
      onStarted?.(
        res.items.filter((i) => i.playExecutionId).map((i) => i.playExecutionId!),
        res.runId ?? null,
      );
    } catch {
      notify.error(PLAY_MESSAGES.failed);
    } finally {
      setRunning(false);
    }
  };
  return (
    <div className={styles.surface} data-testid="run-play">
      <SearchBox placeholder="Search Plays" value={query} onChange={(_, d) => setQuery(d.value)} data-testid="run-play-search" />
      <div className={styles.list} role="listbox" aria-label="Plays">
        {plays.isPending && <Spinner aria-label="Loading" size="tiny" />}
        {shown.map((p) => (
          <button
            type="button"
            key={p.id}
            role="option"
            aria-selected={picked?.id === p.id}
            className={mergeClasses(styles.item, picked?.id === p.id && styles.picked)}
            onClick={() => setPicked(p)}
            data-testid="run-play-option"
          >
            <Text weight="semibold">{p.name}</Text>
            <span className={styles.sub}>{playSubtitle(p)}</span>
          </button>
        ))}
        {!plays.isPending && shown.length === 0 && (
          <Text size={200} data-testid="run-play-empty">
            {(plays.data ?? []).length === 0 && emptyText ? emptyText : 'No plays found.'}
          </Text>
        )}
      </div>
      {picked && count > 0 && estimate.data && (
        <Text className={mergeClasses(styles.estimate, estimate.data.exceedsCredits && styles.warn)} data-testid="run-play-estimate">
          {`${count} ${entityType === 'company' ? 'companies' : 'contacts'}: ${estimate.data.message}`}
          {estimate.data.creditsRemaining !== null ? ` ${estimate.data.creditsRemaining} AI credits remaining.` : ''}
        </Text>
      )}
      <div className={styles.row}>
        {onNewPlay ? (
          <Button size="small" appearance="subtle" icon={<AddRegular />} onClick={onNewPlay} data-testid="run-play-new">
            New Play
          </Button>
        ) : (
          <span />
        )}
        <Button
          size="small"
          appearance="primary"
          icon={<PlayRegular />}
          disabled={running}
          onClick={() => void run()}
          data-testid="run-play-run"
        >
          Run Play
        </Button>
      </div>
    </div>
  );
}

export function RunPlayPopover(props: RunPlayListProps) {
  const [open, setOpen] = useState(false);
  return (
    <Popover open={open} onOpenChange={(_, d) => setOpen(d.open)} positioning="below-end" trapFocus>
      <PopoverTrigger disableButtonEnhancement>
        <Button size="small" icon={<PlayRegular />} data-testid="run-play-button">
          Run Play
        </Button>
      </PopoverTrigger>
      <PopoverSurface>
        <RunPlayList
          {...props}
          onStarted={(ids, runId) => {
            setOpen(false);
            props.onStarted?.(ids, runId);
          }}
          onNewPlay={
            props.onNewPlay
              ? () => {
                  setOpen(false);
                  props.onNewPlay!();
                }
              : undefined
          }
        />
      </PopoverSurface>
    </Popover>
  );
}
