// A minimal .xlsx workbook for tests (Office Open XML: the content types, the workbook, one sheet,
// shared strings), zipped with fflate. Strings go to the shared-strings table, numbers and
// booleans inline, dates as serial numbers with a date style, as Excel writes them.
import { zipSync, strToU8 } from 'fflate';

type Cell = string | number | boolean | Date | null;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const col = (i: number) => {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};

export function xlsxWorkbook(rows: Cell[][], sheetName = 'Ideas'): Uint8Array {
  const strings: string[] = [];
  const sIndex = (s: string) => {
    let i = strings.indexOf(s);
    if (i < 0) {
      i = strings.length;
      strings.push(s);
    }
    return i;
  };
  const sheetRows = rows
    .map(
      (r, ri) =>
        `<row r="${ri + 1}">${r
          .map((v, ci) => {
            const ref = `${col(ci)}${ri + 1}`;
            if (v === null) return '';
            if (typeof v === 'string') return `<c r="${ref}" t="s"><v>${sIndex(v)}</v></c>`;
            if (typeof v === 'boolean') return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
            if (v instanceof Date) return `<c r="${ref}" s="1"><v>${v.getTime() / 86_400_000 + 25569}</v></c>`;
            return `<c r="${ref}"><v>${v}</v></c>`;
          })
          .join('')}</row>`,
    )
    .join('');
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types ' +
        'xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ' +
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ' +
        'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ' +
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override ' +
        'PartName="/xl/worksheets/sheet1.xml" ' +
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override ' +
        'PartName="/xl/sharedStrings.xml" ' +
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override ' +
        'PartName="/xl/styles.xml" ' +
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships ' +
        'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" ' +
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" ' +
        'Target="xl/workbook.xml"/></Relationships>',
    ),
    'xl/workbook.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook ` +
        `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ` +
        `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="` +
        `${esc(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships ' +
        'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" ' +
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" ' +
        'Target="worksheets/sheet1.xml"/><Relationship Id="rId2" ' +
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" ' +
        'Target="sharedStrings.xml"/><Relationship Id="rId3" ' +
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" ' +
        'Target="styles.xml"/></Relationships>',
    ),
    'xl/styles.xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet ' +
        'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="0"/><cellXfs count="2"><xf ' +
        'numFmtId="0" fontId="0" fillId="0" borderId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" ' +
        'applyNumberFormat="1"/></cellXfs></styleSheet>',
    ),
    'xl/worksheets/sheet1.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet ` +
        `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
        `${sheetRows}</sheetData></worksheet>`,
    ),
  };
  files['xl/sharedStrings.xml'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst ` +
      `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="` +
      `${strings.length}">${strings.map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`).join('')}</sst>`,
  );
  return zipSync(files);
}
