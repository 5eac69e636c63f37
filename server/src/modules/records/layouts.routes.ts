import type { FastifyInstance } from 'fastify';
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
import { TableLayout, type ITableLayout } from './records.entity';
import { authOf } from '../../plugins/types';
import { notFound } from '../../lib/errors';

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

/** Per-user column layouts of the companies and contacts tables (order, width, visibility). */
export async function layoutRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/user/tablelayout/:entityType',
    {
      schema: { tags: ['user'], summary: "The caller's saved layouts of a table", params: Params, response: { 200: TableLayoutsResponse } },
    },
    async (req) => {
      const { user } = authOf(req);
      const layouts = await req.em.find(
        TableLayout,
        { user: user.id, entityType: req.params.entityType },
        { orderBy: { createdAt: 'asc' } },
      );
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
      const auth = authOf(req);
      const layout = req.em.create(TableLayout, {
        organization: auth.organizationId,
        user: auth.user.id,
        entityType: req.params.entityType,
        name: req.body.name,
        columns: req.body.columns,
      });
      await req.em.flush();
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
      const { user } = authOf(req);
      const layout = await req.em.findOne(TableLayout, { id: req.body.id, user: user.id, entityType: req.params.entityType });
      if (!layout) throw notFound();
      layout.name = req.body.name;
      layout.columns = req.body.columns;
      await req.em.flush();
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
      const { user } = authOf(req);
      const n = await req.em.nativeDelete(TableLayout, { id: req.params.id, user: user.id, entityType: req.params.entityType });
      if (n !== 1) throw notFound();
      return { success: true as const, message: 'Layout deleted' };
    },
  );
}
