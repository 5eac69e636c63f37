// The people of an email, for the Outlook add-in: match a message's participants to
// contacts by email, and turn an unknown sender into a contact linked to the company of its email
// domain in one step (the company is found by domain, or created; personal domains get none).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ContactFromEmailBody,
  ContactFromEmailResponse,
  ErrorResponse,
  MatchEmailsBody,
  MatchEmailsResponse,
  type MatchedContact,
} from '@dealscout/shared/contracts';
import {
  CONTACT_MESSAGES,
  MAILBOX_MESSAGES,
  companyNameFromDomain,
  emailDomain,
  isPersonalEmailDomain,
  normalizeEmail,
} from '@dealscout/shared/domain';
import { authOf } from '../../../plugins/types';
import { notFound } from '../../../lib/errors';
import { Company, Contact, type ICompany } from '../../records/records.entity';
import { createCompany, createContact, linkCompanyContact, type Actor } from '../../records/records.service';
import { contactDetails, contactRows } from '../../records/presenter';

export async function mailboxRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/contact/match-emails',
    {
      schema: {
        tags: ['contacts'],
        summary: "Contacts whose email is one of these (an email's sender and recipients, for the Outlook add-in)",
        body: MatchEmailsBody,
        response: { 200: MatchEmailsResponse, 400: ErrorResponse },
      },
    },
    async (req) => {
      const { organizationId } = authOf(req);
      const emails = [...new Set(req.body.emails.map(normalizeEmail).filter(Boolean))];
      const found = emails.length
        ? await req.em.find(Contact, { organization: organizationId, email: { $in: emails } }, { fields: ['id', 'email'] })
        : [];
      const rows = await contactRows(
        req.em,
        organizationId,
        found.map((c) => c.id),
      );
      const byEmail = new Map(rows.map((c) => [c.email, c]));
      // In the order asked (the sender first), one per address.
      const contacts: MatchedContact[] = emails.flatMap((e) => {
        const c = byEmail.get(e);
        return c ? [{ id: c.id, firstName: c.firstName, lastName: c.lastName, email: c.email, primaryCompany: c.primaryCompany }] : [];
      });
      return { success: true as const, contacts };
    },
  );

  r.post(
    '/contact/from-email',
    {
      schema: {
        tags: ['contacts'],
        summary: "Create an email's unknown sender as a contact, linked to the company of its email domain (found or created)",
        body: ContactFromEmailBody,
        response: { 201: ContactFromEmailResponse, 400: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const a = authOf(req);
      const actor: Actor = { organizationId: a.organizationId, userId: a.user.id };
      const domain = emailDomain(req.body.contact.email ?? '');
      const result = await req.em.transactional(async (em) => {
        const contact = await createContact(em, actor, req.body.contact);
        if (!domain || isPersonalEmailDomain(domain)) return { contactId: contact.id, company: null as ICompany | null, created: false };
        let company: ICompany | null = await em.findOne(Company, { organization: actor.organizationId, domain });
        let created = false;
        if (!company) {
          company = await createCompany(em, actor, {
            name: req.body.companyName?.trim() || companyNameFromDomain(domain),
            website: domain,
          });
          created = true;
        }
        await linkCompanyContact(em, actor, company.id, contact.id);
        return { contactId: contact.id, company, created };
      });
      // Other panes and the web app's tables see the new records at once: the record services publish
      // entity.created / entity.updated on org/{oid}/entities/{type} (in the same transactions).
      const contact = await contactDetails(req.em, actor.organizationId, result.contactId);
      if (!contact) throw notFound(CONTACT_MESSAGES.notFound);
      const c = result.company;
      const message = !c
        ? MAILBOX_MESSAGES.personalDomain
        : (result.created ? MAILBOX_MESSAGES.companyCreated : MAILBOX_MESSAGES.companyLinked).replace('{company}', c.name);
      return reply.status(201).send({
        success: true as const,
        message,
        contact,
        company: c ? { id: c.id, name: c.name, website: c.website, domain: c.domain } : null,
        companyCreated: result.created,
      });
    },
  );
}
