// The people of an email, for the Outlook add-in: match a message's participants to
// contacts by email, and turn an unknown sender into a contact linked to the company of its email
// domain in one step (the company is found by domain, or created; personal domains get none).
// The use cases are in mailbox.service.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ContactFromEmailBody,
  ContactFromEmailResponse,
  ErrorResponse,
  MatchEmailsBody,
  MatchEmailsResponse,
} from '@dealscout/shared/contracts';
import { MAILBOX_MESSAGES } from '@dealscout/shared/domain';
import { authOf } from '../../../plugins/types';
import type { RecordContext } from '../../records/records.service';
import { createContactFromEmail, matchContactsByEmail } from './mailbox.service';

function ctx(req: FastifyRequest): RecordContext {
  const a = authOf(req);
  return { em: req.em, organizationId: a.organizationId, userId: a.user.id };
}

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
    async (req) => ({ success: true as const, contacts: await matchContactsByEmail(ctx(req), req.body.emails) }),
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
      const { contact, company: c, companyCreated } = await createContactFromEmail(ctx(req), req.body);
      const message = !c
        ? MAILBOX_MESSAGES.personalDomain
        : (companyCreated ? MAILBOX_MESSAGES.companyCreated : MAILBOX_MESSAGES.companyLinked).replace('{company}', c.name);
      return reply.status(201).send({
        success: true as const,
        message,
        contact,
        company: c ? { id: c.id, name: c.name, website: c.website, domain: c.domain } : null,
        companyCreated,
      });
    },
  );
}
