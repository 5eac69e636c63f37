import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../../db/organization.entity';
import { Company, Contact } from '../../records/records.entity';

/**
 * A record's id in an outside system (a Salesforce Account or Contact, an Affinity organization or
 * person, a LinkedIn company, a HubSpot company): the Chrome side panel finds the record of the page
 * in front of the user by it before trying the domain or email. Exactly one of company / contact is
 * set; deleting the record deletes its links. One record per (organization, source, type, id).
 */
export const CrmLink = defineEntity({
  name: 'CrmLink',
  tableName: 'crm_link',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    source: p.string().length(20),
    entityType: p.string().length(20),
    externalId: p.string().length(255),
    company: () => p.manyToOne(Company).nullable().deleteRule('cascade'),
    contact: () => p.manyToOne(Contact).nullable().deleteRule('cascade'),
    /** CRM sync: the mapped fields' values both sides last agreed on, by CRM field name (crm/sync/push.ts). */
    crmValues: p.json<Record<string, string | null>>().nullable(),
    /** When crm_values last changed because the CRM's values did (a read that found them changed). */
    crmValuesAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  checks: [{ name: 'crm_link_one_record_check', expression: '(company_id is null) <> (contact_id is null)' }],
  indexes: [
    { name: 'crm_link_organization_id_company_id_index', properties: ['organization', 'company'] },
    { name: 'crm_link_organization_id_contact_id_index', properties: ['organization', 'contact'] },
  ],
  uniques: [{ name: 'crm_link_org_source_type_external_unique', properties: ['organization', 'source', 'entityType', 'externalId'] }],
});
export type ICrmLink = InferEntity<typeof CrmLink>;
