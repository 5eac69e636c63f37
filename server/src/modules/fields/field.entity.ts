import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../db/organization.entity';
import { User } from '../users/user.entity';

/**
 * A field of companies or contacts. Built-in fields (name, website…) map to a column of the record
 * (`builtInColumn`) and are mandatory; custom fields keep their values in `field_value`.
 */
export const FieldDefinition = defineEntity({
  name: 'FieldDefinition',
  tableName: 'field_definition',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization).index(),
    entityType: p.string().length(20),
    key: p.string().length(120),
    label: p.string().length(120),
    dataType: p.string().length(20),
    namespace: p.string().length(30),
    isMandatory: p.boolean().default(false),
    isPseudo: p.boolean().default(false),
    builtInColumn: p.string().length(40).nullable(),
    /** The record column holding a typed copy of this custom field's values (projection.ts), or null. */
    slot: p.smallint().nullable(),
    config: p
      .json<{ reconciliation: 'use_latest' | 'keep_existing'; refreshSchedule: string; currency?: string | null }>()
      .onCreate(() => ({ reconciliation: 'use_latest', refreshSchedule: 'never' })),
    createdBy: () => p.manyToOne(User).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['organization', 'entityType', 'key'] }, { properties: ['organization', 'id'] }],
  indexes: [{ properties: ['organization', 'createdBy'] }],
});
export type IFieldDefinition = InferEntity<typeof FieldDefinition>;

/**
 * One value of a custom field for one company or contact. `value` is the value as given; the typed
 * projections (value_text, value_num, value_bool) carry indexes so filters and sorts on custom
 * fields use an index instead of parsing JSON row by row.
 */
export const FieldValue = defineEntity({
  name: 'FieldValue',
  tableName: 'field_value',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    entityType: p.string().length(20),
    entityId: p.uuid(),
    field: () => p.manyToOne(FieldDefinition).deleteRule('cascade'),
    value: p.json<unknown>().nullable(),
    valueText: p.text().nullable(),
    valueNum: p.double().nullable(),
    valueBool: p.boolean().nullable(),
    infoValue: p.json<unknown>().nullable(),
    status: p.string().length(20).nullable(),
    statusMessage: p.text().nullable(),
    details: p.json<unknown>().nullable(),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['organization', 'field', 'entityId'] }],
  indexes: [{ properties: ['organization', 'entityId'] }],
});
export type IFieldValue = InferEntity<typeof FieldValue>;
