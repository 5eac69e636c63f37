// XLSX uploads: the browser reads the workbook's first sheet (read-excel-file, loaded
// only when an .xlsx file is chosen) and turns it into the CSV the upload route already imports, so
// an Excel file goes through the same column mapping, deduplication, rejected-rows report and
// server pipeline as a CSV. Why in the browser: the mapping needs the header before the upload, and
// one import path on the server (PostgreSQL's own CSV parse) keeps its speed and its rules in one
// place. The limit keeps a browser tab's memory sane; larger workbooks are saved as CSV.
export const XLSX_MAX_BYTES = 40 * 1024 * 1024;
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const XLSX_TOO_LARGE = 'This Excel file is larger than 40 MB. Please save it as CSV (UTF-8) and upload that.';
export const XLSX_UNREADABLE = 'This Excel file could not be read. Please save it as CSV (UTF-8) and upload that.';
export const XLSX_EMPTY = 'The first sheet of this Excel file is empty.';

export function isXlsx(file: { name: string; type?: string }): boolean {
  return /\.xlsx$/i.test(file.name) || file.type === XLSX_MIME;
}

type Cell = string | number | boolean | Date | null | undefined;

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as the CSV holds it: dates as ISO (a date alone when it has no time), numbers as JavaScript writes them. */
export function cellText(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return '';
    const day = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    return v.getUTCHours() || v.getUTCMinutes() || v.getUTCSeconds()
      ? `${day} ${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}:${pad(v.getUTCSeconds())}`
      : day;
  }
  return String(v);
}

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; lines end in CRLF. */
export function rowsToCsv(rows: readonly (readonly Cell[])[]): string {
  const width = rows.reduce((m, r) => Math.max(m, r.length), 0);
  const out: string[] = [];
  for (const r of rows) {
    const cells: string[] = [];
    for (let i = 0; i < width; i++) {
      const t = cellText(r[i]);
      cells.push(/[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t);
    }
    out.push(cells.join(','));
  }
  return out.length ? `${out.join('\r\n')}\r\n` : '';
}

/** The first sheet of an .xlsx file as a CSV file of the same name (.csv), ready for the upload. */
export async function xlsxToCsvFile(file: File): Promise<File> {
  if (file.size > XLSX_MAX_BYTES) throw new Error(XLSX_TOO_LARGE);
  let rows: Cell[][];
  try {
    const { readSheet } = await import('read-excel-file/browser');
    rows = (await readSheet(file)) as unknown as Cell[][];
  } catch {
    throw new Error(XLSX_UNREADABLE);
  }
  // Leading empty rows (a title block left blank) are not the header.
  while (rows.length && rows[0]!.every((c) => cellText(c).trim() === '')) rows.shift();
  if (!rows.length) throw new Error(XLSX_EMPTY);
  return new File([rowsToCsv(rows)], file.name.replace(/\.xlsx$/i, '') + '.csv', { type: 'text/csv' });
}
