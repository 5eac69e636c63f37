import os from 'node:os';

/**
 * How many files run at once: one more than the cores, at least three. A test file spends much of its
 * time waiting on something it started (its server process, PostgreSQL, the browser, a timer): with one
 * file per core a quiet 2-core machine stayed about half idle through the suite. VITEST_MAX_WORKERS
 * overrides it (`VITEST_MAX_WORKERS=1` runs one file at a time).
 */
export const TEST_WORKERS = Number(process.env.VITEST_MAX_WORKERS) || Math.max(3, os.availableParallelism() + 1);
