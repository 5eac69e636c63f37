// The Company Fields / Contact Fields section (spec 000 §2 'Details tab'): the custom fields (no id
// or reference types, no mandatory fields) sorted by label; each row shows the value or, if empty,
// the result of the field's primary enrichment ('Not executed yet' without one), its live status
// while that enrichment runs, a run button (the primary enrichment, when one is assigned), inline
// editing and copy ('Value copied to clipboard' for 500 ms). An add-field action opens New Field.
import { useMemo, useState, type KeyboardEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Field, Input, Select, Spinner, Textarea, Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { AddRegular, CheckmarkRegular, CopyRegular, DismissRegular, EditRegular, PlayRegular } from '@fluentui/react-icons';
import type { FieldDto, FieldValueDto } from '../../contracts';
import { ENTITY_MESSAGES, coerceFieldValue, formatFieldParts, type RecordEntityType } from '../../domain';
import { useApi, queryKeys } from '../ApiContext';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';
import { NewFieldDialog } from '../dialogs/NewFieldDialog';
import { invalidateRecords } from '../dialogs/invalidate';
import { DrawerSection, SectionNote } from './DrawerSection';
import { ResultValue } from '../enrichments/ResultValue';
import { useCellResult, useEnrichmentLiveUpdates, useSeedResults } from '../enrichments/liveResults';
import { primaryEnrichmentId } from '../enrichments/FieldResultCell';
import { copyableResultText, useCopyValue, useRunEnrichment } from '../enrichments/DrawerEnrichments';
import { NOT_EXECUTED, drawerFields, editText, fieldValueOf, formatFieldValue, type SectionKey } from './drawer-rules';

const useStyles = makeStyles({
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '2px' },
  row: {
    display: 'grid',
    gridTemplateColumns: 'minmax(90px, 38%) 1fr auto',
    alignItems: 'start',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalXS}`,
    borderRadius: tokens.borderRadiusMedium,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  label: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200, paddingTop: '6px', overflowWrap: 'anywhere' },
  value: {
    minWidth: 0,
    padding: '5px 0',
    border: 'none',
    background: 'none',
    textAlign: 'left',
    fontFamily: 'inherit',
    fontSize: tokens.fontSizeBase300,
    color: tokens.colorNeutralForeground1,
    cursor: 'pointer',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  empty: { color: tokens.colorNeutralForeground4, fontStyle: 'italic', cursor: 'default' },
  actions: { display: 'flex', gap: '2px' },
  editor: { gridColumn: '2 / 4', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  editorRow: { display: 'flex', gap: '4px', alignItems: 'flex-start' },
  grow: { flexGrow: 1, minWidth: 0 },
});

function inputTypeFor(dataType: FieldDto['dataType']): 'text' | 'date' | 'time' | 'email' | 'url' | 'tel' {
  switch (dataType) {
    case 'date':
      return 'date';
    case 'time':
      return 'time';
    case 'email':
      return 'email';
    case 'url':
      return 'url';
    case 'phone':
      return 'tel';
    default:
      return 'text';
  }
}

const NUMERIC = new Set<FieldDto['dataType']>(['int', 'double', 'currency', 'number']);

function FieldRow({
  field,
  value,
  entityType,
  entityId,
}: {
  field: FieldDto;
  value: FieldValueDto | null;
  entityType: RecordEntityType;
  entityId: string;
}) {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const stored = formatFieldValue(field.dataType, value?.value, { currency: field.currency });
  // The primary enrichment's result: its status while it runs, its value while the field is empty.
  const primaryId = primaryEnrichmentId(field);
  const primaryName = field.assignedEnrichments.find((a) => a.id === primaryId)?.name ?? '';
  const result = useCellResult(primaryId, entityId);
  const runEnrichment = useRunEnrichment(entityType);
  const running = result?.status === 'preprocessing' || result?.status === 'processing';
  const showResult = !!result && (running || result.status === 'error' || (stored === null && result.status === 'complete'));
  const text = stored ?? (result ? copyableResultText(result) : null);

  const startEdit = () => {
    setDraft(editText(field.dataType, value?.value));
    setError(null);
    setEditing(true);
  };

  const save = async () => {
    const coerced = coerceFieldValue(field.dataType, draft.trim() === '' ? null : draft);
    if (!coerced.ok) {
      setError(coerced.message);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api.fields.setValue(entityType, { entityType, entityId, fieldId: field.id, value: coerced.value });
      notify.success(ENTITY_MESSAGES.valueSaved);
      setEditing(false);
      await invalidateRecords(queryClient, entityType === 'company' ? { companyIds: [entityId] } : { contactIds: [entityId] });
    } catch (e) {
      setError(serverMessage(e) ?? 'Could not save the value');
    } finally {
      setBusy(false);
    }
  };

  const copyValue = useCopyValue();
  const copy = () => copyValue(text);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      setEditing(false);
    } else if (e.key === 'Enter' && field.dataType !== 'object' && !e.shiftKey) {
      e.preventDefault();
      void save();
    }
  };

  const inputId = `drawer-field-${field.id}`;
  return (
    <li
      className={styles.row}
      data-testid="drawer-field-row"
      data-field-key={field.key}
      data-field-id={field.id}
      data-empty={text === null ? 'true' : 'false'}
    >
      <label className={styles.label} htmlFor={editing ? inputId : undefined} data-testid="drawer-field-label">
        {field.label}
      </label>
      {editing ? (
        <div className={styles.editor} onKeyDown={onKeyDown}>
          <Field validationMessage={error ?? undefined} data-testid="drawer-field-editor">
            {field.dataType === 'boolean' ? (
              <Select
                id={inputId}
                value={draft}
                onChange={(_, d) => setDraft(d.value)}
                disabled={busy}
                data-testid="drawer-field-input"
                autoFocus
              >
                <option value="">(empty)</option>
                <option value="true">Yes</option>
                <option value="false">No</option>
              </Select>
            ) : field.dataType === 'object' || field.dataType === 'address' ? (
              <Textarea
                id={inputId}
                value={draft}
                onChange={(_, d) => setDraft(d.value)}
                disabled={busy}
                resize="vertical"
                data-testid="drawer-field-input"
                autoFocus
              />
            ) : (
              <Input
                id={inputId}
                type={inputTypeFor(field.dataType)}
                inputMode={NUMERIC.has(field.dataType) ? 'decimal' : undefined}
                value={draft}
                onChange={(_, d) => setDraft(d.value)}
                disabled={busy}
                data-testid="drawer-field-input"
                autoFocus
              />
            )}
          </Field>
          <div className={styles.editorRow}>
            <Button
              size="small"
              appearance="primary"
              icon={busy ? <Spinner aria-hidden size="extra-tiny" /> : <CheckmarkRegular />}
              disabled={busy}
              onClick={() => void save()}
              data-testid="drawer-field-save"
            >
              Save
            </Button>
            <Button
              size="small"
              icon={<DismissRegular />}
              disabled={busy}
              onClick={() => setEditing(false)}
              data-testid="drawer-field-cancel"
            >
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <>
          {showResult && result ? (
            <span className={styles.value} data-testid="drawer-field-value" data-status={result.status}>
              <ResultValue
                errorOpen
                result={
                  running && result.status === 'preprocessing' && !result.value && stored
                    ? { status: 'preprocessing', value: stored }
                    : result
                }
              />
            </span>
          ) : text === null ? (
            <span className={mergeClasses(styles.value, styles.empty)} data-testid="drawer-field-value">
              {NOT_EXECUTED}
            </span>
          ) : (
            <span className={styles.value} data-testid="drawer-field-value">
              <ResultValue
                display={{
                  kind: 'value',
                  text,
                  formatted: formatFieldParts(field.dataType, value?.value, { currency: field.currency }),
                  raw: value?.value,
                }}
              />
            </span>
          )}
          <span className={styles.actions}>
            {primaryId && (
              <Tooltip content={`Run ${primaryName || 'the primary enrichment'}`} relationship="label">
                <Button
                  appearance="subtle"
                  size="small"
                  icon={running ? <Spinner aria-hidden size="extra-tiny" /> : <PlayRegular />}
                  disabled={running}
                  onClick={() => void runEnrichment(primaryId, entityId, value?.value ?? null)}
                  data-testid="drawer-field-run"
                />
              </Tooltip>
            )}
            <Tooltip content={`Edit ${field.label}`} relationship="label">
              <Button appearance="subtle" size="small" icon={<EditRegular />} onClick={startEdit} data-testid="drawer-field-edit" />
            </Tooltip>
            <Tooltip content={text === null ? 'Nothing to copy' : 'Copy value'} relationship="label">
              <Button
                appearance="subtle"
                size="small"
                icon={<CopyRegular />}
                disabledFocusable={text === null}
                onClick={() => void copy()}
                data-testid="drawer-field-copy"
              />
            </Tooltip>
          </span>
        </>
      )}
    </li>
  );
}

export function FieldsSection({
  entityType,
  entityId,
  values,
  open,
  onToggle,
}: {
  entityType: RecordEntityType;
  entityId: string;
  values: Record<string, FieldValueDto>;
  open: boolean;
  onToggle: () => void;
}) {
  const styles = useStyles();
  const api = useApi();
  const [adding, setAdding] = useState(false);
  // Same key and data (the field list) as the tables' columns, so one fetch serves both.
  const fieldsQuery = useQuery({
    queryKey: queryKeys.fields(entityType),
    queryFn: async () => (await api.fields.list(entityType)).fields,
    staleTime: 60_000,
  });
  const fields = useMemo(() => drawerFields(fieldsQuery.data ?? [], entityType), [fieldsQuery.data, entityType]);
  // Live statuses of the fields' primary enrichments, seeded from the stored results.
  useEnrichmentLiveUpdates(entityType);
  const primaryIds = useMemo(() => fields.map(primaryEnrichmentId).filter((x): x is string => !!x), [fields]);
  const entityIds = useMemo(() => [entityId], [entityId]);
  useSeedResults(entityType, entityIds, primaryIds);
  const key: SectionKey = entityType === 'company' ? 'companyFields' : 'contactFields';
  const title = entityType === 'company' ? 'Company Fields' : 'Contact Fields';
  return (
    <>
      <DrawerSection
        id={key}
        title={title}
        count={fields.length}
        open={open}
        onToggle={onToggle}
        actions={
          <Tooltip content="Add field" relationship="label">
            <Button appearance="subtle" size="small" icon={<AddRegular />} onClick={() => setAdding(true)} data-testid="drawer-add-field" />
          </Tooltip>
        }
      >
        {fieldsQuery.isPending ? (
          <Spinner size="tiny" label="Loading fields..." />
        ) : fieldsQuery.isError ? (
          <SectionNote testId="drawer-fields-error">Could not load the fields.</SectionNote>
        ) : fields.length === 0 ? (
          <SectionNote testId="drawer-fields-empty">No custom fields yet. Add a field to track more about each {entityType}.</SectionNote>
        ) : (
          <ul className={styles.list} aria-label={title}>
            {fields.map((f) => (
              <FieldRow key={f.id} field={f} value={fieldValueOf(values, f)} entityType={entityType} entityId={entityId} />
            ))}
          </ul>
        )}
      </DrawerSection>
      <NewFieldDialog open={adding} onOpenChange={setAdding} entityType={entityType} lockEntityType />
    </>
  );
}
