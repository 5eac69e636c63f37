// One formatter for every field data type (the tables, the drawer and the plugin clients show a
// value the same way; values.ts holds the rules, the export writes them in its 'export' mode).
// Numbers are grouped ('1,250,000'); a currency value carries its field's currency ('$1,250,000.00',
// '€1,250,000.00'); dates read 'Jan 5, 2024'.
import type { FieldDataType } from './fields';
import { VALUE_LOCALE, formatValue, valueText, type FormattedValue } from './values';

/** The organization's currency when it has not chosen one, and a field's when it names none. */
export const DEFAULT_CURRENCY = 'USD';
const LOCALE = VALUE_LOCALE;

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

/**
 * The text shown (and copied) for a field's value; null when there is none. The one formatter of
 * every value (values.ts): a field's data type says how its value reads.
 */
export function formatFieldValue(dataType: FieldDataType, value: unknown, options: FormatOptions = {}): string | null {
  return valueText(formatValue(value, { dataType, currency: dataType === 'currency' ? fieldCurrency(options.currency, null) : null }));
}

/** A field's value formatted for the renderer (shared/src/ui/values): links, chips, labelled fields. */
export function formatFieldParts(dataType: FieldDataType, value: unknown, options: FormatOptions = {}): FormattedValue {
  return formatValue(value, { dataType, currency: dataType === 'currency' ? fieldCurrency(options.currency, null) : null });
}

/** Column names whose numbers are codes or years, never grouped ('2011', not '2,011'). */
const CODE_LIKE =
  /\b(years?|founded|since|established|zip|postal|post ?code|postcode|phone|tel|fax|id|ids|code|sic|naics|cik|duns|ein|vat)\b/i;
const PLAIN_NUMBER = /^-?(0|[1-9]\d{0,14})(\.\d+)?$/;

/**
 * The kind of a column of untyped values (a list's source columns: a CSV's other columns), read
 * from its name and the values at hand: 'number' when every present value is a plain decimal
 * number (no leading zeros, no thousands separators already) and the name does not say it is a
 * year, a code or an identifier; 'text' otherwise.
 */
export function untypedColumnType(name: string, values: readonly unknown[]): 'number' | 'text' {
  if (CODE_LIKE.test(name.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2'))) return 'text';
  let any = false;
  for (const v of values) {
    if (v === null || v === undefined || v === '') continue;
    if (typeof v === 'number' ? !Number.isFinite(v) : typeof v !== 'string' || !PLAIN_NUMBER.test(v.trim())) return 'text';
    any = true;
  }
  return any ? 'number' : 'text';
}
