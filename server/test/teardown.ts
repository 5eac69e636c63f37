// Teardown steps with a bound, for afterAll hooks (vitest's hook timeout would fail a whole file).
/**
 * Waits for a teardown step at most `ms`; past it, says which step hung (on stderr, so CI shows it)
 * and lets the rest of the teardown go on instead of failing the file on the hook's timeout.
 */
export async function boundedTeardown(step: Promise<unknown>, what: string, ms = 10_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const outcome = await Promise.race([
    step.then(
      () => 'done' as const,
      (e: unknown) => {
        throw e;
      },
    ),
    late,
  ]).finally(() => clearTimeout(timer));
  if (outcome === 'late') {
    process.stderr.write(`teardown: ${what} did not finish within ${ms} ms; going on (its connections end with the test database)\n`);
    step.catch(() => {});
  }
}
