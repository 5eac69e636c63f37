import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../db/organization.entity';
import { User } from '../users/user.entity';

export const Company = defineEntity({
  name: 'Company',
  tableName: 'company',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    name: p.string().length(255),
    website: p.string().length(255),
    /** Normalized from the website; unique per organization. */
    domain: p.string().length(255),
    owner: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['organization', 'id'] }],
});
export type ICompany = InferEntity<typeof Company>;

export const Contact = defineEntity({
  name: 'Contact',
  tableName: 'contact',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    firstName: p.string().length(128),
    lastName: p.string().length(128),
    email: p.string().length(128),
    owner: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['organization', 'id'] }],
});
export type IContact = InferEntity<typeof Contact>;

/** A company ↔ contact link: isKey marks the company's key contact, isPrimary the contact's primary company. */
export const CompanyContact = defineEntity({
  name: 'CompanyContact',
  tableName: 'company_contact',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    company: () => p.manyToOne(Company).deleteRule('cascade'),
    contact: () => p.manyToOne(Contact).deleteRule('cascade'),
    isKey: p.boolean().default(false),
    isPrimary: p.boolean().default(false),
    label: p.string().length(100).nullable(),
    value: p.string().length(255).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['organization', 'company', 'contact'] }],
  indexes: [{ properties: ['organization', 'contact'] }],
});
export type ICompanyContact = InferEntity<typeof CompanyContact>;

/** A user's saved column layout for the companies or contacts table. */
export const TableLayout = defineEntity({
  name: 'TableLayout',
  tableName: 'table_layout',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization).index(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    entityType: p.string().length(20),
    name: p.string().length(100),
    columns: p.json<{ key: string; order: number; width: number; visible: boolean }[]>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [{ properties: ['organization', 'user'] }],
});
export type ITableLayout = InferEntity<typeof TableLayout>;

/**
 * How many companies / contacts an organization has, kept by triggers on those tables (migration
 * Migration20261122050000): every insert or delete statement appends one row per organization
 * with the change, so concurrent writers never wait on a shared counter row. The count is the sum
 * of an organization's rows; readers fold them into one row now and then (table-query.ts
 * `recordTotal`). It makes the total of an unfiltered table O(1) instead of a scan of every row.
 */
export const RecordCount = defineEntity({
  name: 'RecordCount',
  tableName: 'record_count',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    entityType: p.string().length(20),
    /**
     * Null: a change of the number of records. A slot number (1–32): a change of the number of
     * records whose slot column holds a value (the typed copies of custom field values,
     * fields/projection.ts; triggers of Migration20261122172000), so a sort by a custom field knows
     * where the rows without a value start. 0: a change of the number of companies with a key
     * contact / contacts with a primary company (Migration20261122220200), for those sorts. -1:
     * a change of the number of records owned by owner_id (Migration20261122234000), for the owner sort.
     */
    slot: p.smallint().nullable(),
    /** With slot -1: the owner (a user) whose number of records changed. */
    ownerId: p.uuid().nullable(),
    delta: p.bigint('number'),
  },
  // With the slot, so the totals are read without stepping over the slot rows (and the reverse).
  indexes: [{ name: 'record_count_org_type_index', properties: ['organization', 'entityType', 'slot'] }],
});
export type IRecordCount = InferEntity<typeof RecordCount>;
