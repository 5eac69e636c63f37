import { describe, it, expect } from 'vitest';
import {
  coerceFieldValue,
  fieldNameProblem,
  OFFERED_FIELD_TYPES,
  FIELD_MESSAGES,
  REFRESH_SCHEDULES,
  RECONCILIATIONS,
  FIELD_NAMESPACES,
} from './fields';

const ok = (value: unknown) => ({ ok: true, value });
const bad = (message: string) => ({ ok: false, message });

describe('field definitions (spec 002 §3 Field)', () => {
  it('offers the twelve data types, in the spec’s order', () => {
    expect(OFFERED_FIELD_TYPES.map((t) => t.label)).toEqual([
      'String',
      'Url',
      'Integer',
      'Decimal',
      'Boolean',
      'Address',
      'Date',
      'Time',
      'Currency',
      'Email',
      'Object',
      'Phone Number',
    ]);
    const stored = OFFERED_FIELD_TYPES.map((t) => t.dataType as string);
    for (const internal of ['id', 'reference', 'uuid', 'array', 'number']) expect(stored).not.toContain(internal);
  });

  it('enumerations', () => {
    expect([...REFRESH_SCHEDULES]).toEqual(['never', 'daily', 'weekly', 'monthly', 'quarterly', 'yearly']);
    expect([...RECONCILIATIONS]).toEqual(['use_latest', 'keep_existing']);
    expect([...FIELD_NAMESPACES]).toEqual(['company', 'contact', 'system', 'user', 'organization', 'contact_activity', 'idea']);
  });
});

describe('fieldNameProblem (spec 002 §5 New field)', () => {
  it('1 to 50 characters after trimming', () => {
    expect(fieldNameProblem('A')).toBeNull();
    expect(fieldNameProblem('x'.repeat(50))).toBeNull();
    expect(fieldNameProblem(` ${'x'.repeat(50)} `)).toBeNull();
    expect(fieldNameProblem('')).toBe('Field name must be at least 1 characters long');
    expect(fieldNameProblem('   ')).toBe('Field name must be at least 1 characters long');
    expect(fieldNameProblem('x'.repeat(51))).toBe('Field name must be at most 50 characters long');
    expect(FIELD_MESSAGES.nameMin).toBe('Field name must be at least 1 characters long');
    expect(FIELD_MESSAGES.nameMax).toBe('Field name must be at most 50 characters long');
  });
});

describe('coerceFieldValue', () => {
  it('an empty value clears, whatever the type', () => {
    for (const t of ['string', 'int', 'double', 'boolean', 'date', 'time', 'object'] as const) {
      expect(coerceFieldValue(t, '')).toEqual(ok(null));
      expect(coerceFieldValue(t, null)).toEqual(ok(null));
      expect(coerceFieldValue(t, undefined)).toEqual(ok(null));
    }
  });

  it('blank input clears a typed field (it is not 0 or false)', () => {
    for (const t of ['int', 'double', 'currency', 'boolean', 'date', 'time'] as const) {
      expect(coerceFieldValue(t, '   ')).toEqual(ok(null));
    }
    expect(coerceFieldValue('string', '  ')).toEqual(ok('  '));
  });

  it('numbers are decimal: hexadecimal, binary and octal literals are refused', () => {
    expect(coerceFieldValue('int', '0x10')).toEqual(bad('Please enter a whole number'));
    expect(coerceFieldValue('int', '0b101')).toEqual(bad('Please enter a whole number'));
    expect(coerceFieldValue('double', '0o7')).toEqual(bad('Please enter a number'));
    expect(coerceFieldValue('double', '1e3')).toEqual(ok(1000));
    expect(coerceFieldValue('double', '+2.5')).toEqual(ok(2.5));
    expect(coerceFieldValue('double', '.5')).toEqual(ok(0.5));
    expect(coerceFieldValue('int', '12.')).toEqual(ok(12));
  });

  it('int: whole numbers only', () => {
    expect(coerceFieldValue('int', 42)).toEqual(ok(42));
    expect(coerceFieldValue('int', ' -7 ')).toEqual(ok(-7));
    expect(coerceFieldValue('int', '12.5')).toEqual(bad('Please enter a whole number'));
    expect(coerceFieldValue('int', 1.5)).toEqual(bad('Please enter a whole number'));
    expect(coerceFieldValue('int', 'abc')).toEqual(bad('Please enter a whole number'));
    expect(coerceFieldValue('int', true)).toEqual(bad('Please enter a whole number'));
  });

  it('double, currency: finite numbers', () => {
    expect(coerceFieldValue('double', '12.5')).toEqual(ok(12.5));
    expect(coerceFieldValue('double', -0.25)).toEqual(ok(-0.25));
    expect(coerceFieldValue('currency', '1000')).toEqual(ok(1000));
    expect(coerceFieldValue('double', 'twelve')).toEqual(bad('Please enter a number'));
    expect(coerceFieldValue('double', 'Infinity')).toEqual(bad('Please enter a number'));
    expect(coerceFieldValue('currency', '1,000')).toEqual(bad('Please enter a number'));
  });

  it('boolean: true/false, yes/no, 1/0', () => {
    expect(coerceFieldValue('boolean', true)).toEqual(ok(true));
    expect(coerceFieldValue('boolean', false)).toEqual(ok(false));
    for (const v of ['true', 'TRUE', 'yes', '1', 1]) expect(coerceFieldValue('boolean', v)).toEqual(ok(true));
    for (const v of ['false', 'No', '0', 0]) expect(coerceFieldValue('boolean', v)).toEqual(ok(false));
    expect(coerceFieldValue('boolean', 'maybe')).toEqual(bad('Please enter true or false'));
  });

  it('date: YYYY-MM-DD of a real calendar day', () => {
    expect(coerceFieldValue('date', '2024-02-29')).toEqual(ok('2024-02-29'));
    expect(coerceFieldValue('date', ' 2024-12-31 ')).toEqual(ok('2024-12-31'));
    for (const v of ['2024-13-01', '2024-00-10', '2024-1-1', '01/02/2024', 'yesterday', '2024-02-30', '2023-02-29', '2024-04-31']) {
      expect(coerceFieldValue('date', v), v).toEqual(bad('Please enter a date (YYYY-MM-DD)'));
    }
  });

  it('time: HH:MM or HH:MM:SS', () => {
    expect(coerceFieldValue('time', '09:30')).toEqual(ok('09:30'));
    expect(coerceFieldValue('time', '23:59:59')).toEqual(ok('23:59:59'));
    for (const v of ['24:00', '9:30', '12:60', 'noon']) expect(coerceFieldValue('time', v)).toEqual(bad('Please enter a time (HH:MM)'));
  });

  it('object: JSON when it parses, the text otherwise', () => {
    expect(coerceFieldValue('object', '{"a":1}')).toEqual(ok({ a: 1 }));
    expect(coerceFieldValue('object', { b: [1] })).toEqual(ok({ b: [1] }));
    expect(coerceFieldValue('object', 'not json')).toEqual(ok('not json'));
  });

  it('text-like types keep the text', () => {
    expect(coerceFieldValue('string', 'hello')).toEqual(ok('hello'));
    expect(coerceFieldValue('string', 5)).toEqual(ok('5'));
    expect(coerceFieldValue('url', 'acme.com')).toEqual(ok('acme.com'));
    expect(coerceFieldValue('email', 'a@b.co')).toEqual(ok('a@b.co'));
    expect(coerceFieldValue('phone', '+1 555 0100')).toEqual(ok('+1 555 0100'));
  });
});
