// @vitest-environment happy-dom
// XLSX → CSV in the browser (read-excel-file on a workbook built like Excel writes one), and the
// CSV it makes read back by the upload dialog's header reader.
import { describe, expect, it } from 'vitest';
import { csvHeader } from './csvHeader';
import { XLSX_EMPTY, XLSX_TOO_LARGE, XLSX_UNREADABLE, cellText, isXlsx, rowsToCsv, xlsxToCsvFile } from './xlsx';
import { xlsxWorkbook } from './xlsx-fixture';

const file = (bytes: Uint8Array, name = 'ideas.xlsx') =>
  new File([bytes as Uint8Array<ArrayBuffer>], name, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

describe('XLSX uploads', () => {
  it('the first sheet becomes a CSV of the same name: strings, numbers, booleans, dates, quoting, blank leading rows skipped', async () => {
    const wb = xlsxWorkbook([
      [null, null],
      ['Company Name', 'Website', 'Employees', 'Founded', 'Public', 'Notes'],
      ['Skagen Shipping', 'skagenshipping.example.com', 120, new Date(Date.UTC(1998, 4, 1)), false, 'Ferries, "fast" ones'],
      ['Fjord Freight AS', 'https://fjordfreight.example.com', 45.5, null, true, 'line one\nline two'],
    ]);
    const csvFile = await xlsxToCsvFile(file(wb));
    expect(csvFile.name).toBe('ideas.csv');
    expect(csvFile.type).toBe('text/csv');
    const text = await csvFile.text();
    expect(text).toBe(
      [
        'Company Name,Website,Employees,Founded,Public,Notes',
        'Skagen Shipping,skagenshipping.example.com,120,1998-05-01,false,"Ferries, ""fast"" ones"',
        'Fjord Freight AS,https://fjordfreight.example.com,45.5,,true,"line one\nline two"',
        '',
      ].join('\r\n'),
    );
    expect(csvHeader(text).headers).toEqual(['Company Name', 'Website', 'Employees', 'Founded', 'Public', 'Notes']);
  });

  it('refuses what it cannot read, an empty sheet and a file over the limit, with what to do instead', async () => {
    await expect(xlsxToCsvFile(file(new TextEncoder().encode('not a zip')))).rejects.toThrow(XLSX_UNREADABLE);
    await expect(xlsxToCsvFile(file(xlsxWorkbook([[null], [null]])))).rejects.toThrow(XLSX_EMPTY);
    const big = { size: 41 * 1024 * 1024, name: 'big.xlsx' } as File;
    await expect(xlsxToCsvFile(big)).rejects.toThrow(XLSX_TOO_LARGE);
  });

  it('recognises .xlsx by name or type; writes cells and rows as the CSV import reads them', () => {
    expect(isXlsx({ name: 'A.XLSX' })).toBe(true);
    expect(isXlsx({ name: 'upload', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })).toBe(true);
    expect(isXlsx({ name: 'ideas.csv', type: 'text/csv' })).toBe(false);
    expect(cellText(new Date(Date.UTC(2026, 0, 5, 14, 30, 0)))).toBe('2026-01-05 14:30:00');
    expect(cellText(null)).toBe('');
    expect(rowsToCsv([['a'], ['b', 'c']])).toBe('a,\r\nb,c\r\n');
    expect(rowsToCsv([])).toBe('');
  });
});
