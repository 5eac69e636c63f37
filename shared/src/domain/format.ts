// One formatter for every field data type (the tables, the drawer and the plugin clients show a
// value the same way; the export writes raw values). Numbers are grouped ('1,250,000'); a currency
// value carries its field's currency ('$1,250,000.00', '€1,250,000.00'); dates read 'Jan 5, 2024'.
import type { FieldDataType } from './fields';

/** The organization's currency when it has not chosen one, and a field's when it names none. */
export const DEFAULT_CURRENCY = 'USD';
const LOCALE = 'en-US';

/** ISO 4217 codes the runtime knows ('USD', 'EUR'…), for the currency pickers. */
export function currencyCodes(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  return intl.supportedValuesOf ? intl.supportedValuesOf('currency') : ['USD', 'EUR', 'GBP', 'CHF', 'JPY', 'CAD', 'AUD'];
}

export function isCurrencyCode(code: unknown): code is string {
  return typeof code === 'string' && /^[A-Z]{3}$/.test(code) && currencyCodes().includes(code);
}

const currencyNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames([LOCALE], { type: 'currency' }) : null;

/** A currency as a person reads it in a picker: 'EUR — Euro' (the code alone when the runtime has no name). */
export function currencyLabel(code: string): string {
  let name: string | undefined;
  try {
    name = currencyNames?.of(code);
  } catch {
    name = undefined;
  }
  return name && name !== code ? `${code} — ${name}` : code;
}

/** A field's currency: its own override, else the organization's default, else USD. */
export function fieldCurrency(fieldOverride: string | null | undefined, organizationDefault: string | null | undefined): string {
  if (isCurrencyCode(fieldOverride)) return fieldOverride;
  if (isCurrencyCode(organizationDefault)) return organizationDefault;
  return DEFAULT_CURRENCY;
}

export interface FormatOptions {
  /** The currency of a currency field (fieldCurrency). */
  currency?: string | null;
}

const numberFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 6 });
const currencyFormats = new Map<string, Intl.NumberFormat>();
function currencyFormat(code: string): Intl.NumberFormat {
  let f = currencyFormats.get(code);
  if (!f) {
    f = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: code });
    currencyFormats.set(code, f);
  }
  return f;
}

function formatDay(iso: string): string {
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleDateString(LOCALE, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** The text shown (and copied) for a field's value; null when there is none. */
export function formatFieldValue(dataType: FieldDataType, value: unknown, options: FormatOptions = {}): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  if (Array.isArray(value) && value.length === 0) return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const asNumber = typeof value === 'number' ? value : (['int', 'double', 'currency', 'number'].includes(dataType) && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : null);
  if (asNumber !== null) {
    if (!Number.isFinite(asNumber)) return null;
    if (dataType === 'currency') return currencyFormat(fieldCurrency(options.currency, null)).format(asNumber);
    return numberFormat.format(asNumber);
  }
  if (typeof value === 'string') return dataType === 'date' ? formatDay(value) : value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.join(', ');
  if (dataType === 'address' && typeof value === 'object') {
    const parts = Object.values(value as Record<string, unknown>).filter((v) => typeof v === 'string' && v.trim());
    if (parts.length) return parts.join(', ');
  }
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
