import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../db/organization.entity';

export const User = defineEntity({
  name: 'User',
  tableName: 'app_user',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization).index(),
    // Lowercased; one live account per address across the product (sign-in is by email alone):
    // a partial unique index (deleted = false) in the migration, so a deleted user's address can join again.
    email: p.string().length(320).index(),
    firstName: p.string().length(100).default(''),
    lastName: p.string().length(100).default(''),
    role: p.string().length(20).default('User'),
    status: p.string().length(20).default('active'),
    deleted: p.boolean().default(false),
    invitationAccepted: p.boolean().default(true),
    passwordHash: p.string().length(300).nullable().hidden(),
    // JSON defaults: the SQL default for raw inserts, and an object for the ORM (a string default
    // would be stored as a JSON string, not an object).
    settings: p
      .json<Record<string, unknown>>()
      .defaultRaw(`'{}'`)
      .onCreate(() => ({})),
    calendar: p
      .json<Record<string, unknown>>()
      .defaultRaw(`'{"meetingLength":30}'`)
      .onCreate(() => ({ meetingLength: 30 })),
    /** The user's email signature (plain text), added under generated and sent emails. */
    emailSignature: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  // What references from other tenant tables point at (organization_id, id).
  uniques: [{ properties: ['organization', 'id'] }],
});
export type IUser = InferEntity<typeof User>;
