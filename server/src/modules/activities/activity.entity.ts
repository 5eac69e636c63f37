import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../db/organization.entity';
import { User } from '../users/user.entity';
import { Company, Contact } from '../records/records.entity';

/**
 * An activity (spec 000 §3): logged by hand ('manual'), or written by sending email, plays and CRM
 * sync. Its group ('Upcoming', 'Recent', month) is computed when presented, so it never goes stale.
 * Deleting a company or contact keeps the other side's history (set null).
 */
export const Activity = defineEntity({
  name: 'Activity',
  tableName: 'activity',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    /** email | f2f | text | call | chat | video | other | crm */
    type: p.string().length(10),
    title: p.string().length(255).nullable(),
    /** YYYY-MM-DD */
    date: p.date(),
    dueDate: p.datetime().nullable(),
    /** scheduled | error */
    status: p.string().length(20).nullable(),
    /** manual | email | play | crm */
    source: p.string().length(20).default('manual'),
    sourceId: p.string().length(255).nullable(),
    content: p.text(),
    subject: p.string().length(500).nullable(),
    to: p.string().length(1000).nullable(),
    others: p
      .json<string[]>()
      .defaultRaw(`'[]'`)
      .onCreate(() => []),
    by: p.string().length(255).nullable(),
    followUp: p.boolean().default(false),
    errorMessage: p.text().nullable(),
    /** A sent email answered (the Inbox delta query matched a reply in its conversation). */
    repliedAt: p.datetime().nullable(),
    company: () => p.manyToOne(Company).nullable().deleteRule('set null'),
    contact: () => p.manyToOne(Contact).nullable().deleteRule('set null'),
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [
    { name: 'activity_org_company_date_index', properties: ['organization', 'company', 'date'] },
    { name: 'activity_org_contact_date_index', properties: ['organization', 'contact', 'date'] },
    // An email's activity by its source (send records, Cancel Send & Edit, replies: Migration20261128120000).
    { name: 'activity_org_source_index', properties: ['organization', 'source', 'sourceId'] },
  ],
});
export type IActivity = InferEntity<typeof Activity>;
