// New and Edit Company / Contact (spec 002 §2 'Modals', §5 'Company' and 'Contact', §8 'Saving
// companies and contacts'), one dialog for both: the record's own fields, its Account Owner, and a
// linked record of the other kind — a new one (validated by that kind's rules) or an existing one.
// 400 px wide, full width under a plugin; Esc closes. CompanyDialog and ContactDialog name it.
import { useEffect, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  MessageBar,
  MessageBarBody,
  Spinner,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { COMPANY_MESSAGES, CONTACT_MESSAGES, companyProblems, contactProblems } from '../../domain';
import type { CompanyDetails, CompanyDto, ContactDetails, ContactDto } from '../../contracts';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { useModalSurfaceStyle } from '../PluginMode';
import { AccountOwnerSelect } from './AccountOwnerSelect';
import {
  CompanyFieldsGroup,
  ContactFieldsGroup,
  LinkedRecordSection,
  emptyCompany,
  emptyContact,
  trimCompany,
  trimContact,
  type LinkMode,
  type PickedRecord,
} from './RecordFormFields';
import { fieldIssues, issuesFor, saveErrorMessage } from './save-errors';
import { invalidateRecords } from './invalidate';

export type RecordKind = 'company' | 'contact';

export const PICK_CONTACT_MESSAGE = 'Please pick a contact';
export const PICK_COMPANY_MESSAGE = 'Please pick a company';

type Editing<K extends RecordKind> = K extends 'company' ? CompanyDto | CompanyDetails : ContactDto | ContactDetails;
type Saved<K extends RecordKind> = K extends 'company' ? CompanyDetails : ContactDetails;
type Initial<K extends RecordKind> = K extends 'company'
  ? { name?: string; website?: string }
  : { firstName?: string; lastName?: string; email?: string };

export interface RecordDialogProps<K extends RecordKind> {
  kind: K;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The record to edit; without it the dialog creates one. */
  editing?: Editing<K> | null;
  /** Preselects 'Existing …' with this record of the other kind. */
  link?: PickedRecord | null;
  /** Owner preselected for a new record (the web app passes the signed-in user). */
  defaultOwnerId?: string | null;
  onSaved?: (record: Saved<K>) => void;
  /** Prefills a new record (the Chrome side panel: what a CRM page shows). */
  initial?: Initial<K> | null;
}

const TEXT = {
  company: { title: 'Company', messages: COMPANY_MESSAGES, other: 'contact', pick: PICK_CONTACT_MESSAGE },
  contact: { title: 'Contact', messages: CONTACT_MESSAGES, other: 'company', pick: PICK_COMPANY_MESSAGE },
} as const;

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

type Issues = { company: Record<string, string>; contact: Record<string, string> };
const NO_ISSUES: Issues = { company: {}, contact: {} };

export function RecordDialog<K extends RecordKind>(props: RecordDialogProps<K>) {
  const { kind, open, onOpenChange, editing } = props;
  const text = TEXT[kind];
  const other = text.other;
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const surfaceStyle = useModalSurfaceStyle();
  const isEdit = !!editing;

  const [company, setCompany] = useState(emptyCompany);
  const [contact, setContact] = useState(emptyContact);
  const [ownerId, setOwnerId] = useState<string | null>(null);
  const [mode, setMode] = useState<LinkMode>('none');
  const [picked, setPicked] = useState<PickedRecord | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [serverIssues, setServerIssues] = useState<Issues>(NO_ISSUES);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    const e = editing as (CompanyDto & ContactDto) | null | undefined;
    if (kind === 'company') {
      setCompany(e ? { name: e.name, website: e.website } : { ...emptyCompany(), ...(props.initial as Initial<'company'>) });
      setContact(emptyContact());
    } else {
      setContact(
        e
          ? { firstName: e.firstName, lastName: e.lastName, email: e.email }
          : { ...emptyContact(), ...(props.initial as Initial<'contact'>) },
      );
      setCompany(emptyCompany());
    }
    setOwnerId(editing ? (editing.owner?.id ?? null) : (props.defaultOwnerId ?? null));
    setMode(props.link ? 'existing' : 'none');
    setPicked(props.link ?? null);
    setSubmitted(false);
    setServerIssues(NO_ISSUES);
    setError(null);
    setBusy(false);
    // Reset only when the dialog opens (or switches record), not on every parent render.
  }, [open, editing?.id]);

  /** Records of the other kind already linked: not offered again in the picker. */
  const linkedIds = useMemo(() => {
    if (!editing || !('entityMapping' in editing)) return new Set<string>();
    const mapping = editing.entityMapping as { companyId: string; contactId: string }[];
    return new Set(mapping.map((m) => (kind === 'company' ? m.contactId : m.companyId)));
  }, [editing, kind]);

  const problems = {
    company: () => companyProblems(company),
    contact: () => contactProblems(contact),
  };
  const ownErrors = submitted ? problems[kind]() : {};
  const otherErrors = submitted && mode === 'new' ? problems[other]() : {};
  const pickError = submitted && mode === 'existing' && !picked ? text.pick : undefined;

  const clearServer = () => {
    setServerIssues(NO_ISSUES);
    setError(null);
  };

  const request = () => {
    const assign = mode === 'existing' && picked ? picked.id : null;
    if (kind === 'company') {
      const body = { ...trimCompany(company), accountOwnerId: ownerId };
      return editing
        ? api.companies.update({ id: editing.id, company: body, accountOwnerId: ownerId, ...(assign ? { assignContactId: assign } : {}) })
        : api.companies.create({
            company: body,
            // A contact created with the company gets the same owner.
            ...(mode === 'new' ? { contact: { ...trimContact(contact), accountOwnerId: ownerId } } : {}),
            ...(assign ? { assignContactId: assign } : {}),
          });
    }
    const body = { ...trimContact(contact), accountOwnerId: ownerId };
    return editing
      ? api.contacts.update({ id: editing.id, contact: body, accountOwnerId: ownerId, ...(assign ? { assignCompanyId: assign } : {}) })
      : api.contacts.create({
          contact: body,
          // A company created with the contact gets the same owner.
          ...(mode === 'new' ? { company: { ...trimCompany(company), accountOwnerId: ownerId } } : {}),
          ...(assign ? { assignCompanyId: assign } : {}),
        });
  };

  const save = async () => {
    if (busy) return;
    setSubmitted(true);
    clearServer();
    if (Object.keys({ ...problems[kind](), ...(mode === 'new' ? problems[other]() : {}) }).length > 0 || (mode === 'existing' && !picked))
      return;
    setBusy(true);
    try {
      const res = await request();
      const record = ('company' in res ? res.company : res.contact) as CompanyDetails & ContactDetails;
      notify.success(editing ? text.messages.updated : text.messages.created);
      const linked = mode === 'none' ? [] : record.entityMapping.map((m) => (kind === 'company' ? m.contactId : m.companyId));
      void invalidateRecords(
        queryClient,
        kind === 'company'
          ? { companyIds: [record.id], contactIds: linked, contacts: mode !== 'none' }
          : { contactIds: [record.id], companyIds: linked, companies: mode !== 'none' },
      );
      props.onSaved?.(record as Saved<K>);
      onOpenChange(false);
    } catch (e) {
      const issues = fieldIssues(e);
      setServerIssues({
        company: issuesFor(issues, 'company', kind === 'company'),
        contact: issuesFor(issues, 'contact', kind === 'contact'),
      });
      const message = saveErrorMessage(e, editing ? text.messages.updateFailed : text.messages.createFailed);
      setError(message);
      notify.error(message);
    } finally {
      setBusy(false);
    }
  };

  const fields = (which: RecordKind, prefix: string, errors: Record<string, string>, autoFocus: boolean) =>
    which === 'company' ? (
      <CompanyFieldsGroup
        value={company}
        onChange={(v) => {
          setCompany(v);
          clearServer();
        }}
        errors={{ ...serverIssues.company, ...errors }}
        prefix={prefix}
        disabled={busy}
        autoFocus={autoFocus}
      />
    ) : (
      <ContactFieldsGroup
        value={contact}
        onChange={(v) => {
          setContact(v);
          clearServer();
        }}
        errors={{ ...serverIssues.contact, ...errors }}
        prefix={prefix}
        disabled={busy}
        autoFocus={autoFocus}
      />
    );

  const title = `${isEdit ? 'Edit' : 'New'} ${text.title}`;
  return (
    <Dialog
      open={open}
      modalType="modal"
      onOpenChange={(_, d) => {
        if (!busy) onOpenChange(d.open);
      }}
    >
      <DialogSurface style={surfaceStyle} data-testid={`${kind}-dialog`} data-mode={isEdit ? 'edit' : 'new'} aria-label={title}>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent className={styles.content}>
              {fields(kind, kind, ownErrors, true)}
              <AccountOwnerSelect
                value={ownerId}
                onChange={setOwnerId}
                currentOwner={editing?.owner}
                disabled={busy}
                data-testid={`${kind}-owner`}
              />
              <LinkedRecordSection
                entityType={other}
                mode={mode}
                onModeChange={(m) => {
                  setMode(m);
                  clearServer();
                }}
                allowNew={!isEdit}
                picked={picked}
                onPick={setPicked}
                disabledIds={linkedIds}
                pickError={pickError}
                prefix={`${kind}-${other}`}
                disabled={busy}
                newForm={fields(other, `${kind}-${other}`, otherErrors, false)}
              />
              {error && (
                <MessageBar intent="error" data-testid={`${kind}-dialog-error`}>
                  <MessageBarBody>{error}</MessageBarBody>
                </MessageBar>
              )}
            </DialogContent>
            <DialogActions fluid style={{ justifyContent: 'flex-end', marginTop: 8 }}>
              <Button appearance="secondary" disabled={busy} onClick={() => onOpenChange(false)} data-testid={`${kind}-dialog-cancel`}>
                Cancel
              </Button>
              <Button
                type="submit"
                appearance="primary"
                disabledFocusable={busy}
                icon={busy ? <Spinner aria-hidden size="tiny" /> : undefined}
                data-testid={`${kind}-dialog-save`}
              >
                {isEdit ? 'Save' : 'Create'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
