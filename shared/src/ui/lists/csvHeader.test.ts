import { describe, it, expect } from 'vitest';
import { csvHeader, guessColumn } from './csvHeader';

describe('csvHeader: the mapping reads the file header in the browser', () => {
  it('reads comma, semicolon and tab headers, a byte-order mark and quoted cells', () => {
    expect(csvHeader('\uFEFFCompany,Website,Country\nA,a.com,DE\n')).toEqual({
      delimiter: ',',
      headers: ['Company', 'Website', 'Country'],
    });
    expect(csvHeader('Name;URL;"Notes; long"\r\nA;a.com;x\r\n')).toEqual({ delimiter: ';', headers: ['Name', 'URL', 'Notes; long'] });
    expect(csvHeader('Name\tDomain\nA\ta.com\n').headers).toEqual(['Name', 'Domain']);
    expect(csvHeader('"Company ""Legal"" Name","Web\nsite"\nA,b\n').headers).toEqual(['Company "Legal" Name', 'Web\nsite']);
  });
  it('guesses the name and website columns, or leaves them to the user', () => {
    expect(guessColumn(['Country', 'Company Name', 'URL'], 'name')).toBe('Company Name');
    expect(guessColumn(['Country', 'Company Name', 'URL'], 'website')).toBe('URL');
    expect(guessColumn(['Account', 'Homepage'], 'website')).toBe('Homepage');
    expect(guessColumn(['a', 'b'], 'name')).toBe('');
  });
});
