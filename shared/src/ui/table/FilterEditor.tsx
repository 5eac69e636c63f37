// The filter editor of spec 001 §2 'Table filters' and §5 'Filters': pick conditions for one field,
// at most 5 (none added for uuid and number filters), the last condition cannot be removed,
// Save needs every value (between needs both ends), numbers are non-negative and numeric inputs
// refuse e, E, + and -. The same rules (`filterProblem`) run on the server.
import { useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import {
  Button,
  Checkbox,
  Input,
  MessageBar,
  MessageBarBody,
  Select,
  Text,
  Tooltip,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, DeleteRegular } from '@fluentui/react-icons';
import { usePluginMode } from '../PluginMode';
import {
  CONDITION_LABELS,
  FILTER_MESSAGES,
  MAX_FILTER_CONDITIONS,
  canAddCondition,
  conditionsFor,
  filterProblem,
  isBlockedNumericKey,
  isNumericType,
  itemValues,
  type FieldDataType,
  type FilterCondition,
  type FilterItem,
  type TableFilter,
} from '../../domain';

export interface FilterFieldInfo {
  key: string;
  label: string;
  dataType: FieldDataType;
}

export interface FilterEditorProps {
  field: FilterFieldInfo;
  /** The filter being edited; absent for a new one. */
  initial?: TableFilter | null;
  onSave: (filter: TableFilter) => void;
  onCancel?: () => void;
  /** Removes an existing filter (not offered for a new one). */
  onRemove?: () => void;
  /** Choices for an 'in' condition (the account owners): picked from a list instead of typed. */
  options?: readonly FilterOption[];
}

export interface FilterOption {
  value: string;
  label: string;
}

interface Row {
  id: string;
  condition: FilterCondition;
  /** Raw text of the inputs: two for between, a comma-separated list for in. */
  values: [string, string];
}

let seq = 0;
const newId = () => `c${Date.now().toString(36)}${(seq++).toString(36)}`;

const twoEnded = (c: FilterCondition) => c === 'between' || c === 'not_between';

function toText(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function rowsFrom(filter: TableFilter | null | undefined, allowed: FilterCondition[]): Row[] {
  const items = filter?.items ?? [];
  if (items.length === 0) return [{ id: newId(), condition: allowed[0], values: ['', ''] }];
  return items.map((item) => {
    const vals = itemValues(item);
    const values: [string, string] = item.condition === 'in' ? [vals.map(toText).join(', '), ''] : [toText(vals[0]), toText(vals[1])];
    return { id: item.id || newId(), condition: allowed.includes(item.condition) ? item.condition : allowed[0], values };
  });
}

/** One raw input as the value sent: numbers for numeric types, booleans for boolean, trimmed text otherwise. */
function convert(raw: string, dataType: FieldDataType): unknown {
  const t = raw.trim();
  if (t === '') return '';
  if (isNumericType(dataType)) return Number(t);
  if (dataType === 'boolean') return t === 'true';
  return t;
}

function rowToItem(row: Row, dataType: FieldDataType): FilterItem {
  if (row.condition === 'in') {
    const list = row.values[0]
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    return { id: row.id, condition: row.condition, data: list };
  }
  if (twoEnded(row.condition))
    return { id: row.id, condition: row.condition, data: [convert(row.values[0], dataType), convert(row.values[1], dataType)] };
  return { id: row.id, condition: row.condition, data: convert(row.values[0], dataType) };
}

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    width: '440px',
    maxWidth: '100%',
    boxSizing: 'border-box',
  },
  /** Dates and times need room for two pickers side by side (between). */
  wide: { width: '540px' },
  /** Under a plugin (add-in, side panel) the editor takes the width it is given. */
  plugin: { width: '100%' },
  title: { fontWeight: tokens.fontWeightSemibold },
  rows: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  condition: { width: '150px', minWidth: '150px', flexShrink: 0 },
  values: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, flexGrow: 1, minWidth: 0 },
  value: { flexGrow: 1, minWidth: 0, width: '0' },
  and: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  operator: { alignSelf: 'flex-start' },
  footer: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  spacer: { flexGrow: 1 },
  hint: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  options: { display: 'flex', flexDirection: 'column', flexGrow: 1, minWidth: 0, maxHeight: '200px', overflowY: 'auto' },
});

export function FilterEditor({ field, initial, onSave, onCancel, onRemove, options }: FilterEditorProps) {
  const styles = useStyles();
  const pluginMode = usePluginMode();
  const { dataType } = field;
  const allowed = conditionsFor(dataType);
  const numeric = isNumericType(dataType);
  const [rows, setRows] = useState<Row[]>(() => rowsFrom(initial, allowed));
  const [operator, setOperator] = useState<'and' | 'or'>(initial?.operator ?? 'and');
  const [error, setError] = useState<string | null>(null);

  const canAdd = canAddCondition(dataType, rows.length);
  const update = (id: string, patch: Partial<Row>) => setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...patch } : r)));

  const setValue = (row: Row, index: 0 | 1, raw: string) => {
    if (numeric && (raw.trim().startsWith('-') || Number(raw) < 0)) {
      setError(FILTER_MESSAGES.negative);
      return;
    }
    setError(null);
    const values: [string, string] = [...row.values];
    values[index] = raw;
    update(row.id, { values });
  };

  const add = () => {
    if (!canAddCondition(dataType, rows.length)) return;
    setRows((rs) => [...rs, { id: newId(), condition: allowed[0], values: ['', ''] }]);
  };
  const remove = (id: string) => {
    if (rows.length <= 1) {
      setError(FILTER_MESSAGES.lastCondition);
      return;
    }
    setRows((rs) => rs.filter((r) => r.id !== id));
  };

  const save = () => {
    const filter: TableFilter = {
      key: field.key,
      details: { label: field.label, dataType, key: field.key },
      operator,
      items: rows.map((r) => rowToItem(r, dataType)),
    };
    const problem = filterProblem(filter, dataType);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    onSave(filter);
  };

  const blockKeys = (e: KeyboardEvent<HTMLInputElement>) => {
    if (isBlockedNumericKey(e.key)) e.preventDefault();
    else if (e.key === 'Enter') save();
  };
  const blockPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    if (/[eE+-]/.test(e.clipboardData.getData('text'))) {
      e.preventDefault();
      if (e.clipboardData.getData('text').includes('-')) setError(FILTER_MESSAGES.negative);
    }
  };

  const valueInput = (row: Row, index: 0 | 1, label: string, testId: string) => {
    if (row.condition === 'in' && options) {
      const picked = new Set(
        row.values[0]
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean),
      );
      const toggle = (value: string, on: boolean) => {
        const next = new Set(picked);
        if (on) next.add(value);
        else next.delete(value);
        setValue(row, 0, [...next].join(','));
      };
      return (
        <div className={styles.options} role="group" aria-label={label} data-testid={testId}>
          {options.length === 0 && <span className={styles.hint}>Nothing to choose from</span>}
          {options.map((o) => (
            <Checkbox
              key={o.value}
              label={o.label}
              checked={picked.has(o.value)}
              onChange={(_, d) => toggle(o.value, d.checked === true)}
              data-testid="filter-value-option"
              data-value={o.value}
            />
          ))}
        </div>
      );
    }
    if (dataType === 'boolean') {
      return (
        <Select
          className={styles.value}
          value={row.values[index]}
          aria-label={label}
          onChange={(_, d) => setValue(row, index, d.value)}
          data-testid={testId}
        >
          <option value="">Choose…</option>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </Select>
      );
    }
    const type = numeric ? 'number' : dataType === 'date' ? 'date' : dataType === 'time' ? 'time' : 'text';
    return (
      <Input
        className={styles.value}
        type={type}
        inputMode={numeric ? 'decimal' : undefined}
        min={numeric ? 0 : undefined}
        step={numeric ? 'any' : undefined}
        placeholder={row.condition === 'in' ? 'Values, comma-separated' : 'Value'}
        aria-label={label}
        value={row.values[index]}
        onChange={(_, d) => setValue(row, index, d.value)}
        onKeyDown={numeric ? blockKeys : (e) => e.key === 'Enter' && save()}
        onPaste={numeric ? blockPaste : undefined}
        data-testid={testId}
      />
    );
  };

  return (
    <div
      className={mergeClasses(styles.root, (dataType === 'date' || dataType === 'time') && styles.wide, pluginMode && styles.plugin)}
      data-testid="filter-editor"
      data-plugin-mode={pluginMode ? 'true' : undefined}
      data-field-key={field.key}
      data-data-type={dataType}
    >
      <Text className={styles.title} data-testid="filter-editor-title">
        {field.label}
      </Text>
      {rows.length > 1 && (
        <Select
          className={styles.operator}
          size="small"
          value={operator}
          aria-label="Combine conditions"
          onChange={(_, d) => setOperator(d.value === 'or' ? 'or' : 'and')}
          data-testid="filter-operator"
        >
          <option value="and">Match all conditions</option>
          <option value="or">Match any condition</option>
        </Select>
      )}
      <div className={styles.rows}>
        {rows.map((row, i) => (
          <div className={styles.row} key={row.id} data-testid="filter-condition-row" data-condition={row.condition}>
            <Select
              className={styles.condition}
              value={row.condition}
              aria-label={`Condition ${i + 1}`}
              onChange={(_, d) => {
                setError(null);
                update(row.id, { condition: d.value as FilterCondition });
              }}
              data-testid="filter-condition-select"
            >
              {allowed.map((c) => (
                <option key={c} value={c}>
                  {CONDITION_LABELS[c]}
                </option>
              ))}
            </Select>
            <div className={styles.values}>
              {twoEnded(row.condition) ? (
                <>
                  {valueInput(row, 0, `Condition ${i + 1} from`, 'filter-value-from')}
                  <span className={styles.and}>and</span>
                  {valueInput(row, 1, `Condition ${i + 1} to`, 'filter-value-to')}
                </>
              ) : (
                valueInput(row, 0, `Condition ${i + 1} value`, 'filter-value')
              )}
            </div>
            <Tooltip content={rows.length <= 1 ? FILTER_MESSAGES.lastCondition : 'Remove condition'} relationship="label">
              <Button
                appearance="subtle"
                icon={<DeleteRegular />}
                disabled={rows.length <= 1}
                onClick={() => remove(row.id)}
                data-testid="filter-condition-remove"
              />
            </Tooltip>
          </div>
        ))}
      </div>
      {dataType !== 'uuid' && dataType !== 'number' && (
        <div className={styles.footer}>
          <Button
            appearance="transparent"
            size="small"
            icon={<AddRegular />}
            disabled={!canAdd}
            onClick={add}
            data-testid="filter-add-condition"
          >
            Add condition
          </Button>
          {!canAdd && (
            <span className={styles.hint} data-testid="filter-max-hint">
              At most {MAX_FILTER_CONDITIONS} conditions
            </span>
          )}
        </div>
      )}
      {error && (
        <MessageBar intent="error">
          <MessageBarBody data-testid="filter-editor-error">{error}</MessageBarBody>
        </MessageBar>
      )}
      <div className={styles.footer}>
        {onRemove && (
          <Button appearance="subtle" onClick={onRemove} data-testid="filter-editor-remove">
            Remove filter
          </Button>
        )}
        <div className={styles.spacer} />
        {onCancel && (
          <Button appearance="secondary" onClick={onCancel} data-testid="filter-editor-cancel">
            Cancel
          </Button>
        )}
        <Button appearance="primary" onClick={save} data-testid="filter-editor-save">
          Save
        </Button>
      </div>
    </div>
  );
}
