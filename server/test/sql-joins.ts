// The SQL text of the server, read for the distributed-database check (citus.test.ts): every SQL
// string and template literal of server/src (tests aside), and a reader that finds each tenant table a
// statement reads or writes (`from`, `join`, `update`, `using`) and asks whether the statement equates
// that table's organization_id (`alias.organization_id = …` or `… = alias.organization_id`).
//
// It reads text, not a parse tree. What it cannot see: a statement assembled from fragments whose
// organization condition lives in another fragment (each literal is read alone, `${…}` being an
// opaque hole), a table named through `${…}`, and whether the two sides of the equality are the same
// organization (an equality with a bound parameter counts: tenantSql binds the one organization).
import ts from 'typescript';
import fs from 'node:fs';
import path from 'node:path';

export interface SqlText {
  file: string;
  line: number;
  text: string;
}

/** Every string and template literal of the .ts files under `dir` (tests excluded) that reads like SQL. */
export function sqlTexts(dir: string, root: string): SqlText[] {
  const out: SqlText[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) read(p);
    }
  };
  const read = (file: string) => {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const add = (node: ts.Node, text: string) => {
      if (!/\b(select|update|delete|insert)\b/i.test(text) && !/\bjoin\b/i.test(text)) return;
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      out.push({ file: path.relative(root, file), line: line + 1, text });
    };
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) add(node, node.text);
      else if (ts.isTemplateExpression(node)) {
        // A hole stands for an expression: a column list, a condition, a table name we cannot know.
        add(node, [node.head.text, ...node.templateSpans.map((s) => ` __hole__ ${s.literal.text}`)].join(''));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  };
  walk(dir);
  return out;
}

const KEYWORDS = new Set(
  (
    'on where join left right inner outer full cross natural set using order group limit offset having window ' +
    'union except intersect returning for as lateral tablesample and or'
  ).split(' '),
);

export interface TenantUse {
  table: string;
  alias: string;
  /** Whether the statement equates this table's organization_id with something. */
  scoped: boolean;
}

/** The tenant tables a statement names after from / join / update / using / delete from, each with its alias. */
export function tenantUses(sql: string, tenantTables: ReadonlySet<string>): TenantUse[] {
  const text = sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .toLowerCase();
  const uses: TenantUse[] = [];
  // After from / join / update / using, or opening a fragment (`company r left join …` built into a statement).
  const re = /(?:\b(from|join|update|using)\s+|^\s*)(?:only\s+)?"?([a-z_][a-z0-9_]*)"?(?:\s+(?:as\s+)?([a-z_][a-z0-9_]*))?/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const table = m[2];
    if (!tenantTables.has(table)) continue;
    // `is distinct from x`, `extract(epoch from x)`: a column, not a table.
    const before = text.slice(Math.max(0, m.index - 20), m.index);
    if (m[1] === 'from' && /(distinct|epoch|year|month|day|hour|minute|second|trim\([^)]*)\s*$/.test(before)) continue;
    const alias = m[3] && !KEYWORDS.has(m[3]) ? m[3] : table;
    const q = alias.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const qualified = new RegExp(
      `\\b${q}\\.organization_id\\s*(=|in\\b)|=\\s*${q}\\.organization_id\\b|\\(\\s*${q}\\.organization_id\\s*,[^()]*\\)\\s*in\\b`,
    );
    // Without an alias, an unqualified organization_id after the table's name is the table's own.
    const bare = alias === table && /(^|[^.\w])organization_id\s*(=|in\b)|=\s*organization_id\b/.test(text.slice(m.index));
    uses.push({ table, alias, scoped: qualified.test(text) || bare });
  }
  return uses;
}
