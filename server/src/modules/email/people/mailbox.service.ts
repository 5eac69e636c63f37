// The people of an email's use cases (routes in mailbox.routes.ts): the contacts among a message's
// participants, and an unknown sender made a contact linked to the company of its email domain.
// Each receives one RecordContext: the request's EntityManager and the caller.
import type { ContactDetails, ContactFromEmailBody, MatchedContact } from '@dealscout/shared/contracts';
import { CONTACT_MESSAGES, companyNameFromDomain, emailDomain, isPersonalEmailDomain, normalizeEmail } from '@dealscout/shared/domain';
import { notFound } from '../../../lib/errors';
import { Company, Contact, type ICompany } from '../../records/records.entity';
import { createCompany, createContact, linkCompanyContact, type RecordContext } from '../../records/records.service';
import { contactDetails, contactRows } from '../../records/presenter';

/** The contacts whose email is one of these, in the order asked (the sender first), one per address. */
export async function matchContactsByEmail(ctx: RecordContext, addresses: readonly string[]): Promise<MatchedContact[]> {
  const emails = [...new Set(addresses.map(normalizeEmail).filter(Boolean))];
  const found = emails.length
    ? await ctx.em.find(Contact, { organization: ctx.organizationId, email: { $in: emails } }, { fields: ['id', 'email'] })
    : [];
  const rows = await contactRows(
    ctx.em,
    ctx.organizationId,
    found.map((c) => c.id),
  );
  const byEmail = new Map(rows.map((c) => [c.email, c]));
  return emails.flatMap((e) => {
    const c = byEmail.get(e);
    return c ? [{ id: c.id, firstName: c.firstName, lastName: c.lastName, email: c.email, primaryCompany: c.primaryCompany }] : [];
  });
}

export interface ContactFromEmail {
  contact: ContactDetails;
  /** The company of the email's domain, found or created; null for a personal domain. */
  company: ICompany | null;
  companyCreated: boolean;
}

/**
 * Creates an email's unknown sender as a contact and links it to the company of its email domain
 * (found by domain, or created with `companyName` or a name from the domain; personal domains get none).
 */
export async function createContactFromEmail(ctx: RecordContext, input: ContactFromEmailBody): Promise<ContactFromEmail> {
  const domain = emailDomain(input.contact.email ?? '');
  const result = await ctx.em.transactional(async (em) => {
    const contact = await createContact(em, ctx, input.contact);
    if (!domain || isPersonalEmailDomain(domain)) return { contactId: contact.id, company: null as ICompany | null, created: false };
    let company: ICompany | null = await em.findOne(Company, { organization: ctx.organizationId, domain });
    let created = false;
    if (!company) {
      company = await createCompany(em, ctx, {
        name: input.companyName?.trim() || companyNameFromDomain(domain),
        website: domain,
      });
      created = true;
    }
    await linkCompanyContact(em, ctx, company.id, contact.id);
    return { contactId: contact.id, company, created };
  });
  // Other panes and the web app's tables see the new records at once: the record services publish
  // entity.created / entity.updated on org/{oid}/entities/{type} (in the same transactions).
  const contact = await contactDetails(ctx.em, ctx.organizationId, result.contactId);
  if (!contact) throw notFound(CONTACT_MESSAGES.notFound);
  return { contact, company: result.company, companyCreated: result.created };
}
