// PUT /entity/company/field and /entity/contact/field: one custom field value of a record (an empty
// value clears it), written through records.service's setFieldValue.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SetFieldValueBody, SetFieldValueResponse, ErrorResponse } from '@dealscout/shared/contracts';
import { ENTITY_MESSAGES } from '@dealscout/shared/domain';
import { authOf } from '../../plugins/types';
import { setFieldValue } from './records.service';

export async function fieldValueRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  for (const entityType of ['company', 'contact'] as const) {
    r.put(
      `/entity/${entityType}/field`,
      {
        schema: {
          tags: ['fields'],
          summary: `Set one custom field value of a ${entityType} (an empty value clears it)`,
          body: SetFieldValueBody,
          response: { 200: SetFieldValueResponse, 400: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const value = await setFieldValue(
          req.em,
          { organizationId: auth.organizationId, userId: auth.user.id },
          entityType,
          req.body.entityId,
          req.body.fieldId,
          req.body.value,
        );
        return { success: true as const, message: ENTITY_MESSAGES.valueSaved, value };
      },
    );
  }
}
