// The score model editor (spec 002 §2 'Score model editor', §5 'Score model', 'Operators by field
// type', 'Weight distribution', §9): a large (4xl) modal with the name, the weight distribution bar,
// the '+ Add field' picker and one collapsible card per field. It validates with the domain rules the
// server uses and hands the model and the chosen run scope to its host (the list page), so the same
// editor serves the web app and the plugins.
import { useEffect, useMemo, useState } from 'react';
import {
  Button,
  Combobox,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarBody,
  Option,
  Select,
  Text,
  Tooltip,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import {
  RANGE_OPERATORS,
  SCORE_DEFAULTS,
  SCORE_MAX,
  SCORE_MIN,
  SCORE_OPERATORS_BY_TYPE,
  SCORE_OPERATOR_LABELS,
  SCORING_MESSAGES,
  WEIGHT_LEVELS,
  defaultScoreModelName,
  validateScoreModel,
  weightDistribution,
  weightLegend,
  type ScoreFieldData,
  type ScoreModelInput,
  type ScoreOperator,
  type ScoreRule,
  type ScoreRuleSet,
} from '../../domain/scoring';
import { ChevronDownRegular, ChevronRightRegular, DismissRegular } from '@fluentui/react-icons';
import { usePluginMode } from '../PluginMode';
import { useNotify } from '../toast';

/** 4xl = 56rem. */
export const SCORE_EDITOR_WIDTH = 896;
/** The rule rows' fixed columns (px); the value column takes the rest. */
export const RULE_COLUMNS = { operator: 200, scoreLabel: 40, score: 80, remove: 32 } as const;

export interface ScoreFieldOption extends ScoreFieldData {
  label: string;
  /** 'Mandatory fields' or the enrichment's name. */
  group: string;
}

export type ScoreRunScope = 'none' | 'first10' | 'first1' | 'all';

export interface ScoreModelEditorProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  listName: string;
  fields: readonly ScoreFieldOption[];
  /** The model being edited; absent for a new model. */
  model?: ScoreModelInput | null;
  /** Offer 'Save and run for all' (outside the menu of the spec's three choices). */
  allowRunAll?: boolean;
  onSave: (model: ScoreModelInput, run: ScoreRunScope) => Promise<void>;
}

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  bar: {
    display: 'flex',
    height: '12px',
    borderRadius: tokens.borderRadiusMedium,
    overflow: 'hidden',
    backgroundColor: tokens.colorNeutralBackground3,
  },
  legend: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap', alignItems: 'center' },
  dot: { display: 'inline-block', width: '10px', height: '10px', borderRadius: '50%', marginRight: '4px' },
  card: { border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium, padding: tokens.spacingVerticalS },
  cardHead: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  grow: { flexGrow: 1 },
  // Every rule row of every card on one grid (operator · value(s) · 'Score' · score · remove), whatever
  // the field's type: a text field's longer operator names do not move its row off the number rows'.
  rule: {
    display: 'grid',
    gridTemplateColumns: `${RULE_COLUMNS.operator}px minmax(0, 1fr) ${RULE_COLUMNS.scoreLabel}px ${RULE_COLUMNS.score}px ${RULE_COLUMNS.remove}px`,
    columnGap: tokens.spacingHorizontalS,
    alignItems: 'center',
    marginTop: tokens.spacingVerticalXS,
  },
  values: { display: 'flex', gap: tokens.spacingHorizontalS, minWidth: 0, '& > *': { flex: '1 1 0', minWidth: 0 } },
  // The card's last row on the same grid: '+ Add rule' under the operators, the default score under the scores.
  missing: { gridColumn: '2 / span 2', justifySelf: 'end', textAlign: 'end' },
  ruleFooter: { gridColumn: '4' },
  footer: { display: 'flex', justifyContent: 'flex-end', gap: tokens.spacingHorizontalS },
});

let seq = 0;
const newId = (p: string) => `${p}_${Date.now().toString(36)}_${(seq++).toString(36)}`;
const scores = Array.from({ length: SCORE_MAX - SCORE_MIN + 1 }, (_, i) => SCORE_MIN + i);

function newRule(ops: readonly ScoreOperator[], used: ScoreOperator[]): ScoreRule {
  const operator = ops.find((o) => !used.includes(o)) ?? ops[0]!;
  return { id: newId('rule'), operator, value: { primary: '', secondary: null }, score: SCORE_DEFAULTS.ruleScore };
}

type UpdateRuleSet = (id: string, fn: (rs: ScoreRuleSet) => ScoreRuleSet | null) => void;

/** The model being edited (name and rule sets), reset each time the editor opens, and its save with the chosen run scope. */
function useScoreModelForm(props: ScoreModelEditorProps) {
  const { open, onOpenChange, listName } = props;
  const notify = useNotify();
  const [name, setName] = useState('');
  const [ruleSets, setRuleSets] = useState<ScoreRuleSet[]>([]);
  const [collapsed, setCollapsed] = useState<Record<string, boolean>>({});
  const [query, setQuery] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setName(props.model?.name ?? defaultScoreModelName(listName));
    setRuleSets(props.model?.ruleSets ? structuredClone(props.model.ruleSets) : []);
    setCollapsed({});
    setQuery('');
    setError(null);
    setBusy(false);
  }, [open, props.model, listName]);

  const update: UpdateRuleSet = (id, fn) => {
    setError(null);
    setRuleSets((all) => all.flatMap((rs) => (rs.id === id ? (fn(rs) ?? []) : [rs])));
  };

  const addField = (f: ScoreFieldOption) => {
    const ops = SCORE_OPERATORS_BY_TYPE[f.fieldType] ?? [];
    if (ops.length === 0) {
      notify.error(SCORING_MESSAGES.noOperator);
      return;
    }
    setError(null);
    const { label, group: _group, ...fieldData } = f;
    setRuleSets((all) => [
      ...all,
      {
        id: newId('field'),
        label,
        weight: SCORE_DEFAULTS.weight,
        defaultScore: SCORE_DEFAULTS.defaultScore,
        fieldData,
        rules: [newRule(ops, [])],
      },
    ]);
    setQuery('');
  };

  const save = async (run: ScoreRunScope) => {
    if (busy) return;
    const model: ScoreModelInput = { name: name.trim(), description: props.model?.description ?? '', ruleSets };
    const problem = validateScoreModel(model);
    if (problem) {
      setError(problem);
      notify.error(problem);
      return;
    }
    setBusy(true);
    try {
      await props.onSave(model, run);
      onOpenChange(false);
    } catch (e) {
      const message = e instanceof Error && e.message ? e.message : SCORING_MESSAGES.getFailed;
      setError(message);
      notify.error(message);
    } finally {
      setBusy(false);
    }
  };
  return { name, setName, ruleSets, collapsed, setCollapsed, query, setQuery, error, setError, busy, update, addField, save };
}

export function ScoreModelEditor(props: ScoreModelEditorProps) {
  const { open, onOpenChange, fields } = props;
  const styles = useStyles();
  const pluginMode = usePluginMode();
  const form = useScoreModelForm(props);
  const { ruleSets, collapsed, error, busy } = form;

  return (
    <Dialog
      open={open}
      modalType="modal"
      onOpenChange={(_, d) => {
        if (!busy) onOpenChange(d.open);
      }}
    >
      <DialogSurface
        style={{ width: pluginMode ? '100%' : `${SCORE_EDITOR_WIDTH}px`, maxWidth: '100%', boxSizing: 'border-box' }}
        data-testid="score-model-editor"
        aria-label={SCORING_MESSAGES.editor.title}
      >
        <DialogBody>
          <DialogTitle>
            {props.model ? SCORING_MESSAGES.editor.editTitle : SCORING_MESSAGES.editor.title}
            <Text as="p" size={200} block>
              {SCORING_MESSAGES.editor.subtitle}
            </Text>
          </DialogTitle>
          <DialogContent className={styles.content}>
            <Field label="Name" required validationMessage={error === SCORING_MESSAGES.invalidName ? error : undefined}>
              <Input
                value={form.name}
                placeholder={SCORING_MESSAGES.editor.namePlaceholder}
                onChange={(_, d) => {
                  form.setName(d.value);
                  form.setError(null);
                }}
                data-testid="score-model-name"
              />
            </Field>

            <WeightDistribution ruleSets={ruleSets} />

            <AddFieldCombobox fields={fields} ruleSets={ruleSets} query={form.query} setQuery={form.setQuery} onAdd={form.addField} />

            {ruleSets.map((rs) => (
              <RuleSetCard
                key={rs.id}
                ruleSet={rs}
                collapsed={collapsed[rs.id] ?? false}
                onToggle={() => form.setCollapsed((c) => ({ ...c, [rs.id]: !(collapsed[rs.id] ?? false) }))}
                update={form.update}
              />
            ))}

            {error && error !== SCORING_MESSAGES.invalidName && (
              <MessageBar intent="error" data-testid="score-model-error">
                <MessageBarBody>{error}</MessageBarBody>
              </MessageBar>
            )}

            <SaveMenu
              busy={busy}
              allowRunAll={props.allowRunAll}
              onCancel={() => onOpenChange(false)}
              onSave={(run) => void form.save(run)}
            />
          </DialogContent>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** The weight distribution bar and its legend (the small shares under 'Others'). */
function WeightDistribution({ ruleSets }: { ruleSets: ScoreRuleSet[] }) {
  const styles = useStyles();
  const shares = useMemo(() => weightDistribution(ruleSets), [ruleSets]);
  const legend = weightLegend(shares);
  return (
    <div data-testid="weight-distribution">
      <div className={styles.bar} role="img" aria-label="Weight distribution">
        {shares.map((s) => (
          <div
            key={s.id}
            style={{ width: `${s.share}%`, backgroundColor: s.colour }}
            title={`${s.label} ${s.share}%`}
            data-testid="weight-segment"
          />
        ))}
      </div>
      <div className={styles.legend}>
        {shares.length === 0 && <Text size={200}>{SCORING_MESSAGES.editor.noFields}</Text>}
        {legend.named.map((s) => (
          <Text size={200} key={s.id} data-testid="weight-legend-item">
            <span className={styles.dot} style={{ backgroundColor: s.colour }} />
            {s.label} {s.share}%
          </Text>
        ))}
        {legend.others.length > 0 && (
          <Tooltip relationship="description" content={legend.others.map((s) => `${s.label} ${s.share}%`).join(', ')}>
            <Text size={200} underline data-testid="weight-legend-others">
              {SCORING_MESSAGES.editor.others}
            </Text>
          </Tooltip>
        )}
      </div>
    </div>
  );
}

/** '+ Add field': the fields not scored yet whose label matches what is typed. */
function AddFieldCombobox(props: {
  fields: readonly ScoreFieldOption[];
  ruleSets: ScoreRuleSet[];
  query: string;
  setQuery: (query: string) => void;
  onAdd: (field: ScoreFieldOption) => void;
}) {
  const { fields, ruleSets, query } = props;
  const matches = fields.filter(
    (f) => !ruleSets.some((rs) => rs.fieldData.id === f.id) && f.label.toLowerCase().includes(query.trim().toLowerCase()),
  );
  return (
    <Combobox
      placeholder={SCORING_MESSAGES.editor.addField}
      aria-label={SCORING_MESSAGES.editor.addField}
      value={query}
      onChange={(e) => props.setQuery((e.target as HTMLInputElement).value)}
      onOptionSelect={(_, d) => {
        const f = fields.find((x) => x.id === d.optionValue);
        if (f) props.onAdd(f);
      }}
      data-testid="score-add-field"
    >
      {matches.length === 0 ? (
        <Option key="none" value="" disabled text={SCORING_MESSAGES.editor.noFieldFound}>
          {SCORING_MESSAGES.editor.noFieldFound}
        </Option>
      ) : (
        matches.map((f) => <Option key={f.id} value={f.id} text={f.label}>{`${f.label} · ${f.group}`}</Option>)
      )}
    </Combobox>
  );
}

/** One field's card: its head (collapse, label, weight, Remove), its rules, '+ Add rule' and the default score. */
function RuleSetCard(props: { ruleSet: ScoreRuleSet; collapsed: boolean; onToggle: () => void; update: UpdateRuleSet }) {
  const { ruleSet: rs, collapsed: isCollapsed, update } = props;
  const styles = useStyles();
  const ops = SCORE_OPERATORS_BY_TYPE[rs.fieldData.fieldType] ?? [];
  const used = rs.rules.map((r) => r.operator);
  const setRule = (ruleId: string, fn: (r: ScoreRule) => ScoreRule) =>
    update(rs.id, (x) => ({ ...x, rules: x.rules.map((y) => (y.id === ruleId ? fn(y) : y)) }));
  return (
    <div className={styles.card} data-testid="score-field-card" aria-label={rs.label}>
      <div className={styles.cardHead}>
        <Button
          appearance="subtle"
          size="small"
          icon={isCollapsed ? <ChevronRightRegular /> : <ChevronDownRegular />}
          aria-expanded={!isCollapsed}
          aria-label={`${isCollapsed ? 'Expand' : 'Collapse'} ${rs.label}`}
          onClick={props.onToggle}
          data-testid="score-field-toggle"
        />
        <Text weight="semibold" className={styles.grow}>
          {rs.label}
        </Text>
        <Field label="Weight" orientation="horizontal">
          <Select
            value={String(rs.weight)}
            onChange={(_, d) => update(rs.id, (x) => ({ ...x, weight: Number(d.value) }))}
            data-testid="score-field-weight"
          >
            {WEIGHT_LEVELS.map((w) => (
              <option key={w.value} value={w.value}>{`${w.label} (${w.value})`}</option>
            ))}
          </Select>
        </Field>
        <Button appearance="subtle" size="small" onClick={() => update(rs.id, () => null)} aria-label={`Remove ${rs.label}`}>
          Remove
        </Button>
      </div>
      {!isCollapsed && (
        <>
          {rs.rules.map((r) => (
            <RuleRow
              key={r.id}
              rule={r}
              ops={ops}
              used={used}
              setRule={(fn) => setRule(r.id, fn)}
              onRemove={() => removeRule(update, rs.id, r.id)}
            />
          ))}
          <RuleSetFooter ruleSet={rs} ops={ops} used={used} update={update} />
        </>
      )}
    </div>
  );
}

/** Removing the last rule of a field removes the field (spec 002 §5). */
function removeRule(update: UpdateRuleSet, ruleSetId: string, ruleId: string) {
  update(ruleSetId, (x) => {
    const rules = x.rules.filter((y) => y.id !== ruleId);
    return rules.length === 0 ? null : { ...x, rules };
  });
}

/** A rule: operator · value(s) · 'Score' · score · remove. */
function RuleRow(props: {
  rule: ScoreRule;
  ops: readonly ScoreOperator[];
  used: ScoreOperator[];
  setRule: (fn: (r: ScoreRule) => ScoreRule) => void;
  onRemove: () => void;
}) {
  const { rule: r, setRule } = props;
  const styles = useStyles();
  return (
    <div className={styles.rule} data-testid="score-rule">
      <Select aria-label="Operator" value={r.operator} onChange={(_, d) => setRule((y) => ({ ...y, operator: d.value as ScoreOperator }))}>
        {props.ops
          .filter((o) => o === r.operator || !props.used.includes(o))
          .map((o) => (
            <option key={o} value={o}>
              {SCORE_OPERATOR_LABELS[o]}
            </option>
          ))}
      </Select>
      <div className={styles.values}>
        <Input
          aria-label="Value"
          value={r.value.primary}
          onChange={(_, d) => setRule((y) => ({ ...y, value: { ...y.value, primary: d.value } }))}
        />
        {RANGE_OPERATORS.includes(r.operator) && (
          <Input
            aria-label="Second value"
            value={r.value.secondary ?? ''}
            onChange={(_, d) => setRule((y) => ({ ...y, value: { ...y.value, secondary: d.value } }))}
          />
        )}
      </div>
      <Text size={200}>Score</Text>
      <Select aria-label="Score" value={String(r.score)} onChange={(_, d) => setRule((y) => ({ ...y, score: Number(d.value) }))}>
        <ScoreOptions />
      </Select>
      <Button appearance="subtle" size="small" icon={<DismissRegular />} aria-label="Remove rule" onClick={props.onRemove} />
    </div>
  );
}

function ScoreOptions() {
  return (
    <>
      {scores.map((s) => (
        <option key={s} value={s}>
          {s}
        </option>
      ))}
    </>
  );
}

/** The card's last row on the rules' grid: '+ Add rule' under the operators, the default score under the scores. */
function RuleSetFooter(props: { ruleSet: ScoreRuleSet; ops: readonly ScoreOperator[]; used: ScoreOperator[]; update: UpdateRuleSet }) {
  const { ruleSet: rs, ops, update } = props;
  const styles = useStyles();
  return (
    <div className={styles.rule} data-testid="score-rule-footer">
      <Button
        size="small"
        style={{ justifySelf: 'start' }}
        disabled={props.used.length >= ops.length}
        onClick={() =>
          update(rs.id, (x) => ({
            ...x,
            rules: [
              ...x.rules,
              newRule(
                ops,
                x.rules.map((y) => y.operator),
              ),
            ],
          }))
        }
      >
        + Add rule
      </Button>
      <Text size={200} className={styles.missing}>
        {SCORING_MESSAGES.editor.missing}
      </Text>
      <Select
        className={styles.ruleFooter}
        aria-label="Default score"
        value={String(rs.defaultScore)}
        onChange={(_, d) => update(rs.id, (x) => ({ ...x, defaultScore: Number(d.value) }))}
      >
        <ScoreOptions />
      </Select>
    </div>
  );
}

/** Cancel, and Save with its run choices. */
function SaveMenu(props: { busy: boolean; allowRunAll: boolean | undefined; onCancel: () => void; onSave: (run: ScoreRunScope) => void }) {
  const { busy, onSave } = props;
  const styles = useStyles();
  return (
    <div className={styles.footer}>
      <Button onClick={props.onCancel} disabled={busy}>
        Cancel
      </Button>
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Button appearance="primary" disabled={busy} data-testid="score-model-save">
            {SCORING_MESSAGES.editor.save}
          </Button>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            <MenuItem onClick={() => onSave('none')}>{SCORING_MESSAGES.editor.saveNoRun}</MenuItem>
            <MenuItem onClick={() => onSave('first10')}>{SCORING_MESSAGES.editor.saveRun10}</MenuItem>
            <MenuItem onClick={() => onSave('first1')}>{SCORING_MESSAGES.editor.saveRun1}</MenuItem>
            {props.allowRunAll && <MenuItem onClick={() => onSave('all')}>{SCORING_MESSAGES.editor.saveRunAll}</MenuItem>}
          </MenuList>
        </MenuPopover>
      </Menu>
    </div>
  );
}
