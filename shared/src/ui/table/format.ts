// Cell text of the record tables.
import { formatFieldValue, type FieldDataType } from '../../domain';

export function personName(p: { firstName?: string | null; lastName?: string | null } | null | undefined): string {
  if (!p) return '';
  return [p.firstName, p.lastName].filter((s) => s && s.trim()).join(' ');
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

/**
 * A custom field's value as text: '' when there is none (never 'Not executed yet', which is for
 * enrichment results). The one formatter of every data type (domain/format.ts), as in the drawer.
 */
export function fieldValueText(value: unknown, dataType: FieldDataType, currency?: string | null): string {
  return formatFieldValue(dataType, value, { currency }) ?? '';
}

/** 'https://acme.com/x' for a website stored as 'acme.com/x'. */
export function websiteHref(website: string): string {
  return /^https?:\/\//i.test(website) ? website : `https://${website}`;
}
