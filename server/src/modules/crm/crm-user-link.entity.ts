import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../db/organization.entity';
import { User } from '../users/user.entity';

/**
 * A Dealscout user's CRM user (spec 001 §3 'CRM user settings: crmUserId', §4: a user's CRM link
 * cannot be changed once linked). One per user and CRM provider; a CRM user belongs to one
 * Dealscout user of the organization (USER_UNAVAILABLE otherwise). No route updates or deletes it.
 */
export const CrmUserLink = defineEntity({
  name: 'CrmUserLink',
  tableName: 'crm_user_link',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    provider: p.string().length(20),
    crmUserId: p.string().length(255),
    crmUsername: p.string().length(255),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [
    { name: 'crm_user_link_org_provider_crm_user_unique', properties: ['organization', 'provider', 'crmUserId'] },
    { name: 'crm_user_link_org_user_provider_unique', properties: ['organization', 'user', 'provider'] },
  ],
});
export type ICrmUserLink = InferEntity<typeof CrmUserLink>;
