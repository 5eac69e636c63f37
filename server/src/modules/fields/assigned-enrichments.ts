// The enrichments assigned to each field (read from the enrichment table): the fields list shows them.
import type { EntityManager } from '@mikro-orm/postgresql';
import { tenantSql } from '../../db/sql';

export interface AssignedEnrichment {
  id: string;
  name: string;
  isPrimary: boolean;
}

/** The enrichments assigned to each field of the organization (primary first, then by name): fields' assignedEnrichments. */
export async function assignedEnrichments(em: EntityManager, organizationId: string): Promise<Map<string, AssignedEnrichment[]>> {
  const rows = await tenantSql(em, organizationId).all<{ field_id: string; id: string; name: string; is_primary: boolean }>(
    `select field_id, id, name, is_primary from enrichment where organization_id = ? and field_id is not null order by is_primary desc, lower(name), id`,
    [organizationId],
  );
  const out = new Map<string, AssignedEnrichment[]>();
  for (const r of rows) out.set(r.field_id, [...(out.get(r.field_id) ?? []), { id: r.id, name: r.name, isPrimary: r.is_primary }]);
  return out;
}
