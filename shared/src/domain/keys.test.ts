import { describe, it, expect } from 'vitest';
import { formatFieldKey } from './keys';

describe('formatFieldKey (spec 002 §5 Other patterns)', () => {
  it('lowercases and replaces every non-alphanumeric character with an underscore', () => {
    expect(formatFieldKey('Company Name')).toBe('company_name');
    expect(formatFieldKey('ARR ($M)')).toBe('arr___m_');
    expect(formatFieldKey('e-mail.address')).toBe('e_mail_address');
    expect(formatFieldKey('Revenue 2024')).toBe('revenue_2024');
  });

  it('keeps keys that are already formatted', () => {
    expect(formatFieldKey('already_ok_1')).toBe('already_ok_1');
    expect(formatFieldKey('')).toBe('');
  });

  it('replaces each character separately (no collapsing)', () => {
    expect(formatFieldKey('a  b')).toBe('a__b');
    expect(formatFieldKey(' x ')).toBe('_x_');
  });
});
