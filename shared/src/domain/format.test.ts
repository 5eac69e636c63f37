import { describe, expect, it } from 'vitest';
import { fieldCurrency, formatFieldValue, isCurrencyCode, untypedColumnType } from './format';
import { formatValue, valueText } from './values';

describe('formatFieldValue: one formatter for every data type', () => {
  it('a currency value carries its currency, grouped, with cents', () => {
    expect(formatFieldValue('currency', 1250000, { currency: 'USD' })).toBe('$1,250,000.00');
    expect(formatFieldValue('currency', 1250000, { currency: 'EUR' })).toBe('€1,250,000.00');
    expect(formatFieldValue('currency', 99.5, { currency: 'CHF' })).toBe('CHF\u00a099.50');
    // No currency given: the default (USD), never a bare number.
    expect(formatFieldValue('currency', 1250000)).toBe('$1,250,000.00');
  });

  it('numbers are grouped; decimals keep their digits', () => {
    expect(formatFieldValue('int', 1250000)).toBe('1,250,000');
    expect(formatFieldValue('double', 42.5)).toBe('42.5');
    expect(formatFieldValue('number', 0.125)).toBe('0.125');
  });

  it('dates, booleans, lists, addresses, empty values', () => {
    expect(formatFieldValue('date', '2024-01-05')).toBe('Jan 5, 2024');
    expect(formatFieldValue('boolean', true)).toBe('Yes');
    expect(formatFieldValue('array', ['a', 'b'])).toBe('a, b');
    expect(formatFieldValue('address', { street: '1 Main St', city: 'Boston' })).toBe('1 Main St, Boston');
    expect(formatFieldValue('string', '  ')).toBeNull();
    expect(formatFieldValue('int', null)).toBeNull();
    expect(formatFieldValue('url', 'https://acme.test')).toBe('https://acme.test');
  });
});

describe('fieldCurrency: the field override, else the organization default, else USD', () => {
  it('picks in that order and ignores unknown codes', () => {
    expect(fieldCurrency('EUR', 'GBP')).toBe('EUR');
    expect(fieldCurrency(null, 'GBP')).toBe('GBP');
    expect(fieldCurrency('XYZ1', 'nope')).toBe('USD');
    expect(isCurrencyCode('usd')).toBe(false);
    expect(isCurrencyCode('JPY')).toBe(true);
  });
});

describe("untyped columns (a list source's other columns): numbers grouped like number fields", () => {
  it('a column of plain numbers is a number column; its values read like the companies table ("1,625")', () => {
    const type = untypedColumnType('Employees', ['1625', '980', '', null, '12500.5']);
    expect(type).toBe('number');
    // The shared value renderer with the column's number hint.
    const text = (v: unknown) => valueText(formatValue(v, { key: 'Employees', dataType: type })) ?? '';
    expect(['1625', '980', '12500.5', 1597].map(text)).toEqual(['1,625', '980', '12,500.5', '1,597']);
    expect(text(null)).toBe('');
  });

  it('years, codes, identifiers and phone numbers stay as written; so does text and a column with any non-number', () => {
    expect(untypedColumnType('Founded', ['2011', '1998'])).toBe('text');
    expect(untypedColumnType('Year', ['2011'])).toBe('text');
    expect(untypedColumnType('zip_code', ['10115'])).toBe('text');
    expect(untypedColumnType('SIC', ['7372'])).toBe('text');
    expect(untypedColumnType('companyId', ['123456'])).toBe('text');
    expect(untypedColumnType('Phone', ['4915112345678'])).toBe('text');
    expect(untypedColumnType('Employees', ['1625', 'about 200'])).toBe('text');
    expect(untypedColumnType('Employees', ['01625'])).toBe('text');
    expect(untypedColumnType('Employees', ['1,625'])).toBe('text');
    expect(untypedColumnType('Employees', ['', null])).toBe('text');
    expect(untypedColumnType('Number of employees', ['1625'])).toBe('number');
    expect(valueText(formatValue('2011', { key: 'Founded', dataType: untypedColumnType('Founded', ['2011']) }))).toBe('2011');
  });
});
