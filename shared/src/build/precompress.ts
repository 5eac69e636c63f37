// A Vite plugin that writes a brotli (.br) and a gzip (.gz) copy beside every text asset of the
// build (JavaScript, CSS, HTML, SVG, JSON), so the server sends them compressed without compressing
// on each request (@fastify/static's `preCompressed` picks the copy the browser accepts). Small
// files (under 1 KB) and copies that would not be smaller are left out: the plain file is served.
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/i;
export const PRECOMPRESS_MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(p)));
    else if (COMPRESSIBLE.test(entry.name)) out.push(p);
  }
  return out;
}

/** Writes `<file>.br` and `<file>.gz` for every compressible file of `dir`; answers how many files got copies. */
export async function precompressDir(dir: string): Promise<number> {
  let n = 0;
  for (const file of await filesUnder(dir)) {
    const body = await fs.readFile(file);
    if (body.length < PRECOMPRESS_MIN_BYTES) continue;
    const [br, gz] = await Promise.all([
      brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
      gzip(body, { level: 9 }),
    ]);
    if (br.length < body.length) await fs.writeFile(`${file}.br`, br);
    if (gz.length < body.length) await fs.writeFile(`${file}.gz`, gz);
    n++;
  }
  return n;
}

/** The plugin: runs once the bundle is written to the build's outDir. */
export function precompress(): {
  name: string;
  apply: 'build';
  configResolved(config: { root: string; build: { outDir: string } }): void;
  closeBundle: { sequential: true; order: 'post'; handler(): Promise<void> };
} {
  let outDir = '';
  return {
    name: 'dealscout-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      sequential: true,
      order: 'post',
      async handler() {
        await precompressDir(outDir);
      },
    },
  };
}
