import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../db/organization.entity';
import { User } from '../users/user.entity';

/** A pending invitation holds a seat until it is accepted, revoked or expires. */
export const Invitation = defineEntity({
  name: 'Invitation',
  tableName: 'invitation',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization).index(),
    email: p.string().length(320),
    role: p.string().length(20),
    tokenHash: p.string().length(64).unique(),
    invitedBy: () => p.manyToOne(User).nullable(),
    status: p.string().length(20).default('pending'),
    expiresAt: p.datetime(),
    acceptedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['organization', 'invitedBy'] }],
});
export type IInvitation = InferEntity<typeof Invitation>;
