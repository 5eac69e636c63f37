// The server's entry point (server/src/main.ts) as one ES module for the tests that spawn real
// server and worker processes (the browser journeys' server, the crash, stop and role tests).
// Started through tsx, each process resolved and transformed the server's few hundred modules
// itself: about two seconds of CPU more per process than loading them bundled, and a run starts
// dozens. The global setup bundles once per run (esbuild, the transform tsx uses); the packages
// stay outside the bundle and load from node_modules as they do under tsx. Each module keeps its
// own import.meta.url, so paths built from it (the repository root, the migrations folder) are the
// source's. Outside a vitest run (a bench script), or with TEST_SERVER_TSX=1, processes start
// through tsx as `npm run serve` does.
import { build } from 'esbuild';
import { inject } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The bundled server/src/main.ts of this run ('' when processes start through tsx). */
    serverMain: string;
  }
}

const ENTRY = path.resolve('server/src/main.ts');

/**
 * Bundles server/src/main.ts into node_modules/.cache (inside the repository, so the packages it
 * imports resolve from node_modules as they do from server/src). Answers the file and its removal.
 */
export async function bundleMain(): Promise<{ file: string; remove(): void }> {
  const dir = path.resolve('node_modules/.cache/dealscout-test');
  const file = path.join(dir, `main-${process.pid}-${Date.now()}.mjs`);
  fs.mkdirSync(dir, { recursive: true });
  await build({
    entryPoints: [ENTRY],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: 'linked',
    logLevel: 'error',
    plugins: [
      {
        name: 'packages-outside',
        setup(b) {
          // Bare imports load from node_modules at run time, except our own workspaces (TypeScript source).
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@dealscout/') ? undefined : { path: args.path, external: true },
          );
          b.onLoad({ filter: /\.tsx?$/ }, async (args) => {
            const source = await fs.promises.readFile(args.path, 'utf8');
            const url = JSON.stringify(pathToFileURL(args.path).href);
            return { contents: source.replace(/\bimport\.meta\.url\b/g, url), loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
          });
        },
      },
    ],
  });
  return {
    file,
    remove() {
      fs.rmSync(file, { force: true });
      fs.rmSync(`${file}.map`, { force: true });
    },
  };
}

/** The node arguments that start the server's main: the run's bundle, or main.ts through tsx. */
export function mainArgs(): string[] {
  let bundled = '';
  try {
    bundled = inject('serverMain');
  } catch {
    /* not inside a vitest run */
  }
  return bundled && process.env.TEST_SERVER_TSX !== '1' ? [bundled] : ['--import', 'tsx', ENTRY];
}
