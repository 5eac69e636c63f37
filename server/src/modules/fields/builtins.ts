import type { FieldDataType, RecordEntityType } from '@dealscout/shared/domain';

export interface BuiltInField {
  entityType: RecordEntityType;
  key: string;
  label: string;
  dataType: FieldDataType;
  /** Column of the company / contact table. */
  column: string;
  isPseudo?: boolean;
}

/** The mandatory fields every organization has (rows in field_definition, values in the record's columns). */
export const BUILT_IN_FIELDS: readonly BuiltInField[] = [
  { entityType: 'company', key: 'id', label: 'Id', dataType: 'id', column: 'id' },
  { entityType: 'company', key: 'name', label: 'Name', dataType: 'string', column: 'name' },
  { entityType: 'company', key: 'website', label: 'Website', dataType: 'url', column: 'website' },
  { entityType: 'company', key: 'domain', label: 'Domain', dataType: 'string', column: 'domain', isPseudo: true },
  { entityType: 'company', key: 'owner', label: 'Account Owner', dataType: 'reference', column: 'owner_id' },
  { entityType: 'company', key: 'created_at', label: 'Created', dataType: 'date', column: 'created_at' },
  { entityType: 'contact', key: 'id', label: 'Id', dataType: 'id', column: 'id' },
  { entityType: 'contact', key: 'first_name', label: 'First name', dataType: 'string', column: 'first_name' },
  { entityType: 'contact', key: 'last_name', label: 'Last name', dataType: 'string', column: 'last_name' },
  { entityType: 'contact', key: 'email', label: 'Email', dataType: 'email', column: 'email' },
  { entityType: 'contact', key: 'owner', label: 'Account Owner', dataType: 'reference', column: 'owner_id' },
  { entityType: 'contact', key: 'created_at', label: 'Created', dataType: 'date', column: 'created_at' },
];

/** SQL rows `(entity_type, key, label, data_type, built_in_column, is_pseudo)` for the migration and seeding. */
export function builtInValuesSql(): string {
  return BUILT_IN_FIELDS.map(
    (f) => `('${f.entityType}', '${f.key}', '${f.label}', '${f.dataType}', '${f.column}', ${f.isPseudo ? 'true' : 'false'})`,
  ).join(', ');
}
