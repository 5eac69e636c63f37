// New and Edit Company: the record dialog for a company, its linked record a contact.
import type { CompanyDetails, CompanyDto } from '../../contracts';
import { RecordDialog } from './RecordDialog';
import type { PickedRecord } from './RecordFormFields';

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

export function CompanyDialog({ company, linkContact, ...props }: CompanyDialogProps) {
  return <RecordDialog kind="company" editing={company} link={linkContact} {...props} />;
}
