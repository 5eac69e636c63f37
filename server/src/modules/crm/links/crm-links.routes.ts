import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorResponse, LookupBody, LookupResponse } from '@dealscout/shared/contracts';
import { authOf } from '../../../plugins/types';
import { lookupRecord } from './lookup';
import { companyDetails, contactDetails } from '../../records/presenter';

export async function crmLinkRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/entity/lookup',
    {
      schema: {
        tags: ['companies', 'contacts'],
        summary:
          'The company or contact a CRM or LinkedIn page shows: by the CRM id, then by domain (companies) or email ' +
          '(contacts); remembers the CRM id of a match; the match comes with its details',
        body: LookupBody,
        response: { 200: LookupResponse, 400: ErrorResponse },
      },
    },
    async (req) => {
      const organizationId = authOf(req).organizationId;
      const match = await lookupRecord(req.em, { organizationId, ...req.body });
      if (!match) return { success: true as const, match };
      if (match.entityType === 'company')
        return { success: true as const, match, company: await companyDetails(req.em, organizationId, match.id) };
      return { success: true as const, match, contact: await contactDetails(req.em, organizationId, match.id) };
    },
  );
}
