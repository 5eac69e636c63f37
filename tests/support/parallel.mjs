// Runs npm scripts side by side and fails when any of them fails: `npm test` runs ESLint, the
// Prettier check and the client builds at once (mostly single-threaded jobs: ESLint, the longest,
// has a core to itself while the other core does the Prettier check and the builds). Each script's
// output is printed in one piece when it ends, so the log reads as if they had run one after the other.
//
//   node tests/support/parallel.mjs lint:eslint lint:format build
import { spawn } from 'node:child_process';
import { Buffer } from 'node:buffer';
import process from 'node:process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write('usage: node tests/support/parallel.mjs <npm script>...\n');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = Date.now();
const results = await Promise.all(
  scripts.map(
    (name) =>
      new Promise((resolve) => {
        const t0 = Date.now();
        const chunks = [];
        const child = spawn(npm, ['run', name], {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
        });
        child.stdout.on('data', (d) => chunks.push(d));
        child.stderr.on('data', (d) => chunks.push(d));
        child.on('error', (err) => chunks.push(Buffer.from(`${err.stack ?? err}\n`)));
        child.on('close', (code, signal) => {
          const seconds = ((Date.now() - t0) / 1000).toFixed(1);
          process.stdout.write(Buffer.concat(chunks));
          process.stdout.write(`\n[${name}] ${code === 0 ? 'done' : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s\n\n`);
          resolve(code === 0);
        });
      }),
  ),
);
process.stdout.write(`[${scripts.join(' + ')}] ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
process.exit(results.every(Boolean) ? 0 : 1);
