// The header of a CSV file, read in the browser for the column mapping (the server parses the
// whole file again, strictly): the separator is the one the header line uses most.
export function csvHeader(text: string): { delimiter: string; headers: string[] } {
  const body = text.replace(/^\uFEFF/, '');
  // The first record may hold quoted newlines: cut at the first newline outside quotes.
  let end = body.length;
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '"') quoted = !quoted;
    else if ((c === '\n' || c === '\r') && !quoted) {
      end = i;
      break;
    }
  }
  const line = body.slice(0, end);
  const counts = [',', ';', '\t'].map((d) => ({ d, n: line.split(d).length - 1 })).sort((a, b) => b.n - a.n);
  const delimiter = counts[0].n > 0 ? counts[0].d : ',';
  const headers: string[] = [];
  let cur = '';
  quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      headers.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  headers.push(cur.trim());
  return { delimiter, headers: headers.filter((h, i) => h !== '' || i < headers.length - 1) };
}

/** The column a mapping most likely means (name: 'Company', 'Name'…; website: 'Website', 'URL', 'Domain'). */
export function guessColumn(headers: readonly string[], kind: 'name' | 'website'): string {
  const patterns =
    kind === 'name'
      ? [/^(company|company name|name|account|account name|organi[sz]ation)$/i, /name|company/i]
      : [/^(website|url|domain|web site|homepage)$/i, /web|url|domain|site/i];
  for (const p of patterns) {
    const hit = headers.find((h) => p.test(h));
    if (hit) return hit;
  }
  return '';
}
