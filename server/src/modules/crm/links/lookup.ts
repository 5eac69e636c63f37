// Which record a CRM or LinkedIn page shows (the Chrome side panel): by the CRM's own id first,
// then by the company's domain or the contact's email. A match of the second kind with a CRM id
// given remembers the id (crm_link), so the record is still found after its website or email
// changes on either side. Three short indexed statements at most; raw SQL names the organization.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizeDomain, normalizeEmail } from '@dealscout/shared/domain';
import type { CrmSource, LookupMatch } from '@dealscout/shared/contracts';
import { tenantSql } from '../../../db/sql';

export interface LookupInput {
  organizationId: string;
  entityType: 'company' | 'contact';
  source: CrmSource;
  crmId?: string | null;
  website?: string | null;
  email?: string | null;
}

export async function lookupRecord(em: EntityManager, input: LookupInput): Promise<LookupMatch | null> {
  const { organizationId: org, entityType } = input;
  const crmId = input.crmId?.trim() || null;
  if (crmId) {
    const rows = await tenantSql(em, org).all<{ id: string }>(
      `select coalesce(l.company_id, l.contact_id) as id from crm_link l
        where l.organization_id = ? and l.source = ? and l.entity_type = ? and l.external_id = ?`,
      [org, input.source, entityType, crmId],
    );
    if (rows[0]) return { entityType, id: rows[0].id, matchedBy: 'crmId' };
  }

  let match: LookupMatch | null = null;
  if (entityType === 'company' && input.website?.trim()) {
    const domain = normalizeDomain(input.website);
    const rows = domain
      ? await tenantSql(em, org).all<{ id: string }>(`select id from company where organization_id = ? and domain = ?`, [org, domain])
      : [];
    if (rows[0]) match = { entityType, id: rows[0].id, matchedBy: 'domain' };
  } else if (entityType === 'contact' && input.email?.trim()) {
    const email = normalizeEmail(input.email);
    const rows = await tenantSql(em, org).all<{ id: string }>(`select id from contact where organization_id = ? and email = ?`, [
      org,
      email,
    ]);
    if (rows[0]) match = { entityType, id: rows[0].id, matchedBy: 'email' };
  }

  if (match && crmId) {
    // Two panels matching at once insert one link; a CRM id already linked elsewhere keeps its link.
    await tenantSql(em, org).all(
      `insert into crm_link (id, organization_id, source, entity_type, external_id, company_id, contact_id, created_at)
       values (?, ?, ?, ?, ?, ?, ?, now())
       on conflict (organization_id, source, entity_type, external_id) do nothing`,
      [
        randomUUID(),
        org,
        input.source,
        entityType,
        crmId,
        entityType === 'company' ? match.id : null,
        entityType === 'contact' ? match.id : null,
      ],
    );
  }
  return match;
}
