// The module-cycle lint rule (eslint-module-cycles.js) on a small tree of modules: an import is
// refused when the module it reaches imports back, allowed one way, and allowed for an allowlisted pair.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import moduleCycles from '../../eslint-module-cycles.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'module-cycles-'));
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};
write('a/a.service.ts', "import { b } from '../b/b.service';\nexport const a = b;\n");
write('b/b.service.ts', "import type { a } from '../a/a.service';\nexport const b = 1;\n");
write('b/b.test.ts', "import { c } from '../c/c';\n");
write('c/c.ts', "import { b } from '../b/b.service';\nexport const c = b;\n");

function lint(file: string, allow: string[] = []) {
  const linter = new Linter({ configType: 'flat', cwd: root });
  const config = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser },
      plugins: { dealscout: moduleCycles },
      rules: { 'dealscout/no-module-cycles': ['error', { modulesDir: root, allow }] },
    },
  ];
  return linter
    .verify(fs.readFileSync(path.join(root, file), 'utf8'), config as Linter.Config[], path.join(root, file))
    .map((m) => m.message);
}

describe('no-module-cycles', () => {
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('refuses an import into a module that imports back (type imports count)', () => {
    expect(lint('a/a.service.ts')).toEqual([
      expect.stringMatching(/^Modules a and b import each other \(b imports a in \S*b\/b\.service\.ts\)/),
    ]);
    expect(lint('b/b.service.ts')).toEqual([expect.stringMatching(/^Modules b and a import each other/)]);
  });

  it('allows one direction, imports from tests, and an allowlisted pair', () => {
    expect(lint('c/c.ts')).toEqual([]);
    expect(lint('a/a.service.ts', ['b <-> a'])).toEqual([]);
  });
});
