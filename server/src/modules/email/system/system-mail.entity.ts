import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../../db/organization.entity';

/**
 * System mail (password reset, invitations). Always written here first; with SMTP configured it is
 * then sent and marked 'sent', otherwise it stays 'stored' and the log points to it.
 */
export const SystemMail = defineEntity({
  name: 'SystemMail',
  tableName: 'system_mail',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization).index(),
    to: p.string().length(320),
    subject: p.string().length(300),
    text: p.text(),
    kind: p.string().length(40),
    status: p.string().length(20).default('stored'),
    error: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    sentAt: p.datetime().nullable(),
  },
});
export type ISystemMail = InferEntity<typeof SystemMail>;
