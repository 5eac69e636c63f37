// Runs npm scripts side by side and fails when any of them fails. `npm test` runs the Prettier
// check beside the client builds, then vitest beside ESLint:
//
//   node tests/support/parallel.mjs lint:format build
//   node tests/support/parallel.mjs --live test:vitest --nice lint:eslint
//
// A script after `--live` streams its output as it runs (vitest's progress); the others' output is
// printed in one piece when each ends. A script after `--nice` runs at a lower CPU priority (nice 10):
// ESLint takes the CPU the test files leave while they wait on their servers, databases and browser,
// instead of holding up the tests for a minute before they start.
import { spawn } from 'node:child_process';
import { Buffer } from 'node:buffer';
import os from 'node:os';
import process from 'node:process';

const NICE = 10;
const jobs = [];
for (let i = 2, mode = 'buffered'; i < process.argv.length; i++) {
  const arg = process.argv[i];
  if (arg === '--live' || arg === '--nice') mode = arg.slice(2);
  else {
    jobs.push({ name: arg, mode });
    mode = 'buffered';
  }
}
if (jobs.length === 0) {
  process.stderr.write('usage: node tests/support/parallel.mjs [--live|--nice] <npm script>...\n');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = Date.now();
const results = await Promise.all(
  jobs.map(
    ({ name, mode }) =>
      new Promise((resolve) => {
        const t0 = Date.now();
        const chunks = [];
        const live = mode === 'live';
        const child = spawn(npm, ['run', name], {
          stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'],
          env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (live ? '1' : '0') },
        });
        if (mode === 'nice' && child.pid !== undefined) {
          try {
            // Set before npm starts the script (npm takes a few hundred ms to start): what it
            // starts inherits the priority.
            os.setPriority(child.pid, NICE);
          } catch {
            /* not permitted here: the script runs at the normal priority */
          }
        }
        if (!live) {
          child.stdout.on('data', (d) => chunks.push(d));
          child.stderr.on('data', (d) => chunks.push(d));
        }
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
process.stdout.write(`[${jobs.map((j) => j.name).join(' + ')}] ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
process.exit(results.every(Boolean) ? 0 : 1);
