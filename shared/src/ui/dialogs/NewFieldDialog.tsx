// New Field (spec 002 §2 'Modals', §3 'Field', §5 'New field'): a name of 1 to 50 characters, one
// of the twelve offered data types, and the entity type it belongs to (company or contact).
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
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
  Select,
  Spinner,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import {
  FIELD_MESSAGES,
  currencyCodes,
  currencyLabel,
  OFFERED_FIELD_TYPES,
  fieldNameProblem,
  type OfferedDataType,
  type RecordEntityType,
} from '../../domain';
import type { FieldDto } from '../../contracts';
import { useApi, queryKeys } from '../ApiContext';
import { useNotify } from '../toast';
import { useModalSurfaceStyle } from '../PluginMode';
import { serverMessage } from '../server-message';
import { fieldIssues } from './save-errors';

export const FIELD_CREATE_FAILED = 'Failed to create field';

export const ENTITY_TYPE_LABELS: Record<RecordEntityType, string> = { company: 'Company', contact: 'Contact' };

export interface NewFieldDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Preselected entity type (the drawer's or the table's). */
  entityType?: RecordEntityType;
  /** Fixes the entity type (the drawer adds a field to its own entity type). */
  lockEntityType?: boolean;
  onCreated?: (field: FieldDto) => void;
}

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export function NewFieldDialog(props: NewFieldDialogProps) {
  const { open, onOpenChange } = props;
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const surfaceStyle = useModalSurfaceStyle();
  const [label, setLabel] = useState('');
  const [dataType, setDataType] = useState<OfferedDataType>('string');
  const [entityType, setEntityType] = useState<RecordEntityType>('company');
  /** A currency field's own currency; '' = the organization's default. */
  const [currency, setCurrency] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serverLabelIssue, setServerLabelIssue] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setLabel('');
    setDataType('string');
    setCurrency('');
    setEntityType(props.entityType ?? 'company');
    setSubmitted(false);
    setServerLabelIssue(null);
    setError(null);
    setBusy(false);
  }, [open, props.entityType]);

  const labelProblem = submitted ? fieldNameProblem(label) : null;

  const save = async () => {
    if (busy) return;
    setSubmitted(true);
    setError(null);
    setServerLabelIssue(null);
    if (fieldNameProblem(label)) return;
    setBusy(true);
    try {
      const res = await api.fields.create({
        label: label.trim(),
        dataType,
        entityType,
        ...(dataType === 'currency' && currency ? { config: { currency } } : {}),
      });
      notify.success(FIELD_MESSAGES.created);
      // Tables (columns, filters) and drawers (Fields sections) show the new field.
      void queryClient.invalidateQueries({ queryKey: queryKeys.fields(entityType) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.filterFields(entityType) });
      props.onCreated?.(res.field);
      onOpenChange(false);
    } catch (e) {
      const labelIssue = fieldIssues(e).find((i) => i.path.split(/[./]/).pop() === 'label');
      if (labelIssue) setServerLabelIssue(labelIssue.message);
      const message = serverMessage(e) ?? FIELD_CREATE_FAILED;
      setError(message);
      notify.error(message);
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
      <DialogSurface style={surfaceStyle} data-testid="new-field-dialog" aria-label="New Field">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <DialogBody>
            <DialogTitle>New Field</DialogTitle>
            <DialogContent className={styles.content}>
              <Field
                label="Field name"
                required
                validationMessage={labelProblem ?? serverLabelIssue ?? undefined}
                data-testid="new-field-label-field"
              >
                <Input
                  value={label}
                  onChange={(_, d) => {
                    setLabel(d.value);
                    setServerLabelIssue(null);
                    setError(null);
                  }}
                  readOnly={busy}
                  autoFocus
                  data-testid="new-field-label"
                />
              </Field>
              <Field label="Data type" required>
                <Select
                  value={dataType}
                  onChange={(_, d) => setDataType(d.value as OfferedDataType)}
                  disabled={busy}
                  data-testid="new-field-type"
                >
                  {OFFERED_FIELD_TYPES.map((t) => (
                    <option key={t.dataType} value={t.dataType}>
                      {t.label}
                    </option>
                  ))}
                </Select>
              </Field>
              {dataType === 'currency' && (
                <Field label="Currency" hint="Values of this field are shown in this currency.">
                  <Select value={currency} onChange={(_, d) => setCurrency(d.value)} disabled={busy} data-testid="new-field-currency">
                    <option value="">Organization default</option>
                    {currencyCodes().map((c) => (
                      <option key={c} value={c}>
                        {currencyLabel(c)}
                      </option>
                    ))}
                  </Select>
                </Field>
              )}
              <Field label="Entity type" required>
                <Select
                  value={entityType}
                  onChange={(_, d) => setEntityType(d.value as RecordEntityType)}
                  disabled={busy || props.lockEntityType}
                  data-testid="new-field-entity"
                >
                  {(Object.keys(ENTITY_TYPE_LABELS) as RecordEntityType[]).map((t) => (
                    <option key={t} value={t}>
                      {ENTITY_TYPE_LABELS[t]}
                    </option>
                  ))}
                </Select>
              </Field>
              {error && (
                <MessageBar intent="error" data-testid="new-field-error">
                  <MessageBarBody>{error}</MessageBarBody>
                </MessageBar>
              )}
            </DialogContent>
            <DialogActions fluid style={{ justifyContent: 'flex-end', marginTop: 8 }}>
              <Button appearance="secondary" disabled={busy} onClick={() => onOpenChange(false)} data-testid="new-field-cancel">
                Cancel
              </Button>
              <Button
                type="submit"
                appearance="primary"
                disabledFocusable={busy}
                icon={busy ? <Spinner aria-hidden size="tiny" /> : undefined}
                data-testid="new-field-save"
              >
                Create
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
