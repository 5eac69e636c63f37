// Pure rules of the detail drawer (spec 000 §2 'Detail drawer', 'Details tab'; §3 'Field definition':
// id and reference types and mandatory fields are hidden in the drawer).
import type { CompanyDetails, ContactDetails, FieldDto, FieldValueDto } from '../../contracts';
import {
  HIDDEN_DATA_TYPES,
  defaultUserConfig,
  type DetailsGroups,
  type FieldDataType,
  type RecordEntityType,
  type UserConfig,
} from '../../domain';

export type CompanyLink = CompanyDetails['entityMapping'][number];
export type ContactLink = ContactDetails['entityMapping'][number];

export const NOT_EXECUTED = 'Not executed yet';
export const COPIED_MESSAGE = 'Value copied to clipboard';
/** Spec 000 §9 'Copy toast timeout'. */
export const COPY_TOAST_MS = 500;
/** The detail drawer's width open, and collapsed to its toolbar (px). */
export const DRAWER_WIDTH = 400;
export const COLLAPSED_WIDTH = 44;
export const SELECT_ENTITY_HINT = 'Select an entity to open drawer';

const HIDDEN_TYPES: readonly FieldDataType[] = HIDDEN_DATA_TYPES;

const byText = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true });

export const contactDisplayName = (p: { firstName: string; lastName: string; email?: string }) =>
  `${p.firstName} ${p.lastName}`.trim() || p.email || '';

/** Contacts of a company: the key contact first, then by label (then name, for a stable order). */
export function sortContactLinks(links: readonly CompanyLink[]): CompanyLink[] {
  return [...links].sort(
    (a, b) =>
      Number(b.isKey) - Number(a.isKey) ||
      byText(a.label ?? '', b.label ?? '') ||
      byText(a.lastName, b.lastName) ||
      byText(a.firstName, b.firstName) ||
      a.contactId.localeCompare(b.contactId),
  );
}

/** Companies of a contact: the primary company first, then by name. */
export function sortCompanyLinks(links: readonly ContactLink[]): ContactLink[] {
  return [...links].sort(
    (a, b) =>
      Number(b.isPrimary) - Number(a.isPrimary) ||
      byText(a.label ?? '', b.label ?? '') ||
      byText(a.name, b.name) ||
      a.companyId.localeCompare(b.companyId),
  );
}

/** The fields a drawer lists: no id or reference types, no mandatory fields; sorted by label. */
export function drawerFields(fields: readonly FieldDto[], entityType?: RecordEntityType): FieldDto[] {
  return fields
    .filter((f) => (!entityType || f.entityType === entityType) && !f.isMandatory && !HIDDEN_TYPES.includes(f.dataType))
    .sort((a, b) => byText(a.label, b.label) || a.id.localeCompare(b.id));
}

/** The stored value of a field on a record (values are keyed by field id). */
export function fieldValueOf(values: Record<string, FieldValueDto> | undefined, field: Pick<FieldDto, 'id' | 'key'>): FieldValueDto | null {
  if (!values) return null;
  return values[field.id] ?? values[field.key] ?? null;
}

/** The text shown (and copied) for a value: the one formatter of every data type (domain/format.ts). */
export { formatFieldValue } from '../../domain';

/** The text put in the edit box for a value (raw, so that saving it unchanged keeps it). */
export function editText(dataType: FieldDataType, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return dataType === 'object' ? JSON.stringify(value, null, 2) : JSON.stringify(value);
}

export type SectionKey = keyof DetailsGroups;

/** The Details tab's sections per entity type, in order (spec 000 §2 'Details tab'). */
export const DETAILS_SECTIONS: Record<RecordEntityType, readonly { key: SectionKey; title: string }[]> = {
  company: [
    { key: 'contacts', title: 'Contacts' },
    { key: 'unassignedEnrichments', title: 'Unassigned Enrichments' },
    { key: 'companyFields', title: 'Company Fields' },
  ],
  contact: [
    { key: 'companies', title: 'Companies' },
    { key: 'unassignedEnrichments', title: 'Unassigned Enrichments' },
    { key: 'contactFields', title: 'Contact Fields' },
  ],
};

export type ShowGroups = Record<RecordEntityType, DetailsGroups>;

/** The saved open/closed state of the sections, per entity type (a missing flag means open). */
export function initialShowGroups(config: UserConfig | undefined): ShowGroups {
  const base = defaultUserConfig().drawer;
  const drawer = config?.drawer ?? base;
  return {
    company: { ...base.company.details.showGroups, ...(drawer.company?.details?.showGroups ?? {}) },
    contact: { ...base.contact.details.showGroups, ...(drawer.contact?.details?.showGroups ?? {}) },
  };
}

export function isSectionOpen(groups: DetailsGroups, key: SectionKey): boolean {
  return groups[key] !== false;
}
