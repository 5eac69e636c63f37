// A lint rule: no two server modules import each other. server/src/modules/<name>/ are the features;
// an import from one into another is an arrow between them, and two arrows in opposite directions
// make the pair one tangle that neither can be read, tested or moved without the other. The rule
// reads every module's imports once per run (a regular expression over the files, no type
// information), then reports each import whose target module imports back. The fix is to move what
// both need into the lower one, or into lib/. Tests and fixtures are not counted.
import fs from 'node:fs';
import path from 'node:path';

const SOURCE = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
const NOT_COUNTED = /\.test\.tsx?$|\/fixtures\//;

/** The module a file belongs to (`server/src/modules/<name>/…`), or null. */
function moduleOf(modulesDir, file) {
  const rel = path.relative(modulesDir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const [name, ...rest] = rel.split(path.sep);
  return rest.length ? name : null;
}

function filesUnder(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(p, out);
    else if (/\.tsx?$/.test(entry.name) && !NOT_COUNTED.test(p)) out.push(p);
  }
  return out;
}

/** module → (module it imports → the first file that does). Read again after a second, for editors. */
let cached = { dir: '', at: 0, graph: new Map() };
function graphOf(modulesDir) {
  if (cached.dir === modulesDir && Date.now() - cached.at < 1000) return cached.graph;
  const graph = new Map();
  for (const file of filesUnder(modulesDir)) {
    const from = moduleOf(modulesDir, file);
    for (const m of fs.readFileSync(file, 'utf8').matchAll(SOURCE)) {
      const to = moduleOf(modulesDir, path.resolve(path.dirname(file), m[1] ?? m[2]));
      if (!from || !to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from).has(to)) graph.get(from).set(to, path.relative(path.dirname(modulesDir), file));
    }
  }
  cached = { dir: modulesDir, at: Date.now(), graph };
  return graph;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noModuleCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'No two server modules import each other' },
    schema: [
      {
        type: 'object',
        properties: { modulesDir: { type: 'string' }, allow: { type: 'array', items: { type: 'string' } } },
        required: ['modulesDir'],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const { modulesDir, allow = [] } = context.options[0];
    const dir = path.resolve(context.cwd, modulesDir);
    const file = context.filename;
    const from = moduleOf(dir, file);
    if (!from || NOT_COUNTED.test(file)) return {};
    const allowed = new Set(
      allow.map((pair) =>
        pair
          .split(/\s*<->\s*/)
          .sort()
          .join(' <-> '),
      ),
    );
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const to = moduleOf(dir, path.resolve(path.dirname(file), source.value));
      if (!to || to === from) return;
      const back = graphOf(dir).get(to)?.get(from);
      if (!back || allowed.has([from, to].sort().join(' <-> '))) return;
      context.report({
        node: source,
        message:
          `Modules ${from} and ${to} import each other (${to} imports ${from} in ${back}). Move what both need into the ` +
          `lower module, or into lib/ (eslint-module-cycles.js).`,
      });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { 'no-module-cycles': noModuleCycles } };
