// New and Edit Company (spec 002 §2 'Modals', §5 'Company', §8 'Saving companies and contacts'):
// name, website, Account Owner, and a linked contact: a new one (validated by the contact rules)
// or an existing one. 400 px wide, full width under a plugin; Esc closes.
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
import { COMPANY_MESSAGES, companyProblems, contactProblems } from '../../domain';
import type { CompanyDetails, CompanyDto } from '../../contracts';
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

export const PICK_CONTACT_MESSAGE = 'Please pick a contact';

export interface CompanyDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The company to edit; without it the dialog creates one. */
  company?: CompanyDto | CompanyDetails | null;
  /** Preselects 'Existing contact' with this contact ('Add' from a contact's drawer). */
  linkContact?: PickedRecord | null;
  /** Owner preselected for a new company (the web app passes the signed-in user). */
  defaultOwnerId?: string | null;
  onSaved?: (company: CompanyDetails) => void;
  /** Prefills a new company (the Chrome side panel: the name and website read from a CRM page). */
  initial?: { name?: string; website?: string } | null;
}

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export function CompanyDialog(props: CompanyDialogProps) {
  const { open, onOpenChange, company: editing } = props;
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const surfaceStyle = useModalSurfaceStyle();
  const isEdit = !!editing;

  const [company, setCompany] = useState(emptyCompany);
  const [ownerId, setOwnerId] = useState<string | null>(null);
  const [mode, setMode] = useState<LinkMode>('none');
  const [contact, setContact] = useState(emptyContact);
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
    setCompany(editing ? { name: editing.name, website: editing.website } : { ...emptyCompany(), ...props.initial });
    setOwnerId(editing ? (editing.owner?.id ?? null) : (props.defaultOwnerId ?? null));
    setMode(props.linkContact ? 'existing' : 'none');
    setContact(emptyContact());
    setPicked(props.linkContact ?? null);
    setSubmitted(false);
    setServerIssues({ company: {}, contact: {} });
    setError(null);
    setBusy(false);
    // Reset only when the dialog opens (or switches record), not on every parent render.
  }, [open, editing?.id]);

  const linkedIds = useMemo(
    () => new Set(editing && 'entityMapping' in editing ? editing.entityMapping.map((m) => m.contactId) : []),
    [editing],
  );

  const companyErrors = submitted ? companyProblems(company) : {};
  const contactErrors = submitted && mode === 'new' ? contactProblems(contact) : {};
  const pickError = submitted && mode === 'existing' && !picked ? PICK_CONTACT_MESSAGE : undefined;

  const clearServer = () => {
    setServerIssues({ company: {}, contact: {} });
    setError(null);
  };

  const save = async () => {
    if (busy) return;
    setSubmitted(true);
    clearServer();
    const problems = { ...companyProblems(company), ...(mode === 'new' ? contactProblems(contact) : {}) };
    if (Object.keys(problems).length > 0 || (mode === 'existing' && !picked)) return;
    setBusy(true);
    const body = { ...trimCompany(company), accountOwnerId: ownerId };
    try {
      const res = editing
        ? await api.companies.update({
            id: editing.id,
            company: body,
            accountOwnerId: ownerId,
            ...(mode === 'existing' && picked ? { assignContactId: picked.id } : {}),
          })
        : await api.companies.create({
            company: body,
            // A contact created with the company gets the same owner.
            ...(mode === 'new' ? { contact: { ...trimContact(contact), accountOwnerId: ownerId } } : {}),
            ...(mode === 'existing' && picked ? { assignContactId: picked.id } : {}),
          });
      notify.success(editing ? COMPANY_MESSAGES.updated : COMPANY_MESSAGES.created);
      void invalidateRecords(queryClient, {
        companyIds: [res.company.id],
        contactIds: mode === 'none' ? [] : res.company.entityMapping.map((m) => m.contactId),
        contacts: mode !== 'none',
      });
      props.onSaved?.(res.company);
      onOpenChange(false);
    } catch (e) {
      const issues = fieldIssues(e);
      setServerIssues({ company: issuesFor(issues, 'company', true), contact: issuesFor(issues, 'contact', false) });
      const message = saveErrorMessage(e, editing ? COMPANY_MESSAGES.updateFailed : COMPANY_MESSAGES.createFailed);
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
        data-testid="company-dialog"
        data-mode={isEdit ? 'edit' : 'new'}
        aria-label={isEdit ? 'Edit Company' : 'New Company'}
      >
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <DialogBody>
            <DialogTitle>{isEdit ? 'Edit Company' : 'New Company'}</DialogTitle>
            <DialogContent className={styles.content}>
              <CompanyFieldsGroup
                value={company}
                onChange={(v) => {
                  setCompany(v);
                  clearServer();
                }}
                errors={{ ...serverIssues.company, ...companyErrors }}
                prefix="company"
                disabled={busy}
                autoFocus
              />
              <AccountOwnerSelect
                value={ownerId}
                onChange={setOwnerId}
                currentOwner={editing?.owner}
                disabled={busy}
                data-testid="company-owner"
              />
              <LinkedRecordSection
                entityType="contact"
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
                prefix="company-contact"
                disabled={busy}
                newForm={
                  <ContactFieldsGroup
                    value={contact}
                    onChange={(v) => {
                      setContact(v);
                      clearServer();
                    }}
                    errors={{ ...serverIssues.contact, ...contactErrors }}
                    prefix="company-contact"
                    disabled={busy}
                  />
                }
              />
              {error && (
                <MessageBar intent="error" data-testid="company-dialog-error">
                  <MessageBarBody>{error}</MessageBarBody>
                </MessageBar>
              )}
            </DialogContent>
            <DialogActions fluid style={{ justifyContent: 'flex-end', marginTop: 8 }}>
              <Button appearance="secondary" disabled={busy} onClick={() => onOpenChange(false)} data-testid="company-dialog-cancel">
                Cancel
              </Button>
              <Button
                type="submit"
                appearance="primary"
                disabledFocusable={busy}
                icon={busy ? <Spinner aria-hidden size="tiny" /> : undefined}
                data-testid="company-dialog-save"
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
