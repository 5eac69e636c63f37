// The Outlook add-in's calls about the people of an email.
import { z } from 'zod';
import { COMPANY_MESSAGES, COMPANY_NAME_MAX, CONTACT_EMAIL_MAX } from '../domain/records';
import { MAILBOX_MESSAGES, MAX_MATCH_EMAILS } from '../domain/mailbox';
import { CompanyRef, ContactDetails, ContactInput, ContactRef } from './records';

// POST /api/v1/contact/match-emails — the contacts whose email is one of these (case-insensitive).
export const MatchEmailsBody = z.object({
  emails: z
    .array(z.string().trim().max(CONTACT_EMAIL_MAX), { message: MAILBOX_MESSAGES.emailsRequired })
    .min(1, MAILBOX_MESSAGES.emailsRequired)
    .max(MAX_MATCH_EMAILS, MAILBOX_MESSAGES.tooManyEmails),
});
export type MatchEmailsBody = z.infer<typeof MatchEmailsBody>;
export const MatchedContact = ContactRef.extend({ primaryCompany: CompanyRef.nullable() });
export type MatchedContact = z.infer<typeof MatchedContact>;
export const MatchEmailsResponse = z.object({ success: z.literal(true), contacts: z.array(MatchedContact) });
export type MatchEmailsResponse = z.infer<typeof MatchEmailsResponse>;

// POST /api/v1/contact/from-email — an unknown sender in one step: the contact, linked to the
// company of its email's domain (found, or created with `companyName`; none for personal domains).
export const ContactFromEmailBody = z.object({
  contact: ContactInput,
  companyName: z.string().trim().max(COMPANY_NAME_MAX, COMPANY_MESSAGES.nameMax).optional().nullable(),
});
export type ContactFromEmailBody = z.infer<typeof ContactFromEmailBody>;
export const ContactFromEmailResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  contact: ContactDetails,
  company: CompanyRef.nullable(),
  companyCreated: z.boolean(),
});
export type ContactFromEmailResponse = z.infer<typeof ContactFromEmailResponse>;
