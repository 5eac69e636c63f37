// The schema editor (spec 001 §2 'Schema editor', §5 'Enrichment form', §9): one collapsible card
// per item (name, type, description, required, createColumn; for categories the values added on
// Enter, enumType and enumTopN), add and delete (never the last item), errors per item, and a hint
// box that generates a column from a description (POST /enrichment/generate-schema-object).
import { useState, type KeyboardEvent } from 'react';
import {
  Button,
  Checkbox,
  Field,
  Input,
  Select,
  SpinButton,
  Spinner,
  Tag,
  TagGroup,
  Text,
  Textarea,
  Tooltip,
  makeStyles,
  mergeClasses,
  shorthands,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, ChevronDownRegular, ChevronRightRegular, DeleteRegular, SparkleRegular } from '@fluentui/react-icons';
import {
  ENRICHMENT_FORM_MESSAGES,
  ENUM_TYPES,
  ENUM_TYPE_LABELS,
  SCHEMA_TYPE_LABELS,
  addEnumValue,
  addGeneratedItem,
  blankSchemaItem,
  canDeleteSchemaItem,
  clampEnumTopN,
  generatedColumnToItem,
  removeSchemaItem,
  schemaItemErrors,
  schemaTypeOptions,
  withSchemaType,
  type EnumType,
  type FormSchemaItem,
  type GeneratedColumn,
  type SchemaItemType,
} from '../../domain';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  card: {
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  cardError: { ...shorthands.borderColor(tokens.colorPaletteRedBorder2) },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, padding: `2px ${tokens.spacingHorizontalXS}` },
  toggle: { flexGrow: 1, justifyContent: 'flex-start', minWidth: 0, fontWeight: tokens.fontWeightSemibold },
  headName: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  typeBadge: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200, whiteSpace: 'nowrap' },
  body: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: `0 ${tokens.spacingHorizontalM} ${tokens.spacingVerticalM}`,
  },
  row: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap', alignItems: 'flex-end' },
  grow: { flexGrow: 1, minWidth: '140px' },
  checks: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  tags: { flexWrap: 'wrap', gap: '4px' },
  hint: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-start' },
  hintBox: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  error: { color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase200 },
});

export interface SchemaEditorProps {
  items: readonly FormSchemaItem[];
  onChange: (items: FormSchemaItem[]) => void;
  /** POST /enrichment/generate-schema-object {hint}; absent hides the hint box. */
  generateColumn?: (hint: string) => Promise<GeneratedColumn | null>;
  disabled?: boolean;
}

function SchemaItemCard(props: {
  item: FormSchemaItem;
  index: number;
  canDelete: boolean;
  disabled?: boolean;
  onChange: (item: FormSchemaItem) => void;
  onDelete: () => void;
}) {
  const { item, index } = props;
  const styles = useStyles();
  const [valueInput, setValueInput] = useState('');
  const errors = schemaItemErrors(item);
  const hasError = !!(errors.name || errors.description || errors.enumValues);
  const expanded = item.expanded !== false;
  const set = (patch: Partial<FormSchemaItem>) => props.onChange({ ...props.item, ...patch });

  const onValueKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const next = addEnumValue(item.enumValues, valueInput);
    if (next.length !== (item.enumValues ?? []).length) set({ enumValues: next });
    setValueInput('');
  };

  return (
    <div
      className={mergeClasses(styles.card, hasError && styles.cardError)}
      data-testid="schema-item"
      data-index={index}
      data-expanded={expanded ? 'true' : 'false'}
      data-name={item.name}
    >
      <div className={styles.head}>
        <Button
          appearance="transparent"
          className={styles.toggle}
          icon={expanded ? <ChevronDownRegular /> : <ChevronRightRegular />}
          aria-expanded={expanded}
          onClick={() => set({ expanded: !expanded })}
          data-testid="schema-item-toggle"
        >
          <span className={styles.headName}>{item.name || `Item ${index + 1}`}</span>
        </Button>
        <span className={styles.typeBadge}>
          {SCHEMA_TYPE_LABELS[item.type]}
          {item.required ? ' · required' : ''}
        </span>
        <Tooltip content={props.canDelete ? 'Delete item' : 'At least one item must remain'} relationship="label">
          <Button
            appearance="subtle"
            size="small"
            icon={<DeleteRegular />}
            disabled={!props.canDelete || props.disabled}
            onClick={props.onDelete}
            data-testid="schema-item-delete"
          />
        </Tooltip>
      </div>
      {expanded && (
        <div className={styles.body}>
          <div className={styles.row}>
            <Field label="Name" className={styles.grow} validationMessage={errors.name} validationState={errors.name ? 'error' : 'none'}>
              <Input
                value={item.name}
                disabled={props.disabled}
                onChange={(_, d) => set({ name: d.value })}
                data-testid="schema-item-name"
              />
            </Field>
            <Field label="Type">
              <Select
                value={item.type}
                disabled={props.disabled}
                onChange={(_, d) => props.onChange(withSchemaType(item, d.value as SchemaItemType))}
                data-testid="schema-item-type"
              >
                {schemaTypeOptions(item).map((t) => (
                  <option key={t} value={t}>
                    {SCHEMA_TYPE_LABELS[t]}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <Field label="Description" validationMessage={errors.description} validationState={errors.description ? 'error' : 'none'}>
            <Textarea
              value={item.description}
              disabled={props.disabled}
              resize="vertical"
              onChange={(_, d) => set({ description: d.value })}
              data-testid="schema-item-description"
            />
          </Field>
          {item.type === 'categories' && (
            <>
              <Field
                label="Values"
                hint="Press Enter to add a value"
                validationMessage={errors.enumValues}
                validationState={errors.enumValues ? 'error' : 'none'}
              >
                <Input
                  value={valueInput}
                  disabled={props.disabled}
                  onChange={(_, d) => setValueInput(d.value)}
                  onKeyDown={onValueKey}
                  data-testid="schema-item-enum-input"
                />
              </Field>
              {(item.enumValues ?? []).length > 0 && (
                <TagGroup
                  className={styles.tags}
                  aria-label="Values"
                  onDismiss={(_, d) => set({ enumValues: (item.enumValues ?? []).filter((v) => v !== d.value) })}
                  data-testid="schema-item-enum-values"
                >
                  {(item.enumValues ?? []).map((v) => (
                    <Tag
                      key={v}
                      value={v}
                      size="small"
                      dismissible={!props.disabled}
                      dismissIcon={{ 'aria-label': `Remove ${v}` }}
                      data-testid="schema-item-enum-value"
                    >
                      {v}
                    </Tag>
                  ))}
                </TagGroup>
              )}
              <div className={styles.row}>
                <Field label="Pick">
                  <Select
                    value={item.enumType ?? 'best'}
                    disabled={props.disabled}
                    onChange={(_, d) => set({ enumType: d.value as EnumType })}
                    data-testid="schema-item-enum-type"
                  >
                    {ENUM_TYPES.map((t) => (
                      <option key={t} value={t}>
                        {ENUM_TYPE_LABELS[t]}
                      </option>
                    ))}
                  </Select>
                </Field>
                {item.enumType === 'topN' && (
                  <Field label="N">
                    <SpinButton
                      min={1}
                      value={item.enumTopN ?? 1}
                      disabled={props.disabled}
                      onChange={(_, d) => set({ enumTopN: clampEnumTopN(d.value ?? d.displayValue) })}
                      data-testid="schema-item-enum-topn"
                    />
                  </Field>
                )}
              </div>
            </>
          )}
          <div className={styles.checks}>
            <Checkbox
              label="Required"
              checked={item.required}
              disabled={props.disabled}
              onChange={(_, d) => set({ required: !!d.checked })}
              data-testid="schema-item-required"
            />
            <Checkbox
              label="Create column"
              checked={item.createColumn}
              disabled={props.disabled}
              onChange={(_, d) => set({ createColumn: !!d.checked })}
              data-testid="schema-item-create-column"
            />
          </div>
        </div>
      )}
    </div>
  );
}

export function SchemaEditor(props: SchemaEditorProps) {
  const { items, onChange } = props;
  const styles = useStyles();
  const [hint, setHint] = useState('');
  const [generating, setGenerating] = useState(false);
  const [hintError, setHintError] = useState<string | null>(null);
  const canDelete = canDeleteSchemaItem(items);

  const generate = async () => {
    if (!props.generateColumn || !hint.trim()) return;
    setGenerating(true);
    setHintError(null);
    try {
      const generated = await props.generateColumn(hint.trim());
      const item = generated ? generatedColumnToItem(generated) : null;
      if (!item) {
        setHintError(ENRICHMENT_FORM_MESSAGES.hintNotFound);
        return;
      }
      onChange(addGeneratedItem(items, item));
      setHint('');
    } catch (e) {
      setHintError(e instanceof Error && e.message ? e.message : ENRICHMENT_FORM_MESSAGES.hintNotFound);
    } finally {
      setGenerating(false);
    }
  };

  return (
    <div className={styles.root} data-testid="schema-editor">
      {items.map((item, i) => (
        <SchemaItemCard
          // Items have no id of their own; the index is their identity while editing.
          key={i}
          item={item}
          index={i}
          canDelete={canDelete}
          disabled={props.disabled}
          onChange={(next) => onChange(items.map((x, j) => (j === i ? next : x)))}
          onDelete={() => onChange(removeSchemaItem(items, i))}
        />
      ))}
      <div>
        <Button
          size="small"
          icon={<AddRegular />}
          disabled={props.disabled}
          onClick={() => onChange([...items, blankSchemaItem()])}
          data-testid="schema-add-item"
        >
          Add item
        </Button>
      </div>
      {props.generateColumn && (
        <div className={styles.hintBox}>
          <Text size={200} weight="semibold">
            Generate a column from a description
          </Text>
          <div className={styles.hint}>
            <Input
              className={styles.grow}
              value={hint}
              placeholder="e.g. the number of employees"
              disabled={props.disabled || generating}
              onChange={(_, d) => {
                setHint(d.value);
                setHintError(null);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  void generate();
                }
              }}
              aria-label="Column hint"
              data-testid="schema-hint-input"
            />
            <Button
              icon={generating ? <Spinner aria-hidden size="extra-tiny" /> : <SparkleRegular />}
              disabled={props.disabled || generating || !hint.trim()}
              onClick={() => void generate()}
              data-testid="schema-hint-generate"
            >
              Generate
            </Button>
          </div>
          {hintError && (
            <Text className={styles.error} role="alert" data-testid="schema-hint-error">
              {hintError}
            </Text>
          )}
        </div>
      )}
    </div>
  );
}
