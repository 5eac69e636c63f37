// The ideas export's enrichment columns: the same columns as the ideas table (one per list column
// of the list's enrichments — its idea ones and the company ones run on it —, `ideaEnrichmentColumns`), each cell the result's value read by its
// response schema in the export's text (domain/values.ts: one field its value, numbers plain, dates
// ISO; several fields 'Label: value; …'), never JSON. A result not finished (or failed) is empty.
import type { EntityManager } from '@mikro-orm/postgresql';
import { ideaEnrichmentCell, ideaEnrichmentColumns, valueText, type ValueSchemaItem } from '@dealscout/shared/domain';
import type { ListColumn } from '@dealscout/shared/contracts';
import { tenantSql } from '../../db/sql';

const pgArray = (xs: readonly string[]) => `{${xs.join(',')}}`;

export async function exportEnrichmentColumns(
  em: EntityManager,
  organizationId: string,
  listId: string,
): Promise<{ header: string[]; cells(ideaIds: readonly string[]): Promise<Map<string, string[]>> }> {
  const enrichments = await tenantSql(em, organizationId).all<{
    id: string;
    name: string;
    entity_type: string;
    list_columns: ListColumn[] | null;
    data: { schema?: ValueSchemaItem[] } | null;
  }>(
    `select id::text, name, entity_type, list_columns, data from enrichment e
      where e.organization_id = ? and (e.list_company_id = ? or (e.entity_type = 'company' and e.id::text in (
        select jsonb_array_elements_text(l.enrichment_ids) from list_company l where l.organization_id = e.organization_id and l.id = ?)))
      order by created_at, id`,
    [organizationId, listId, listId],
  );
  const columns = ideaEnrichmentColumns(
    enrichments.map((e) => ({ id: e.id, name: e.name, entityType: e.entity_type, listColumns: e.list_columns ?? [], data: e.data })),
  );
  const ids = [...new Set(columns.map((c) => c.enrichmentId))];
  return {
    header: columns.map((c) => c.label),
    async cells(ideaIds) {
      const out = new Map<string, string[]>();
      if (columns.length === 0 || ideaIds.length === 0) return out;
      const rows = await tenantSql(em, organizationId).all<{
        enrichment_id: string;
        entity_id: string;
        status: string;
        status_message: string | null;
        value: unknown;
      }>(
        `select enrichment_id::text, entity_id::text, status, status_message, value from enrichment_result
          where organization_id = ? and entity_type = 'idea' and enrichment_id = any(?::uuid[]) and entity_id = any(?::uuid[])`,
        [organizationId, pgArray(ids), pgArray([...ideaIds])],
      );
      const byKey = new Map(rows.map((r) => [`${r.enrichment_id}:${r.entity_id}`, r]));
      for (const id of ideaIds) {
        out.set(
          id,
          columns.map((c) => {
            const r = byKey.get(`${c.enrichmentId}:${id}`);
            const cell = ideaEnrichmentCell(r ? { status: r.status, value: r.value, statusMessage: r.status_message } : null, c);
            return cell.status === 'completed' ? (valueText(cell.formatted, { mode: 'export' }) ?? '') : '';
          }),
        );
      }
      return out;
    },
  };
}
