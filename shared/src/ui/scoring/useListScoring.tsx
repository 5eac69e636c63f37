// Scoring on a list's ideas table (spec 002 §2 'Score model editor', §4 'Other executions', §5 'Run
// scope', §8 'Scoring'): the 'Score' menu (new model, edit, run on all), one score column per model
// whose cell opens the breakdown, runs with the spec's scopes and toasts, and the ideas reloaded when
// a score execution completes. A hook so the list page keeps its own layout (web and plugins alike).
import { useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Menu,
  MenuDivider,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Spinner,
} from '@fluentui/react-components';
import { DataBarVerticalRegular } from '@fluentui/react-icons';
import type { EnrichmentDto, IdeaDto, IdeaFilters, ScoreModelDto } from '../../contracts';
import { realtimePaths, SCORING_MESSAGES, type FieldScore, type ScoreFieldType, type ScoreModelInput } from '../../domain';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { useRealtimeEvents } from '../realtime';
import { usePluginMode } from '../PluginMode';
import type { RecordColumn } from '../table/RecordTable';
import { ScoreModelEditor, type ScoreFieldOption, type ScoreRunScope } from './ScoreModelEditor';
import { ScoreBreakdown } from './ScoreBreakdown';

export const scoringKeys = { models: (listId: string) => ['scoring', listId] as const };

function guessType(values: unknown[]): ScoreFieldType {
  const present = values.filter((v) => v !== null && v !== undefined && v !== '');
  if (present.length === 0) return 'string';
  if (present.every((v) => Array.isArray(v))) return 'array';
  if (present.every((v) => typeof v === 'boolean')) return 'boolean';
  if (present.every((v) => typeof v === 'number' || (typeof v === 'string' && /^[-+]?\d+(\.\d+)?$/.test(v.trim())))) return 'double';
  return 'string';
}

const SCHEMA_TYPE: Record<string, ScoreFieldType> = {
  number: 'double',
  boolean: 'boolean',
  array: 'array',
  categories: 'array',
  string: 'string',
};

/** What a model can score on this list: the idea's own fields, its source row's columns, and enrichment results by path. */
export function scoreFieldOptions(
  rows: readonly IdeaDto[],
  dataKeys: readonly string[],
  enrichments: readonly EnrichmentDto[],
): ScoreFieldOption[] {
  const mandatory = 'Mandatory fields';
  const out: ScoreFieldOption[] = [
    { id: 'name', label: 'Name', group: mandatory, sourceType: 'mandatory', fieldType: 'string', fieldPath: 'name' },
    { id: 'website', label: 'Website', group: mandatory, sourceType: 'mandatory', fieldType: 'url', fieldPath: 'website' },
    { id: 'domain', label: 'Domain', group: mandatory, sourceType: 'mandatory', fieldType: 'string', fieldPath: 'domain' },
    { id: 'shortListed', label: 'Shortlisted', group: mandatory, sourceType: 'mandatory', fieldType: 'boolean', fieldPath: 'shortListed' },
    ...dataKeys.map((k) => ({
      id: `data.${k}`,
      label: k,
      group: 'Source columns',
      sourceType: 'mandatory' as const,
      fieldType: guessType(rows.map((r) => r.data?.[k])),
      fieldPath: `data.${k}`,
    })),
  ];
  for (const e of enrichments) {
    for (const item of e.data.schema ?? []) {
      out.push({
        id: `${e.id}:${item.name}`,
        label: `${e.name} · ${item.name}`,
        group: e.name,
        sourceType: 'enrichment',
        fieldType: SCHEMA_TYPE[item.type] ?? 'string',
        fieldPath: `$.result.${item.name}`,
        enrichmentId: e.id,
      });
    }
  }
  return out;
}

export interface ListScoringOptions {
  listId: string;
  listName: string;
  /** The ideas of the current page, in table order ('first 10 row' = the first ten of them). */
  rows: readonly IdeaDto[];
  dataKeys: readonly string[];
  enrichments: readonly EnrichmentDto[];
  /** The table's filters: what 'run on all' covers. */
  filters: IdeaFilters;
  onReload: () => Promise<void>;
}

export function useListScoring(o: ListScoringOptions): { columns: RecordColumn<IdeaDto>[]; toolbar: ReactNode; dialogs: ReactNode } {
  const api = useApi();
  const qc = useQueryClient();
  const notify = useNotify();
  const pluginMode = usePluginMode();
  const models = useQuery({
    queryKey: scoringKeys.models(o.listId),
    queryFn: async () => (await api.scoring.list(o.listId)).scoringModels,
  });
  const [editor, setEditor] = useState<{ open: boolean; model: ScoreModelDto | null }>({ open: false, model: null });
  const [breakdown, setBreakdown] = useState<{ idea: IdeaDto; model: ScoreModelDto } | null>(null);
  /** Models with a run going: their cells show a spinner until the run's completion reloads the ideas. */
  const [running, setRunning] = useState<Map<string, string>>(new Map());

  useRealtimeEvents(
    ({ oid }) => realtimePaths.executions(oid, 'score'),
    (e) => {
      const x = e.data as { id?: string; typeId?: string | null; status?: string };
      if (!x?.typeId || !(models.data ?? []).some((m) => m.id === x.typeId)) return;
      if (x.status === 'completed' || x.status === 'error' || x.status === 'cancelled') {
        setRunning((r) => {
          const n = new Map(r);
          n.delete(x.typeId!);
          return n;
        });
        if (x.status === 'error') notify.error(SCORING_MESSAGES.startFailed);
        void o.onReload();
      }
    },
  );

  const fields = useMemo(() => scoreFieldOptions(o.rows, o.dataKeys, o.enrichments), [o.rows, o.dataKeys, o.enrichments]);

  const run = async (model: ScoreModelDto, scope: ScoreRunScope) => {
    if (scope === 'none') return;
    const ids = scope === 'first10' ? o.rows.slice(0, 10).map((r) => r.id) : scope === 'first1' ? o.rows.slice(0, 1).map((r) => r.id) : [];
    if (scope !== 'all' && ids.length === 0) {
      notify.error(scope === 'first1' ? SCORING_MESSAGES.noIdeas : SCORING_MESSAGES.noIdeasOn);
      return;
    }
    try {
      const res = await api.scoring.execute(
        scope === 'all'
          ? { scoringModelId: model.id, entityType: 'idea', options: { runAll: true }, ideasFilter: o.filters }
          : { scoringModelId: model.id, entityType: 'idea', entityIds: ids },
      );
      setRunning((r) => new Map(r).set(model.id, res.executionId));
      notify.success(res.message);
    } catch (e) {
      notify.error(e instanceof Error && e.message ? e.message : SCORING_MESSAGES.startFailed);
    }
  };

  const save = async (input: ScoreModelInput, scope: ScoreRunScope) => {
    const saved = editor.model
      ? await api.scoring.update(editor.model.id, { name: input.name, description: input.description ?? '', ruleSets: input.ruleSets })
      : await api.scoring.create({
          name: input.name,
          description: input.description ?? '',
          ruleSets: input.ruleSets,
          listCompanyId: o.listId,
        });
    notify.success(saved.message ?? (editor.model ? SCORING_MESSAGES.updated : SCORING_MESSAGES.created));
    await qc.invalidateQueries({ queryKey: scoringKeys.models(o.listId) });
    await run(saved.scoringModel, scope);
  };

  const columns: RecordColumn<IdeaDto>[] = (models.data ?? []).map((m) => ({
    key: `score.${m.id}`,
    label: m.name,
    // The header sorts the ideas by this model's total (server sort key score:<model id>; unscored last).
    sortKey: `score:${m.id}`,
    kind: 'score' as const,
    text: (r: IdeaDto) => {
      const s = r.scoringResults.find((x) => x.scoringModelId === m.id);
      return s?.totalScore === null || s?.totalScore === undefined ? '' : s.totalScore.toFixed(2);
    },
    render: (r: IdeaDto) => {
      const s = r.scoringResults.find((x) => x.scoringModelId === m.id);
      if (running.has(m.id) && !s) return <Spinner size="extra-tiny" aria-label="Scoring" />;
      if (s?.totalScore === null || s?.totalScore === undefined) return null;
      return (
        <Button
          appearance="transparent"
          size="small"
          data-testid={`score-cell-${r.id}`}
          aria-label={`${m.name} ${s.totalScore.toFixed(2)}: show why`}
          onClick={(e) => {
            e.stopPropagation();
            setBreakdown({ idea: r, model: m });
          }}
        >
          {s.totalScore.toFixed(2)}
        </Button>
      );
    },
  }));

  const toolbar = (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button size="small" appearance="subtle" icon={<DataBarVerticalRegular />} data-testid="score-menu">
          Score
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem onClick={() => setEditor({ open: true, model: null })} data-testid="score-new">
            New Score model
          </MenuItem>
          {(models.data ?? []).length > 0 && <MenuDivider />}
          {(models.data ?? []).map((m) => (
            <MenuItem key={`edit-${m.id}`} onClick={() => setEditor({ open: true, model: m })}>{`Edit ${m.name}`}</MenuItem>
          ))}
          {(models.data ?? []).map((m) => (
            <Menu key={`run-${m.id}`}>
              <MenuTrigger disableButtonEnhancement>
                <MenuItem data-testid={`score-run-${m.id}`}>{`Run ${m.name}`}</MenuItem>
              </MenuTrigger>
              <MenuPopover>
                <MenuList>
                  <MenuItem onClick={() => void run(m, 'first10')}>{SCORING_MESSAGES.runMenu.first10}</MenuItem>
                  <MenuItem onClick={() => void run(m, 'first1')}>{SCORING_MESSAGES.runMenu.first1}</MenuItem>
                  <MenuItem onClick={() => void run(m, 'all')}>{SCORING_MESSAGES.runMenu.all}</MenuItem>
                </MenuList>
              </MenuPopover>
            </Menu>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );

  const result = breakdown?.idea.scoringResults.find((x) => x.scoringModelId === breakdown.model.id);
  const dialogs = (
    <>
      <ScoreModelEditor
        open={editor.open}
        onOpenChange={(open) => setEditor((e) => ({ ...e, open }))}
        listName={o.listName}
        fields={fields}
        model={editor.model}
        allowRunAll
        onSave={save}
      />
      <Dialog
        open={!!breakdown}
        onOpenChange={(_, d) => {
          if (!d.open) setBreakdown(null);
        }}
      >
        <DialogSurface style={{ width: pluginMode ? '100%' : '880px', maxWidth: '100%' }} data-testid="score-breakdown-dialog">
          <DialogBody>
            <DialogTitle
              action={
                <Button appearance="subtle" onClick={() => setBreakdown(null)}>
                  Close
                </Button>
              }
            >
              {breakdown ? `Why ${breakdown.idea.name} scored ${result?.totalScore?.toFixed(2) ?? '–'}` : ''}
            </DialogTitle>
            <DialogContent>
              {breakdown && result && (
                <ScoreBreakdown
                  totalScore={result.totalScore ?? 0}
                  fields={(result.details as FieldScore[]) ?? []}
                  ruleSets={breakdown.model.ruleSets}
                  modelName={breakdown.model.name}
                />
              )}
            </DialogContent>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
  return { columns, toolbar, dialogs };
}
