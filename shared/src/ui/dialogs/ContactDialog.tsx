// New and Edit Contact: the record dialog for a contact, its linked record a company.
import type { ContactDetails, ContactDto } from '../../contracts';
import { RecordDialog } from './RecordDialog';
import type { PickedRecord } from './RecordFormFields';

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

export function ContactDialog({ contact, linkCompany, ...props }: ContactDialogProps) {
  return <RecordDialog kind="contact" editing={contact} link={linkCompany} {...props} />;
}
