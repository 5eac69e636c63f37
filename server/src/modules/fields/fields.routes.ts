import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  EntityTypeQuery,
  GetFieldsResponse,
  GetFilterFieldsResponse,
  CreateFieldBody,
  FieldResponse,
  SetFieldConfigBody,
  ErrorResponse,
} from '@dealscout/shared/contracts';
import { FIELD_MESSAGES } from '@dealscout/shared/domain';
import { authOf } from '../../plugins/types';
import { listFields, organizationCurrency, toFieldDto, toFilterFieldDto, createCustomField, setFieldConfig } from './fields.service';
import { assignedEnrichments } from './assigned-enrichments';
import { publishFieldsChanged } from './fields-events';

export async function fieldRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/entity/fields',
    {
      schema: {
        tags: ['fields'],
        summary: 'Field definitions (built-in and custom) of companies and/or contacts',
        querystring: EntityTypeQuery,
        response: { 200: GetFieldsResponse },
      },
    },
    async (req) => {
      const currency = await organizationCurrency(req.em, authOf(req).organizationId);
      const fields = (await listFields(req.em, req.query.entityType)).map((f) => toFieldDto(f, currency));
      const assigned = await assignedEnrichments(req.em, authOf(req).organizationId);
      return { success: true as const, fields: fields.map((f) => ({ ...f, assignedEnrichments: assigned.get(f.id) ?? [] })) };
    },
  );

  r.get(
    '/entity/filters-fields',
    {
      schema: {
        tags: ['fields'],
        summary: 'Fields a table can filter on, with the conditions of each',
        querystring: EntityTypeQuery,
        response: { 200: GetFilterFieldsResponse },
      },
    },
    async (req) => {
      const fields = (await listFields(req.em, req.query.entityType)).filter((f) => f.builtInColumn !== 'id');
      return { success: true as const, fields: fields.map(toFilterFieldDto) };
    },
  );

  r.post(
    '/entity/field',
    {
      schema: {
        tags: ['fields'],
        summary: 'Create a custom field',
        body: CreateFieldBody,
        response: { 201: FieldResponse, 400: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const field = await createCustomField(req.em, {
        organizationId: auth.organizationId,
        userId: auth.user.id,
        entityType: req.body.entityType,
        label: req.body.label,
        dataType: req.body.dataType,
        config: req.body.config,
      });
      // After the field is stored (its slot pick retries on a unique index, so no wrapping transaction):
      // a failed announcement only leaves other screens to their next read.
      await publishFieldsChanged(req.em, auth.organizationId, [req.body.entityType]).catch((err: unknown) =>
        req.log.warn({ err }, 'field created; realtime event not written'),
      );
      return reply.status(201).send({
        success: true as const,
        message: FIELD_MESSAGES.created,
        field: toFieldDto(field, await organizationCurrency(req.em, auth.organizationId)),
      });
    },
  );

  r.put(
    '/entity/set-config',
    {
      schema: {
        tags: ['fields'],
        summary: "Set a field's reconciliation and refresh schedule",
        body: SetFieldConfigBody,
        response: { 200: FieldResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const field = await setFieldConfig(req.em, authOf(req).organizationId, req.body.fieldId, req.body.config);
      return {
        success: true as const,
        message: 'Field updated',
        field: toFieldDto(field, await organizationCurrency(req.em, authOf(req).organizationId)),
      };
    },
  );
}
