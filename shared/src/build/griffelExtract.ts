// A Vite plugin that moves Fluent UI's CSS out of JavaScript: Fluent's packages ship their styles
// already compiled by Griffel (`__styles(classes, cssRules)`, `__resetStyles(ltr, rtl, cssRules)`),
// and at run time each first render inserts those rules one `insertRule` at a time. Here every such
// call whose CSS is a literal becomes `__css(classes)` / `__resetCSS(ltr, rtl)` (class names only,
// nothing inserted), and the rules go into the page's <head> as Griffel's own bucket <style>
// elements (`data-make-styles-bucket`), sorted as Griffel sorts them. Styles still made at run time
// (the app's own makeStyles) find those elements and insert their buckets in the same order, so the
// cascade is the one Griffel would have built. Apply it to a build that has an index.html.

/** Griffel's bucket order (@griffel/core styleBucketOrdering). */
const BUCKETS = ['r', 'd', 'l', 'v', 'w', 'f', 'i', 'h', 'a', 's', 'k', 't', 'm'] as const;
const BUCKET_ORDER = new Map<string, number>(BUCKETS.map((b, i) => [b, i]));

type Node = { type: string; start: number; end: number; [k: string]: unknown };
type Entry = string | [string, { m?: string; p?: number }];
type CssRules = Record<string, Entry[]>;

/** The value of a literal expression (strings, numbers, null, arrays, plain objects); undefined when anything else is in it. */
function literalValue(node: Node): unknown {
  switch (node.type) {
    case 'Literal':
      return node.value as unknown;
    case 'TemplateLiteral': {
      const quasis = node.quasis as { value: { cooked: string } }[];
      return (node.expressions as Node[]).length === 0 ? quasis[0].value.cooked : undefined;
    }
    case 'ArrayExpression': {
      const out: unknown[] = [];
      for (const el of node.elements as (Node | null)[]) {
        const v = el ? literalValue(el) : undefined;
        if (v === undefined) return undefined;
        out.push(v);
      }
      return out;
    }
    case 'ObjectExpression': {
      const out: Record<string, unknown> = {};
      for (const p of node.properties as Node[]) {
        if (p.type !== 'Property' || p.computed || p.kind !== 'init') return undefined;
        const k = p.key as Node;
        const key = k.type === 'Identifier' ? (k.name as string) : k.type === 'Literal' ? String(k.value) : undefined;
        const v = literalValue(p.value as Node);
        if (key === undefined || v === undefined) return undefined;
        out[key] = v;
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** Rules the extraction can place: known buckets, entries a string or [string, { m, p }]. */
function placeable(rules: unknown): rules is CssRules {
  if (!rules || typeof rules !== 'object' || Array.isArray(rules)) return false;
  return Object.entries(rules).every(
    ([bucket, entries]) =>
      BUCKET_ORDER.has(bucket) &&
      Array.isArray(entries) &&
      entries.every((e) => typeof e === 'string' || (Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'object')),
  );
}

function walk(node: unknown, visit: (n: Node) => void): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) walk(n, visit);
    return;
  }
  const n = node as Node;
  if (typeof n.type === 'string') visit(n);
  for (const key in n) if (key !== 'type' && key !== 'start' && key !== 'end') walk(n[key], visit);
}

/** One <style> element of the head: a bucket (with its media query for 'm') and its rules. */
interface Sheet {
  bucket: string;
  media: string;
  priority: number;
  rules: Set<string>;
}

/** The parts of Vite's plugin interface this plugin uses (shared/ does not depend on Vite). */
interface HtmlTag {
  tag: string;
  attrs: Record<string, string>;
  children: string;
  injectTo: 'head';
}
export interface GriffelExtractPlugin {
  name: string;
  apply: 'build';
  transform(this: { parse(code: string): unknown }, code: string, id: string): { code: string; map: null } | null;
  transformIndexHtml: { order: 'post'; handler(): HtmlTag[] };
}

export function griffelExtract(): GriffelExtractPlugin {
  const sheets = new Map<string, Sheet>();
  const add = (rules: CssRules) => {
    for (const [bucket, entries] of Object.entries(rules))
      for (const entry of entries) {
        const [css, meta] = typeof entry === 'string' ? [entry, {}] : entry;
        const media = bucket === 'm' ? (meta.m ?? '') : '';
        const priority = meta.p ?? 0;
        const key = `${bucket}\u0000${media}\u0000${priority}`;
        let sheet = sheets.get(key);
        if (!sheet) sheets.set(key, (sheet = { bucket, media, priority, rules: new Set() }));
        sheet.rules.add(css);
      }
  };
  return {
    name: 'dealscout-griffel-extract',
    apply: 'build',
    transform(code, id) {
      if (!/__(?:reset)?[sS]tyles/.test(code) || !/\.[cm]?[jt]sx?$/.test(id.split('?')[0])) return null;
      const ast = this.parse(code) as Node;
      // The local names of @griffel/react's __styles and __resetStyles in this module.
      const local = new Map<string, '__styles' | '__resetStyles'>();
      for (const stmt of ast.body as Node[]) {
        if (
          stmt.type !== 'ImportDeclaration' ||
          !/^@griffel\/react$|^@fluentui\/react-components$/.test((stmt.source as Node).value as string)
        )
          continue;
        for (const s of stmt.specifiers as Node[]) {
          const imported = s.type === 'ImportSpecifier' ? ((s.imported as Node).name as string) : '';
          if (imported === '__styles' || imported === '__resetStyles') local.set((s.local as Node).name as string, imported);
        }
      }
      if (local.size === 0) return null;
      const edits: { start: number; end: number; text: string }[] = [];
      walk(ast, (n) => {
        if (n.type !== 'CallExpression') return;
        const callee = n.callee as Node;
        const kind = callee.type === 'Identifier' ? local.get(callee.name as string) : undefined;
        if (!kind) return;
        const args = n.arguments as Node[];
        const rulesArg = kind === '__styles' ? args[1] : args[2];
        if (!rulesArg || args.some((a) => a.type === 'SpreadElement')) return;
        let rules = literalValue(rulesArg);
        // makeResetStyles' older output: a plain array of rules is the reset bucket.
        if (Array.isArray(rules)) rules = { r: rules };
        if (!placeable(rules)) return;
        add(rules);
        const src = (a: Node | undefined) => (a ? code.slice(a.start, a.end) : 'null');
        edits.push({
          start: n.start,
          end: n.end,
          text: kind === '__styles' ? `__griffelCss(${src(args[0])})` : `__griffelResetCss(${src(args[0])}, ${src(args[1])})`,
        });
      });
      if (edits.length === 0) return null;
      let out = code;
      for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
      // Appended: an import is hoisted wherever it stands, and a leading 'use client' stays first.
      return { code: `${out}\nimport { __css as __griffelCss, __resetCSS as __griffelResetCss } from '@griffel/react';\n`, map: null };
    },
    transformIndexHtml: {
      order: 'post',
      handler() {
        const ordered = [...sheets.values()].sort(
          (a, b) =>
            BUCKET_ORDER.get(a.bucket)! - BUCKET_ORDER.get(b.bucket)! ||
            (a.media < b.media ? -1 : a.media > b.media ? 1 : 0) ||
            a.priority - b.priority,
        );
        return ordered.map((s) => ({
          tag: 'style',
          attrs: {
            'data-make-styles-bucket': s.bucket,
            'data-priority': String(s.priority),
            ...(s.bucket === 'm' ? { media: s.media } : {}),
          },
          children: [...s.rules].join(''),
          injectTo: 'head',
        }));
      },
    },
  };
}
