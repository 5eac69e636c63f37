// The docs are guides to the product as it is: short enough to read, pointing only at files that
// exist, and free of references to the issue tracker (history lives in git).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DOCS = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  // A package's own README (manifests/README.md…).
  ...fs
    .readdirSync(ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'node_modules' && fs.existsSync(path.join(ROOT, d.name, 'README.md')))
    .map((d) => `${d.name}/README.md`),
];
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** Build output and local data (dist/, .output/, .data/…) are named in the docs but not kept in git. */
const IGNORED = read('.gitignore')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
function gitIgnored(p: string): boolean {
  const segments = p.split('/').filter(Boolean);
  return IGNORED.some((entry) => {
    const name = entry.replace(/\/$/, '');
    if (name.includes('/')) return p.startsWith(`${name}/`) || p === name;
    if (name.startsWith('*.')) return segments.at(-1)?.endsWith(name.slice(1)) ?? false;
    return segments.includes(name);
  });
}

/**
 * A backticked span that names a file or folder of the repository: it contains a '/', and ends
 * with an extension or a '/'. Routes (`/api/...`), URLs, globs, placeholders (`<id>`, `{oid}`) and
 * anything with a space are not repository paths.
 */
export function repositoryPaths(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`([^`\n]+)`/g)].map((m) => m[1].trim());
  return spans.filter(
    (s) =>
      s.includes('/') &&
      !s.startsWith('/') &&
      !s.includes('://') &&
      !/[\s{}<>*[\]|…$=@(),:;'"]/.test(s) &&
      (/\/$/.test(s) || /\.[A-Za-z][A-Za-z0-9]*$/.test(s.split('/').pop() ?? '')),
  );
}

/** 'issue 12', 'issues 4 and 5', 'issue-23b', '(#12)': references to the tracker. */
export function issueReferences(text: string): string[] {
  return [...text.matchAll(/\bissues? #?\d+|\bissue-\d+|(?:^|[\s(,])#\d+\b/gim)].map((m) => m[0].trim());
}

describe('docs', () => {
  it('ARCHITECTURE.md is a guide read in an afternoon (at most 600 lines)', () => {
    const lines = read('docs/ARCHITECTURE.md').split('\n').length;
    expect(lines).toBeLessThanOrEqual(600);
  });

  it.each(DOCS)('every repository path in backticks in %s exists', (file) => {
    const missing = repositoryPaths(read(file))
      .map((p) => p.replace(/^\.\//, ''))
      // From the root, or (in a package's README) from the package's folder.
      .filter((p) => !gitIgnored(p) && !fs.existsSync(path.join(ROOT, p)) && !fs.existsSync(path.join(ROOT, path.dirname(file), p)));
    expect([...new Set(missing)]).toEqual([]);
  });

  it.each(DOCS)('%s names no issue of the tracker', (file) => {
    expect(issueReferences(read(file))).toEqual([]);
  });

  it('the Layout of ARCHITECTURE.md names every top-level folder, server module and provider', () => {
    const doc = read('docs/ARCHITECTURE.md');
    const dirs = (rel: string) =>
      fs
        .readdirSync(path.join(ROOT, rel), { withFileTypes: true })
        .filter((d) => d.isDirectory() && d.name !== '.git' && !gitIgnored(d.name))
        .map((d) => d.name);
    const missing = [
      ...dirs('.')
        .filter((d) => !new RegExp(`^${d.replace('.', '\\.')}/ `, 'm').test(doc))
        .map((d) => `top-level folder ${d}/ (a line "${d}/  what it holds" in the Layout block)`),
      ...dirs('server/src/modules')
        .filter((m) => !doc.includes(`| \`${m}\` |`))
        .map((m) => `server module ${m} (a row "| \`${m}\` | what it owns |" in the modules table)`),
      ...dirs('server/src/providers')
        .filter((p) => !doc.includes(`\`${p}\``))
        .map((p) => `provider folder ${p} (named in backticks under server/src/providers/)`),
    ];
    expect(missing, 'add these to docs/ARCHITECTURE.md').toEqual([]);
  });

  it('the checks find what they look for', () => {
    expect(repositoryPaths('see `server/src/db/sql.ts`, `docs/`, `/api/v1/user`, `org/{oid}/lists`, `a b/c.ts`, `x.ts`')).toEqual([
      'server/src/db/sql.ts',
      'docs/',
    ]);
    expect(issueReferences('issue 15, issues 4 and 5, issue-23b, fixed in #12, ok: Re[2], # Title, 002 §5')).toEqual([
      'issue 15',
      'issues 4',
      'issue-23',
      '#12',
    ]);
  });
});
