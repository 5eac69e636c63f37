import { describe, expect, it } from 'vitest';
import { parseAst } from 'vite';
import { griffelExtract } from '../../../shared/src/build/griffelExtract';

// The build's extraction of Fluent's precompiled styles (web/vite.config.ts): what a module becomes
// and what the page's head gets, with Vite's own parser as in the build.
const ctx = { parse: (code: string) => parseAst(code) };

describe('griffelExtract', () => {
  it("turns __styles/__resetStyles with literal rules into class-name-only calls and puts their rules in the head in Griffel's order", () => {
    const plugin = griffelExtract();
    const code = [
      "import { __styles, __resetStyles } from '@griffel/react';",
      "export const useA = __styles({ root: { sj55zd: 'f19n0e5' } }, { d: ['.f19n0e5{color:red;}'], h: ['.fh1{color:blue;}'] });",
      "export const useR = __resetStyles('r1', null, ['.r1{display:flex;}']);",
      "export const useM = __styles({ x: { a: 'fm1' } }, { m: [['@media (min-width: 1px){.fm1{top:0;}}', { m: '(min-width: 1px)' }]] });",
    ].join('\n');
    const out = plugin.transform.call(ctx, code, '/x/node_modules/@fluentui/a/lib/useA.styles.js');
    expect(out).not.toBeNull();
    expect(out!.code).toContain("__griffelCss({ root: { sj55zd: 'f19n0e5' } })");
    expect(out!.code).toContain("__griffelResetCss('r1', null)");
    expect(out!.code).not.toMatch(/color:red/);
    expect(out!.code).toContain("import { __css as __griffelCss, __resetCSS as __griffelResetCss } from '@griffel/react';");
    const tags = plugin.transformIndexHtml.handler();
    expect(tags.map((t) => [t.attrs['data-make-styles-bucket'], t.attrs.media ?? '', t.children])).toEqual([
      ['r', '', '.r1{display:flex;}'],
      ['d', '', '.f19n0e5{color:red;}'],
      ['h', '', '.fh1{color:blue;}'],
      ['m', '(min-width: 1px)', '@media (min-width: 1px){.fm1{top:0;}}'],
    ]);
  });

  it('leaves a call alone when its rules are not a literal, and a module without them untouched', () => {
    const plugin = griffelExtract();
    const dynamic =
      "import { __styles } from '@griffel/react';\nconst rules = { d: [] };\nexport const u = __styles({ a: { b: 'c' } }, rules);";
    expect(plugin.transform.call(ctx, dynamic, '/x/a.js')).toBeNull();
    expect(plugin.transform.call(ctx, "export const a = '__styles';", '/x/b.js')).toBeNull();
    expect(plugin.transformIndexHtml.handler()).toEqual([]);
  });
});
