// New and Edit Contact (spec 002 §2 'Modals', §5 'Contact', §8 'Saving companies and contacts'):
// first and last name, email, Account Owner, and a linked company: a new one (validated by the
// company rules) or an existing one. 400 px wide, full width under a plugin; Esc closes.
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
import { CONTACT_MESSAGES, companyProblems, contactProblems } from '../../domain';
import type { ContactDetails, ContactDto } from '../../contracts';
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

export const PICK_COMPANY_MESSAGE = 'Please pick a company';

export interface ContactDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The contact to edit; without it the dialog creates one. */
  contact?: ContactDto | ContactDetails | null;
  /** Preselects 'Existing company' with this company ('Add a contact' from a company's drawer). */
  linkCompany?: PickedRecord | null;
  /** Owner preselected for a new contact (the web app passes the signed-in user). */
  defaultOwnerId?: string | null;
  onSaved?: (contact: ContactDetails) => void;
  /** Prefills a new contact (the Chrome side panel: a person read from a CRM page). */
  initial?: { firstName?: string; lastName?: string; email?: string } | null;
}

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export function ContactDialog(props: ContactDialogProps) {
  const { open, onOpenChange, contact: editing } = props;
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const surfaceStyle = useModalSurfaceStyle();
  const isEdit = !!editing;

  const [contact, setContact] = useState(emptyContact);
  const [ownerId, setOwnerId] = useState<string | null>(null);
  const [mode, setMode] = useState<LinkMode>('none');
  const [company, setCompany] = useState(emptyCompany);
  const [picked, setPicked] = useState<PickedRecord | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [serverIssues, setServerIssues] = useState<{ company: Record<string, string>; contact: Record<string, string> }>({
    company: {},
    contact: {},
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setContact(
      editing
        ? { firstName: editing.firstName, lastName: editing.lastName, email: editing.email }
        : { ...emptyContact(), ...props.initial },
    );
    setOwnerId(editing ? (editing.owner?.id ?? null) : (props.defaultOwnerId ?? null));
    setMode(props.linkCompany ? 'existing' : 'none');
    setCompany(emptyCompany());
    setPicked(props.linkCompany ?? null);
    setSubmitted(false);
    setServerIssues({ company: {}, contact: {} });
    setError(null);
    setBusy(false);
    // Reset only when the dialog opens (or switches record), not on every parent render.
  }, [open, editing?.id]);

  const linkedIds = useMemo(
    () => new Set(editing && 'entityMapping' in editing ? editing.entityMapping.map((m) => m.companyId) : []),
    [editing],
  );

  const contactErrors = submitted ? contactProblems(contact) : {};
  const companyErrors = submitted && mode === 'new' ? companyProblems(company) : {};
  const pickError = submitted && mode === 'existing' && !picked ? PICK_COMPANY_MESSAGE : undefined;

  const clearServer = () => {
    setServerIssues({ company: {}, contact: {} });
    setError(null);
  };

  const save = async () => {
    if (busy) return;
    setSubmitted(true);
    clearServer();
    const problems = { ...contactProblems(contact), ...(mode === 'new' ? companyProblems(company) : {}) };
    if (Object.keys(problems).length > 0 || (mode === 'existing' && !picked)) return;
    setBusy(true);
    const body = { ...trimContact(contact), accountOwnerId: ownerId };
    try {
      const res = editing
        ? await api.contacts.update({
            id: editing.id,
            contact: body,
            accountOwnerId: ownerId,
            ...(mode === 'existing' && picked ? { assignCompanyId: picked.id } : {}),
          })
        : await api.contacts.create({
            contact: body,
            // A company created with the contact gets the same owner.
            ...(mode === 'new' ? { company: { ...trimCompany(company), accountOwnerId: ownerId } } : {}),
            ...(mode === 'existing' && picked ? { assignCompanyId: picked.id } : {}),
          });
      notify.success(editing ? CONTACT_MESSAGES.updated : CONTACT_MESSAGES.created);
      void invalidateRecords(queryClient, {
        contactIds: [res.contact.id],
        companyIds: mode === 'none' ? [] : res.contact.entityMapping.map((m) => m.companyId),
        companies: mode !== 'none',
      });
      props.onSaved?.(res.contact);
      onOpenChange(false);
    } catch (e) {
      const issues = fieldIssues(e);
      setServerIssues({ contact: issuesFor(issues, 'contact', true), company: issuesFor(issues, 'company', false) });
      const message = saveErrorMessage(e, editing ? CONTACT_MESSAGES.updateFailed : CONTACT_MESSAGES.createFailed);
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
      <DialogSurface
        style={surfaceStyle}
        data-testid="contact-dialog"
        data-mode={isEdit ? 'edit' : 'new'}
        aria-label={isEdit ? 'Edit Contact' : 'New Contact'}
      >
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <DialogBody>
            <DialogTitle>{isEdit ? 'Edit Contact' : 'New Contact'}</DialogTitle>
            <DialogContent className={styles.content}>
              <ContactFieldsGroup
                value={contact}
                onChange={(v) => {
                  setContact(v);
                  clearServer();
                }}
                errors={{ ...serverIssues.contact, ...contactErrors }}
                prefix="contact"
                disabled={busy}
                autoFocus
              />
              <AccountOwnerSelect
                value={ownerId}
                onChange={setOwnerId}
                currentOwner={editing?.owner}
                disabled={busy}
                data-testid="contact-owner"
              />
              <LinkedRecordSection
                entityType="company"
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
                prefix="contact-company"
                disabled={busy}
                newForm={
                  <CompanyFieldsGroup
                    value={company}
                    onChange={(v) => {
                      setCompany(v);
                      clearServer();
                    }}
                    errors={{ ...serverIssues.company, ...companyErrors }}
                    prefix="contact-company"
                    disabled={busy}
                  />
                }
              />
              {error && (
                <MessageBar intent="error" data-testid="contact-dialog-error">
                  <MessageBarBody>{error}</MessageBarBody>
                </MessageBar>
              )}
            </DialogContent>
            <DialogActions fluid style={{ justifyContent: 'flex-end', marginTop: 8 }}>
              <Button appearance="secondary" disabled={busy} onClick={() => onOpenChange(false)} data-testid="contact-dialog-cancel">
                Cancel
              </Button>
              <Button
                type="submit"
                appearance="primary"
                disabledFocusable={busy}
                icon={busy ? <Spinner aria-hidden size="tiny" /> : undefined}
                data-testid="contact-dialog-save"
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
