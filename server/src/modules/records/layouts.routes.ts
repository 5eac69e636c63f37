import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  TableLayoutBody,
  UpdateTableLayoutBody,
  TableLayoutsResponse,
  TableLayoutResponse,
  SuccessResponse,
  ErrorResponse,
  type TableLayoutDto,
} from '@dealscout/shared/contracts';
import type { ITableLayout } from './records.entity';
import { authOf } from '../../plugins/types';
import type { RecordContext } from './records.service';
import { createLayout, deleteLayout, listLayouts, updateLayout } from './layouts.service';

const Params = z.object({ entityType: z.enum(['company', 'contact']) });
const IdParams = Params.extend({ id: z.uuid() });

function toDto(l: ITableLayout): TableLayoutDto {
  return {
    id: l.id,
    entityType: l.entityType as TableLayoutDto['entityType'],
    name: l.name,
    columns: l.columns,
    updatedAt: l.updatedAt.toISOString(),
  };
}

function ctx(req: FastifyRequest): RecordContext {
  const a = authOf(req);
  return { em: req.em, organizationId: a.organizationId, userId: a.user.id };
}

/** Per-user column layouts of the companies and contacts tables (order, width, visibility). */
export async function layoutRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/user/tablelayout/:entityType',
    {
      schema: { tags: ['user'], summary: "The caller's saved layouts of a table", params: Params, response: { 200: TableLayoutsResponse } },
    },
    async (req) => {
      const layouts = await listLayouts(ctx(req), req.params.entityType);
      return { success: true as const, layouts: layouts.map(toDto) };
    },
  );

  r.post(
    '/user/tablelayout/:entityType',
    {
      schema: {
        tags: ['user'],
        summary: 'Save a new layout (201)',
        params: Params,
        body: TableLayoutBody,
        response: { 201: TableLayoutResponse },
      },
    },
    async (req, reply) => {
      const layout = await createLayout(ctx(req), req.params.entityType, req.body);
      return reply.status(201).send({ success: true as const, layout: toDto(layout) });
    },
  );

  r.put(
    '/user/tablelayout/:entityType',
    {
      schema: {
        tags: ['user'],
        summary: 'Change a saved layout',
        params: Params,
        body: UpdateTableLayoutBody,
        response: { 200: TableLayoutResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const layout = await updateLayout(ctx(req), req.params.entityType, req.body);
      return { success: true as const, layout: toDto(layout) };
    },
  );

  r.delete(
    '/user/tablelayout/:entityType/:id',
    {
      schema: {
        tags: ['user'],
        summary: 'Delete a saved layout',
        params: IdParams,
        response: { 200: SuccessResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      await deleteLayout(ctx(req), req.params.entityType, req.params.id);
      return { success: true as const, message: 'Layout deleted' };
    },
  );
}
