// Rolling restarts are safe only when the release still running works on the schema the new one
// migrated to: the first process of a new release applies the migrations (under their advisory
// lock) while processes of the previous release still serve. So a migration only adds (tables,
// nullable columns or columns with a default, indexes, constraints the old code satisfies); what
// removes or changes something the previous release reads or writes is done in two releases: the
// first stops using it, the next drops it. A migration that is the second step says so on a line
// `// Second step: <what the previous release already stopped using>`.
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/src/db/migrations');
/** Migrations up to this one predate the rule (single-process installs). */
const RULE_SINCE = 'Migration20261129041500';

const DESTRUCTIVE: [RegExp, string][] = [
  [/\bdrop\s+table\b/i, 'drops a table'],
  [/\bdrop\s+column\b/i, 'drops a column'],
  [/\brename\s+(column\s+)?"?\w+"?\s+to\b/i, 'renames a column'],
  [/\brename\s+to\b/i, 'renames a table'],
  [/\balter\s+column\s+"?\w+"?\s+(set\s+data\s+)?type\b/i, "changes a column's type"],
  [/\balter\s+column\s+"?\w+"?\s+set\s+not\s+null\b/i, 'makes a column required'],
  [
    /\badd\s+column\s+(?:if\s+not\s+exists\s+)?"?\w+"?\s+[^,;]*\bnot\s+null\b(?![^,;]*\bdefault\b)/i,
    'adds a required column without a default',
  ],
];

/** The problems of one migration's up(): destructive statements without the second-step note. */
export function migrationProblems(source: string): string[] {
  const up = /\bup\(\)[^{]*\{([\s\S]*?)\n {2}\}/.exec(source)?.[1] ?? source;
  if (/^\s*\/\/ Second step: \S/m.test(source)) return [];
  return DESTRUCTIVE.filter(([re]) => re.test(up)).map(([, what]) => what);
}

describe('migrations keep the previous release working (rolling restarts)', () => {
  const files = readdirSync(dir).filter((f) => /^Migration\d+\.ts$/.test(f) && f.replace(/\.ts$/, '') > RULE_SINCE);

  it.each(files.length ? files : ['(none yet)'])('%s only adds', (file) => {
    if (file === '(none yet)') return;
    expect(migrationProblems(readFileSync(path.join(dir, file), 'utf8'))).toEqual([]);
  });

  it('the rule finds what would break the running release, and accepts a declared second step', () => {
    const m = (body: string, note = '') => `${note}\nexport class M extends Migration {\n  override up(): void {\n    ${body}\n  }\n}`;
    expect(migrationProblems(m('this.addSql(`alter table "company" drop column "x";`);'))).toEqual(['drops a column']);
    expect(migrationProblems(m('this.addSql(`alter table "company" rename column "a" to "b";`);'))).toEqual(['renames a column']);
    expect(migrationProblems(m('this.addSql(`alter table "company" add column "y" text not null;`);'))).toEqual([
      'adds a required column without a default',
    ]);
    expect(migrationProblems(m(`this.addSql(\`alter table "company" add column "y" text not null default '';\`);`))).toEqual([]);
    expect(migrationProblems(m('this.addSql(`alter table "company" alter column "y" type bigint;`);'))).toEqual([
      "changes a column's type",
    ]);
    expect(migrationProblems(m('this.addSql(`create index "i" on "company" ("y");`);'))).toEqual([]);
    expect(
      migrationProblems(
        m('this.addSql(`alter table "company" drop column "x";`);', '// Second step: the previous release no longer reads company.x'),
      ),
    ).toEqual([]);
  });
});
