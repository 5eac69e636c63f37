// The one way a custom field value is written: writeFieldValue. Every path that sets, clears or
// records the outcome of a custom value (PUT /entity/company/field and /contact/field, enrichment
// write-back, bulk updates) goes through it, so field_value (the source of truth, with the
// enrichment metadata) and the typed copy on the record row (projection.ts) never disagree.
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  coerceFieldValue,
  COMPANY_MESSAGES,
  CONTACT_MESSAGES,
  NUMERIC_TYPES,
  type FieldDataType,
  type RecordEntityType,
} from '@dealscout/shared/domain';
import type { FieldValueDto } from '@dealscout/shared/contracts';
import type { IFieldDefinition } from './field.entity';
import { projectionOf, slotColumn } from './projection';
import { badRequest, notFound } from '../../lib/errors';
import { tenantSql } from '../../db/sql';

/** Enrichment results kept with a value (spec 002 §3 'Field value'). */
export interface FieldValueMeta {
  infoValue?: unknown;
  /** Default 'completed'. */
  status?: string | null;
  statusMessage?: string | null;
  details?: unknown;
}

export interface FieldValueWrite {
  organizationId: string;
  entityType: RecordEntityType;
  entityId: string;
  /** A custom field of that entity type and organization (the caller found it). */
  field: Pick<IFieldDefinition, 'id' | 'dataType' | 'slot' | 'builtInColumn'>;
  /**
   * The value as given: coerced to the field's type here (a 400 with the type's message when it
   * cannot be). null, undefined or '' means no value.
   */
  value: unknown;
  /**
   * Omitted (a manual edit): a value is stored with status 'completed' and no message, and no
   * value deletes the cell. Given (an enrichment's outcome): the cell is kept even without a value,
   * with this status, message, info value and details.
   */
  meta?: FieldValueMeta;
}

type Row = Record<string, unknown>;

/**
 * Writes one custom field value and its typed copy on the record row in one transaction (the
 * record row is updated first, so concurrent writes to the same record queue on it and the two
 * copies always end up from the same write). 404 when the record is not the organization's.
 * Answers the stored cell, or null when it was deleted.
 */
export async function writeFieldValue(em: EntityManager, w: FieldValueWrite): Promise<FieldValueDto | null> {
  if (w.field.builtInColumn) throw new Error('writeFieldValue: built-in fields live in the record columns');
  const dataType = w.field.dataType as FieldDataType;
  const coerced = coerceFieldValue(dataType, w.value);
  if (!coerced.ok) throw badRequest(coerced.message);
  const value = coerced.value;
  const table = w.entityType === 'company' ? 'company' : 'contact';
  return em.transactional(async (tem) => {
    const locked = w.field.slot
      ? await tenantSql(tem, w.organizationId).run(
          `update ${table} set ${slotColumn(w.field.slot)} = ? where organization_id = ? and id = ?`,
          [projectionOf(dataType, value), w.organizationId, w.entityId],
        )
      : (
          await tenantSql(tem, w.organizationId).all<Row>(`select 1 from ${table} where organization_id = ? and id = ? for no key update`, [
            w.organizationId,
            w.entityId,
          ])
        ).length;
    if (locked === 0) throw notFound(w.entityType === 'company' ? COMPANY_MESSAGES.notFound : CONTACT_MESSAGES.notFound);
    if (value === null && !w.meta) {
      await tenantSql(tem, w.organizationId).run(`delete from field_value where organization_id = ? and field_id = ? and entity_id = ?`, [
        w.organizationId,
        w.field.id,
        w.entityId,
      ]);
      return null;
    }
    const text = value === null ? null : typeof value === 'object' ? JSON.stringify(value) : String(value);
    const num = value !== null && NUMERIC_TYPES.includes(dataType) ? Number(value) : null;
    const bool = value !== null && dataType === 'boolean' ? Boolean(value) : null;
    const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
    const m = w.meta ?? {};
    // A manual edit leaves an enrichment's info value and details as they are.
    const keep = (column: string) => (w.meta ? `excluded.${column}` : `field_value.${column}`);
    const rows = await tenantSql(tem, w.organizationId).all<Row>(
      `insert into field_value (id, organization_id, entity_type, entity_id, field_id, value, value_text, value_num, value_bool,
        info_value, status, status_message, details, updated_at)
       values (gen_random_uuid(), ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?::jsonb, ?, ?, ?::jsonb, now())
       on conflict (organization_id, field_id, entity_id) do update set value = excluded.value, value_text = excluded.value_text,
         value_num = excluded.value_num,
         value_bool = excluded.value_bool, info_value = ${keep('info_value')}, status = excluded.status, status_message = excluded.status_message,
         details = ${keep('details')}, updated_at = now()
       returning field_id, value, info_value, status, status_message, details, updated_at`,
      [
        w.organizationId,
        w.entityType,
        w.entityId,
        w.field.id,
        json(value),
        text,
        num,
        bool,
        json(m.infoValue),
        m.status === undefined ? 'completed' : m.status,
        m.statusMessage ?? null,
        json(m.details),
      ],
    );
    const r = rows[0];
    return {
      fieldId: String(r.field_id),
      value: r.value ?? null,
      infoValue: r.info_value ?? null,
      status: (r.status as string | null) ?? null,
      statusMessage: (r.status_message as string | null) ?? null,
      details: r.details ?? null,
      updatedAt: (r.updated_at instanceof Date ? r.updated_at : new Date(String(r.updated_at))).toISOString(),
    };
  });
}
