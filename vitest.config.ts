import { defineConfig } from 'vitest/config';

// `npm test` runs every project: shared rules, server routes against a real PostgreSQL, and the
// end-to-end journeys in headless Chromium against the built app and a real server.
export default defineConfig({
  test: {
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      'web/vitest.config.ts',
      'addin-outlook/vitest.config.ts',
      'extension-chrome/vitest.config.ts',
      {
        test: {
          name: 'shared',
          include: ['shared/src/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'manifests',
          include: ['manifests/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'repo',
          include: ['tests/repo/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts', 'server/test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A journey waits on what a user waits on (a realtime answer, an upload's report): vitest's
          // 1 s default for expect.poll is shorter than a busy 2-core machine takes.
          expect: { poll: { timeout: 10_000 } },
          pool: 'forks',
          fileParallelism: false,
        },
      },
    ],
  },
});
