// CRM sync settings (spec 001 §3 'Sync settings'): which objects sync (syncAccounts,
// syncContacts) and the field mappings — Account ↔ company and Contact ↔ contact — each a field from
// the CRM's own list (Salesforce describe, Affinity attributes and fields) onto a Dealscout field
// (built-in or custom), with the side that wins a conflict: 'Latest change wins' (use_latest) or
// 'Keep the Dealscout value' (keep_existing). Admins edit; users see them read-only. In a dialog
// (`dialog` given) it renders the dialog's content and its action bar: Back at the start, then
// Cancel and the one primary action, 'Save mappings' (which saves and closes); a user who cannot
// edit gets Close.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, DialogActions, DialogContent, Field, Select, Spinner, Switch, Text, makeStyles, tokens } from '@fluentui/react-components';
import { AddRegular, DeleteRegular } from '@fluentui/react-icons';
import { type CrmFieldDto, type FieldDto, type FieldMapping, type Reconciliation, type SyncSettingsBody } from '../../contracts';
import { CRM_NAMES, CRM_SYNC_MESSAGES } from '../../domain';
import { useApi, queryKeys } from '../ApiContext';
import { useNotify } from '../toast';
import { serverMessage } from '../server-message';

export const SYNC_SETTINGS_KEY = ['crm', 'sync-settings'] as const;
export const CRM_FIELDS_KEY = ['crm', 'fields'] as const;

export const RECONCILIATION_LABELS: Record<Reconciliation, string> = {
  use_latest: 'Latest change wins',
  keep_existing: 'Keep the Dealscout value',
};

/** Built-in Dealscout fields sync may write (the server refuses the others). */
const MAPPABLE_BUILT_INS: Record<'company' | 'contact', readonly string[]> = {
  company: ['name', 'website'],
  contact: ['first_name', 'last_name', 'email'],
};

export function mappableFields(fields: readonly FieldDto[], entityType: 'company' | 'contact'): FieldDto[] {
  return fields
    .filter(
      (f) =>
        f.entityType === entityType &&
        !f.isPseudo &&
        !['id', 'reference'].includes(f.dataType) &&
        (!f.isMandatory || MAPPABLE_BUILT_INS[entityType].includes(f.key)),
    )
    .sort((a, b) => a.label.localeCompare(b.label));
}

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '14px' },
  block: { display: 'flex', flexDirection: 'column', gap: '6px' },
  row: { display: 'grid', gridTemplateColumns: '1fr 1fr 1fr auto', gap: '6px', alignItems: 'center' },
  head: {
    display: 'grid',
    gridTemplateColumns: '1fr 1fr 1fr auto',
    gap: '6px',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
  },
  muted: { color: tokens.colorNeutralForeground2 },
  actions: { display: 'flex', gap: '8px', justifyContent: 'flex-end' },
  spacer: { width: '32px' },
});

function MappingRows({
  title,
  testid,
  crmFields,
  ours,
  rows,
  onChange,
  readOnly,
  crmName,
}: {
  title: string;
  testid: string;
  crmFields: CrmFieldDto[];
  ours: FieldDto[];
  rows: FieldMapping[];
  onChange: (rows: FieldMapping[]) => void;
  readOnly: boolean;
  crmName: string;
}) {
  const styles = useStyles();
  const set = (i: number, patch: Partial<FieldMapping>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const taken = new Set(rows.map((r) => r.fieldId));
  const free = ours.filter((f) => !taken.has(f.id));
  return (
    <div className={styles.block} data-testid={`${testid}-mappings`}>
      <Text weight="semibold">{title}</Text>
      {rows.length > 0 && (
        <div className={styles.head}>
          <span>{crmName} field</span>
          <span>Dealscout field</span>
          <span>On conflict</span>
          <span className={styles.spacer} />
        </div>
      )}
      {rows.map((r, i) => (
        <div className={styles.row} key={`${i}-${r.fieldId}`} data-testid={`${testid}-mapping-row`}>
          <Select
            aria-label={`${crmName} field`}
            value={r.crmField}
            disabled={readOnly}
            data-testid={`${testid}-crm-field`}
            onChange={(_, d) => set(i, { crmField: d.value, crmLabel: crmFields.find((f) => f.name === d.value)?.label })}
          >
            {!crmFields.some((f) => f.name === r.crmField) && <option value={r.crmField}>{r.crmLabel ?? r.crmField}</option>}
            {crmFields.map((f) => (
              <option key={f.name} value={f.name}>
                {f.label} ({f.name})
              </option>
            ))}
          </Select>
          <Select
            aria-label="Dealscout field"
            value={r.fieldId}
            disabled={readOnly}
            data-testid={`${testid}-our-field`}
            onChange={(_, d) => set(i, { fieldId: d.value })}
          >
            {ours
              .filter((f) => f.id === r.fieldId || !taken.has(f.id))
              .map((f) => (
                <option key={f.id} value={f.id}>
                  {f.label}
                </option>
              ))}
          </Select>
          <Select
            aria-label="On conflict"
            value={r.reconciliation}
            disabled={readOnly}
            data-testid={`${testid}-reconciliation`}
            onChange={(_, d) => set(i, { reconciliation: d.value as Reconciliation })}
          >
            {(Object.keys(RECONCILIATION_LABELS) as Reconciliation[]).map((k) => (
              <option key={k} value={k}>
                {RECONCILIATION_LABELS[k]}
              </option>
            ))}
          </Select>
          {readOnly ? (
            <span className={styles.spacer} />
          ) : (
            <Button
              appearance="subtle"
              icon={<DeleteRegular />}
              aria-label="Remove mapping"
              onClick={() => onChange(rows.filter((_, j) => j !== i))}
            />
          )}
        </div>
      ))}
      {!readOnly && (
        <div>
          <Button
            size="small"
            icon={<AddRegular />}
            disabled={free.length === 0 || crmFields.length === 0}
            data-testid={`${testid}-add-mapping`}
            onClick={() => {
              // A first guess: the CRM field whose label matches the Dealscout field's.
              const target = free[0]!;
              const guess = crmFields.find((f) => f.label.toLowerCase() === target.label.toLowerCase()) ?? crmFields[0]!;
              onChange([...rows, { crmField: guess.name, crmLabel: guess.label, fieldId: target.id, reconciliation: 'use_latest' }]);
            }}
          >
            Add mapping
          </Button>
        </div>
      )}
    </div>
  );
}

export interface CrmSyncSettingsProps {
  isAdmin: boolean;
  onSaved?: () => void;
  /** Rendered as a dialog's content and action bar: Back goes to the previous dialog, Close/Cancel closes. */
  dialog?: { onBack?: () => void; onClose: () => void };
}

export function CrmSyncSettings({ isAdmin, onSaved, dialog }: CrmSyncSettingsProps) {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: SYNC_SETTINGS_KEY, queryFn: async () => (await api.crm.syncSettings()).settings });
  const crmFields = useQuery({ queryKey: CRM_FIELDS_KEY, queryFn: async () => api.crm.fields(), retry: false });
  const companyFields = useQuery({ queryKey: queryKeys.fields('company'), queryFn: async () => (await api.fields.list('company')).fields });
  const contactFields = useQuery({ queryKey: queryKeys.fields('contact'), queryFn: async () => (await api.fields.list('contact')).fields });
  const [draft, setDraft] = useState<SyncSettingsBody | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (settings.data && !draft) {
      const s = settings.data;
      setDraft({
        syncAccounts: s.syncAccounts,
        syncContacts: s.syncContacts,
        accountMappings: s.accountMappings,
        contactMappings: s.contactMappings,
      });
    }
  }, [settings.data, draft]);
  const oursCompany = useMemo(() => mappableFields(companyFields.data ?? [], 'company'), [companyFields.data]);
  const oursContact = useMemo(() => mappableFields(contactFields.data ?? [], 'contact'), [contactFields.data]);

  // In a dialog: the content, then the action bar (one primary action).
  const frame = (body: ReactNode, save: (() => Promise<void>) | null) =>
    !dialog ? (
      body
    ) : (
      <>
        <DialogContent>{body}</DialogContent>
        <DialogActions position="start">
          {dialog.onBack && (
            <Button onClick={dialog.onBack} data-testid="sync-settings-back">
              Back
            </Button>
          )}
        </DialogActions>
        <DialogActions position="end">
          {save ? (
            <>
              <Button onClick={dialog.onClose} data-testid="sync-settings-cancel">
                Cancel
              </Button>
              <Button appearance="primary" disabled={saving} onClick={() => void save()} data-testid="sync-settings-save">
                {saving ? 'Saving…' : 'Save mappings'}
              </Button>
            </>
          ) : (
            <Button appearance="primary" onClick={dialog.onClose} data-testid="sync-settings-close">
              Close
            </Button>
          )}
        </DialogActions>
      </>
    );
  if (settings.isError || crmFields.isError)
    return frame(
      <Text role="alert" data-testid="sync-settings-error">
        {serverMessage(settings.error ?? crmFields.error) ?? 'Integration data not found'}
      </Text>,
      null,
    );
  if (!draft || !crmFields.data || !companyFields.data || !contactFields.data)
    return frame(<Spinner size="tiny" label="Loading fields…" />, null);
  const crmName = CRM_NAMES[crmFields.data.provider];
  const readOnly = !isAdmin;
  const complete = draft.accountMappings.length > 0 && draft.contactMappings.length > 0;

  const save = async () => {
    setSaving(true);
    try {
      const res = await api.crm.saveSyncSettings(draft);
      notify.success(res.message ?? CRM_SYNC_MESSAGES.settingsSaved);
      queryClient.setQueryData(SYNC_SETTINGS_KEY, res.settings);
      onSaved?.();
      dialog?.onClose();
    } catch (e) {
      notify.error(serverMessage(e) ?? 'Could not save the sync settings.');
    } finally {
      setSaving(false);
    }
  };

  return frame(
    <div className={styles.root} data-testid="sync-settings">
      <Text className={styles.muted}>
        Pick which {crmName} fields fill which Dealscout fields. Sync reads the records owned by your {crmName} user (everything for an
        Admin) and matches them by {crmName} id, then by domain or email.
      </Text>
      <div className={styles.actions} style={{ justifyContent: 'flex-start' }}>
        <Switch
          label="Sync accounts"
          checked={draft.syncAccounts}
          disabled={readOnly}
          onChange={(_, d) => setDraft({ ...draft, syncAccounts: d.checked })}
          data-testid="sync-accounts"
        />
        <Switch
          label="Sync contacts"
          checked={draft.syncContacts}
          disabled={readOnly}
          onChange={(_, d) => setDraft({ ...draft, syncContacts: d.checked })}
          data-testid="sync-contacts"
        />
      </div>
      <MappingRows
        title={crmFields.data.provider === 'salesforce' ? 'Account ↔ Company' : 'Organization ↔ Company'}
        testid="account"
        crmFields={crmFields.data.account}
        ours={oursCompany}
        rows={draft.accountMappings}
        onChange={(accountMappings) => setDraft({ ...draft, accountMappings })}
        readOnly={readOnly}
        crmName={crmName}
      />
      <MappingRows
        title={crmFields.data.provider === 'salesforce' ? 'Contact ↔ Contact' : 'Person ↔ Contact'}
        testid="contact"
        crmFields={crmFields.data.contact}
        ours={oursContact}
        rows={draft.contactMappings}
        onChange={(contactMappings) => setDraft({ ...draft, contactMappings })}
        readOnly={readOnly}
        crmName={crmName}
      />
      {!complete && (
        <Field validationState="warning" validationMessage={CRM_SYNC_MESSAGES.invalidSettings}>
          <span />
        </Field>
      )}
      {!readOnly && !dialog && (
        <div className={styles.actions}>
          <Button appearance="primary" disabled={saving} onClick={() => void save()} data-testid="sync-settings-save">
            {saving ? 'Saving…' : 'Save mappings'}
          </Button>
        </div>
      )}
    </div>,
    readOnly ? null : save,
  );
}
