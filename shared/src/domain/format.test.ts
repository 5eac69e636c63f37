import { describe, expect, it } from 'vitest';
import { fieldCurrency, formatFieldValue, isCurrencyCode } from './format';

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
