import type { EntityManager } from '@mikro-orm/postgresql';
import type { EnrichmentDto, EnrichmentResultDto } from '@dealscout/shared/contracts';
import { enrichmentResultStatus, realtimePaths, type EnrichmentResultStatus, type EnrichmentType } from '@dealscout/shared/domain';
import type { PublishEvent } from '../realtime/publish';
import type { IEnrichment } from './enrichment.entity';
import { findConfig } from './configs';
import { tenantSql } from '../../db/sql';

type Row = Record<string, unknown>;
const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : new Date(String(d)).toISOString());

/** An enrichment as answered (its field and creator populated). */
export function toEnrichmentDto(e: IEnrichment): EnrichmentDto {
  const config = findConfig(e.configId);
  const field = e.field && e.field.label !== undefined ? e.field : null;
  return {
    id: e.id,
    name: e.name,
    entityType: e.entityType as EnrichmentDto['entityType'],
    configId: e.configId,
    config: {
      id: e.configId,
      name: config?.name ?? e.enrichmentType,
      enrichmentType: e.enrichmentType as EnrichmentType,
      description: config?.description ?? '',
      provider: e.provider as EnrichmentDto['provider'],
    },
    provider: e.provider as EnrichmentDto['provider'],
    entityFieldId: e.field?.id ?? null,
    field: field ? { id: field.id, key: field.key, label: field.label, dataType: field.dataType } : null,
    // A deleted field leaves field_id null (FK set null): no field, no primary role.
    isPrimary: e.isPrimary && Boolean(e.field),
    llmModelId: e.llmModelId,
    listColumns: e.listColumns ?? [],
    listCompanyId: e.listCompanyId ?? null,
    color: (e.color ?? null) as EnrichmentDto['color'],
    createdBy:
      e.createdBy && e.createdBy.firstName !== undefined
        ? { id: e.createdBy.id, firstName: e.createdBy.firstName, lastName: e.createdBy.lastName }
        : null,
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
    data: {
      prompt: (e.data?.prompt ?? null) as EnrichmentDto['data']['prompt'],
      schema: (e.data?.schema ?? []) as EnrichmentDto['data']['schema'],
      jsonSchema: e.data?.jsonSchema ?? null,
      listId: e.listCompanyId ?? null,
      llmModelId: e.llmModelId,
      color: (e.color ?? null) as EnrichmentDto['color'],
      fieldIdToAssign: e.field?.id ?? null,
      isFieldPrimary: e.isPrimary && Boolean(e.field),
      scrapeFieldId: e.data?.scrapeFieldId ?? null,
      websiteToScrape: e.data?.websiteToScrape ?? null,
    },
  };
}

/** A result's own columns (e.g. for `returning`). */
export const RESULT_COLUMNS = 'id, enrichment_id, entity_type, entity_id, execution_id, status, status_message, value, sources, updated_at';

/** Columns of a result joined with its latest execution (`x_status`, `x_message`). */
export const RESULT_SELECT = `r.id, r.enrichment_id, r.entity_type, r.entity_id, r.execution_id, r.status, r.status_message, r.value, r.sources, r.updated_at,
  x.status as x_status, x.status_message as x_message`;
export const RESULT_FROM = `enrichment_result r left join execution x on x.id = r.execution_id and x.organization_id = r.organization_id`;

export function toResultDto(r: Row): EnrichmentResultDto {
  const { status, statusMessage } = enrichmentResultStatus(
    r.status as EnrichmentResultStatus,
    (r.status_message as string | null) ?? null,
    r.x_status ? { status: String(r.x_status), statusMessage: (r.x_message as string | null) ?? null } : null,
  );
  const value = (r.value ?? { result: null }) as { result: Record<string, unknown> | null };
  return {
    id: String(r.id),
    enrichmentId: String(r.enrichment_id),
    entityType: r.entity_type as EnrichmentResultDto['entityType'],
    entityId: String(r.entity_id),
    executionId: (r.execution_id as string | null) ?? null,
    status,
    statusMessage,
    value: { result: value.result ?? null },
    sources: (r.sources as EnrichmentResultDto['sources']) ?? [],
    updatedAt: iso(r.updated_at),
  };
}

export async function loadResults(
  em: EntityManager,
  organizationId: string,
  where: string,
  params: unknown[],
): Promise<EnrichmentResultDto[]> {
  const rows = await tenantSql(em, organizationId).all<Row>(
    `select ${RESULT_SELECT} from ${RESULT_FROM} where r.organization_id = ? and ${where} order by r.updated_at desc, r.id`,
    [organizationId, ...params],
  );
  return rows.map(toResultDto);
}

/** The realtime event of a result (see contracts/enrichments.ts 'realtime'). */
export function resultEvent(organizationId: string, dto: EnrichmentResultDto): PublishEvent {
  return {
    path: realtimePaths.executions(organizationId, 'enrichment', dto.entityType),
    kind: 'enrichment.result',
    key: `enrichment-result:${dto.enrichmentId}:${dto.entityId}`,
    data: dto,
  };
}
