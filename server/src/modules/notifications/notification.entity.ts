import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../db/organization.entity';
import { User } from '../users/user.entity';

/** A user's notification (spec 000 §3); one row per uniqueKey and user. */
export const Notification = defineEntity({
  name: 'Notification',
  tableName: 'notification',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    /** warning | error | info */
    level: p.string().length(10),
    uniqueKey: p.string().length(200).nullable(),
    read: p.boolean().default(false),
    href: p.string().length(500).nullable(),
    message: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'notification_org_user_key_unique', properties: ['organization', 'user', 'uniqueKey'] }],
  indexes: [{ name: 'notification_org_user_created_index', properties: ['organization', 'user', 'createdAt'] }],
});
export type INotification = InferEntity<typeof Notification>;
