// Cell text of the record tables.
import type { FieldDataType } from '../../domain';

export function personName(p: { firstName?: string | null; lastName?: string | null } | null | undefined): string {
  if (!p) return '';
  return [p.firstName, p.lastName].filter((s) => s && s.trim()).join(' ');
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

/** A custom field's value as text: '' when there is none (never 'Not executed yet', which is for enrichment results). */
export function fieldValueText(value: unknown, dataType: FieldDataType): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') {
    if (dataType === 'currency') return value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return String(value);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** 'https://acme.com/x' for a website stored as 'acme.com/x'. */
export function websiteHref(website: string): string {
  return /^https?:\/\//i.test(website) ? website : `https://${website}`;
}
