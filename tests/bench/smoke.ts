// Runs a bench script as `npm run bench…` does (a child process), on the test run's PostgreSQL and
// at a tiny size, and fails with its output when it does not finish cleanly. The benches' figures
// are not asserted: these runs only prove that every bench still builds its data from an empty
// database and runs to its end.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import '../../server/test/provided';

const ARTIFACTS = path.resolve('tests/artifacts');
fs.mkdirSync(ARTIFACTS, { recursive: true });

export async function runBench(script: string, args: string[], env: Record<string, string> = {}, timeoutMs = 240_000): Promise<string> {
  const adminUrl = inject('pgAdminUrl');
  // Every bench takes its server from one of these; none writes docs/benchmarks.md at these sizes.
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    BENCH_DATABASE_URL: adminUrl,
    TEST_DATABASE_URL: adminUrl,
    BENCH_TIME_LIMIT_MINUTES: String(Math.ceil(timeoutMs / 60_000)),
    ...env,
  };
  delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('tests/bench', script), ...args], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number | string>((resolve) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(`killed after ${timeoutMs} ms`);
    }, timeoutMs);
    child.on('exit', (c, signal) => {
      clearTimeout(t);
      resolve(c ?? String(signal));
    });
  });
  // The whole output stays in tests/artifacts for a look at the figures or a failure.
  fs.writeFileSync(
    path.join(
      ARTIFACTS,
      `bench-smoke-${script.replace(/\.ts$/, '')}-${args
        .join('_')
        .replace(/[^\w,.-]+/g, '_')
        .slice(0, 60)}.log`,
    ),
    output,
  );
  if (code !== 0) throw new Error(`${script} ${args.join(' ')} ended with ${code}:\n${output.slice(-8000)}`);
  return output;
}
