import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  DEFAULT_CURRENCY,
  conditionsFor,
  fieldCurrency,
  formatFieldKey,
  FIELD_MESSAGES,
  type FieldDataType,
  type RecordEntityType,
} from '@dealscout/shared/domain';
import type { FieldDto, FilterFieldDto } from '@dealscout/shared/contracts';
import { FieldDefinition, type IFieldDefinition } from './field.entity';
import { BUILT_IN_FIELDS } from './builtins';
import { Organization, type IOrganization } from '../../db/organization.entity';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { publishFieldsChanged } from './fields-events';
import { familySlots, slotFamily } from './projection';
import { tenantSql } from '../../db/sql';

export function createBuiltInFields(em: EntityManager, organization: IOrganization): void {
  for (const f of BUILT_IN_FIELDS) {
    em.create(FieldDefinition, {
      organization,
      entityType: f.entityType,
      key: f.key,
      label: f.label,
      dataType: f.dataType,
      namespace: f.entityType,
      isMandatory: true,
      isPseudo: f.isPseudo ?? false,
      builtInColumn: f.column,
    });
  }
}

/** The organization's default currency (settings.defaultCurrency), USD when it has none. */
export async function organizationCurrency(em: EntityManager, organizationId: string): Promise<string> {
  const org = await em.findOne(Organization, { id: organizationId }, { fields: ['settings'] });
  return fieldCurrency(null, (org?.settings as { defaultCurrency?: string } | undefined)?.defaultCurrency);
}

export function toFieldDto(f: IFieldDefinition, orgCurrency: string = DEFAULT_CURRENCY): FieldDto {
  return {
    id: f.id,
    key: f.key,
    label: f.label,
    dataType: f.dataType as FieldDto['dataType'],
    entityType: f.entityType as RecordEntityType,
    namespace: f.namespace as FieldDto['namespace'],
    isMandatory: f.isMandatory,
    isPseudo: f.isPseudo,
    builtIn: f.builtInColumn != null,
    config: {
      reconciliation: f.config?.reconciliation ?? 'use_latest',
      refreshSchedule: (f.config?.refreshSchedule ?? 'never') as FieldDto['config']['refreshSchedule'],
      currency: f.config?.currency ?? null,
    },
    currency: f.dataType === 'currency' ? fieldCurrency(f.config?.currency, orgCurrency) : null,
    assignedEnrichments: [],
  };
}

/** The data type a filter on this field uses: the account owner is picked from a list ('in'). */
export function filterDataType(f: Pick<IFieldDefinition, 'key' | 'dataType' | 'builtInColumn'>): FieldDataType {
  if (f.builtInColumn === 'owner_id') return 'uuid';
  return f.dataType as FieldDataType;
}

export function toFilterFieldDto(f: IFieldDefinition): FilterFieldDto {
  const dataType = filterDataType(f);
  return { key: f.key, label: f.label, dataType, entityType: f.entityType as RecordEntityType, conditions: conditionsFor(dataType) };
}

export async function listFields(em: EntityManager, entityType?: RecordEntityType): Promise<IFieldDefinition[]> {
  return em.find(FieldDefinition, entityType ? { entityType } : {}, { orderBy: { entityType: 'asc', isMandatory: 'desc', label: 'asc' } });
}

/** A key unique within the organization and entity type: the formatted label, numbered on clashes. */
export async function uniqueFieldKey(em: EntityManager, entityType: RecordEntityType, label: string): Promise<string> {
  const base = formatFieldKey(label.trim()) || 'field';
  const taken = new Set(
    (await em.find(FieldDefinition, { entityType, key: { $like: `${base}%` } }, { fields: ['key'] })).map((f) => f.key),
  );
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}_${i}`)) return `${base}_${i}`;
}

export async function createCustomField(
  em: EntityManager,
  opts: {
    organizationId: string;
    userId: string;
    entityType: RecordEntityType;
    label: string;
    dataType: FieldDataType;
    config?: Partial<IFieldDefinition['config']>;
  },
): Promise<IFieldDefinition> {
  const label = opts.label.trim();
  const same = await em.count(FieldDefinition, {
    entityType: opts.entityType,
    label: { $ilike: label.replace(/[\\%_]/g, (c) => `\\${c}`) },
  });
  if (same > 0) throw conflict(FIELD_MESSAGES.duplicate);
  const field = em.create(FieldDefinition, {
    organization: opts.organizationId,
    entityType: opts.entityType,
    key: await uniqueFieldKey(em, opts.entityType, label),
    label,
    dataType: opts.dataType,
    namespace: opts.entityType,
    isMandatory: false,
    isPseudo: false,
    builtInColumn: null,
    config: {
      reconciliation: opts.config?.reconciliation ?? 'use_latest',
      refreshSchedule: opts.config?.refreshSchedule ?? 'never',
      ...(opts.dataType === 'currency' && opts.config?.currency ? { currency: opts.config.currency } : {}),
    },
    createdBy: opts.userId,
  });
  await em.flush();
  const slot = await assignSlot(em, field);
  if (slot !== null) {
    field.slot = slot;
    await em.flush(); // the same value: only keeps the entity in step with its row
  }
  return field;
}

/**
 * Gives a new custom field the lowest free slot of its family (projection.ts), or none when the
 * family's slots are all taken (the field then works through field_value alone). Two fields created
 * at the same time may pick the same slot: the unique index refuses the second, which tries again.
 */
async function assignSlot(em: EntityManager, field: IFieldDefinition): Promise<number | null> {
  const candidates = familySlots(slotFamily(field.dataType as FieldDataType));
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const rows = await tenantSql(em, field.organization.id).all<{ slot: number | null }>(
        `update field_definition f set slot = (
            select s from unnest(?::smallint[]) s
             where not exists (select 1 from field_definition o where o.organization_id = f.organization_id and o.entity_type = f.entity_type and o.slot = s)
             order by s limit 1)
          where f.organization_id = ? and f.id = ? returning f.slot`,
        [`{${candidates.join(',')}}`, field.organization.id, field.id],
      );
      return rows[0]?.slot ?? null;
    } catch (err) {
      // Another field took the slot meanwhile (whether or not the driver error was converted).
      if (!(err instanceof UniqueConstraintViolationException) && (err as { code?: string }).code !== '23505') throw err;
    }
  }
  return null;
}

export async function getField(em: EntityManager, id: string): Promise<IFieldDefinition> {
  const f = await em.findOne(FieldDefinition, { id });
  if (!f) throw notFound(FIELD_MESSAGES.notFound);
  return f;
}

/** Merges a custom field's display config (a built-in column's is fixed) and tells the open screens. */
export async function setFieldConfig(
  em: EntityManager,
  organizationId: string,
  fieldId: string,
  config: Partial<IFieldDefinition['config']>,
): Promise<IFieldDefinition> {
  const field = await getField(em, fieldId);
  if (field.builtInColumn) throw badRequest(FIELD_MESSAGES.mandatory);
  field.config = { ...field.config, ...config } as typeof field.config;
  await em.transactional(async (tem) => {
    await tem.flush();
    await publishFieldsChanged(tem, organizationId, [field.entityType]);
  });
  return field;
}
