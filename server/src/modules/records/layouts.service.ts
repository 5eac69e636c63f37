// The caller's saved column layouts of the companies and contacts tables (routes in layouts.routes.ts):
// list, save, change and delete. A layout is its user's own: another user's is not found.
import type { z } from 'zod';
import type { TableLayoutBody, UpdateTableLayoutBody } from '@dealscout/shared/contracts';
import { notFound } from '../../lib/errors';
import { TableLayout, type ITableLayout } from './records.entity';
import type { RecordContext } from './records.service';

export type LayoutEntityType = 'company' | 'contact';

/** The caller's layouts of a table, oldest first. */
export async function listLayouts(ctx: RecordContext, entityType: LayoutEntityType): Promise<ITableLayout[]> {
  return ctx.em.find(TableLayout, { user: ctx.userId, entityType }, { orderBy: { createdAt: 'asc' } });
}

/** Saves a new layout of the caller's. */
export async function createLayout(
  ctx: RecordContext,
  entityType: LayoutEntityType,
  input: z.output<typeof TableLayoutBody>,
): Promise<ITableLayout> {
  const layout = ctx.em.create(TableLayout, {
    organization: ctx.organizationId,
    user: ctx.userId,
    entityType,
    name: input.name,
    columns: input.columns,
  });
  await ctx.em.flush();
  return layout;
}

/** Renames a layout of the caller's and replaces its columns (404 when it is not theirs). */
export async function updateLayout(
  ctx: RecordContext,
  entityType: LayoutEntityType,
  input: z.output<typeof UpdateTableLayoutBody>,
): Promise<ITableLayout> {
  const layout = await ctx.em.findOne(TableLayout, { id: input.id, user: ctx.userId, entityType });
  if (!layout) throw notFound();
  layout.name = input.name;
  layout.columns = input.columns;
  await ctx.em.flush();
  return layout;
}

/** Deletes a layout of the caller's (404 when it is not theirs). */
export async function deleteLayout(ctx: RecordContext, entityType: LayoutEntityType, id: string): Promise<void> {
  const n = await ctx.em.nativeDelete(TableLayout, { id, user: ctx.userId, entityType });
  if (n !== 1) throw notFound();
}
