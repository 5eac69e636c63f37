import { defineConfig } from 'vitest/config';
import { TEST_WORKERS } from './tests/support/workers.ts';
import SlowestFirstSequencer from './tests/support/sequencer.ts';

// `npm test` runs every project: shared rules, server routes against a real PostgreSQL, and the
// end-to-end journeys in headless Chromium against the built app and a real server.
// Files of every project share the workers, longest first (tests/support/sequencer.ts), one more
// worker than the machine has cores (tests/support/workers.ts): a file waits on PostgreSQL, a server
// or the browser much of its time, and vitest's own default on a 2-core machine (a single worker)
// leaves the cores idle meanwhile.
export default defineConfig({
  test: {
    reporters: ['default', './tests/support/summary-reporter.ts'],
    maxWorkers: TEST_WORKERS,
    sequence: { sequencer: SlowestFirstSequencer },
    projects: [
      'web/vitest.config.ts',
      'addin-outlook/vitest.config.ts',
      'extension-chrome/vitest.config.ts',
      {
        test: {
          name: 'shared',
          include: ['shared/src/**/*.test.{ts,tsx}'],
          environment: 'node',
          // The UI tests type into jsdom with user-event: a few seconds each when the machine's two
          // cores also run servers and browsers beside them (vitest's 5 s default timed out there).
          testTimeout: 20_000,
          // The files of a worker share one module cache (React, Fluent UI, testing-library are imported once
          // per worker, not once per file: imports were about half of the project's time). Each file still
          // gets its own jsdom; the tests that fake timers put the real ones back after each test.
          isolate: false,
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
          // The files of a worker share one module cache: the server's modules (Fastify, MikroORM, every
          // feature) are imported once per worker instead of once per file — imports were a fifth to
          // two fifths of the project's time. Each file still builds its own app on its own database;
          // process-wide state (the metrics registry) is reset by the tests that count it.
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          // Each journey file starts its own server on its own database and opens its own contexts in
          // the run's one Chromium (tests/support/browser-setup.ts). The files share the run's workers
          // with the other projects (longest first): run one at a time after everything else, the
          // journeys alone took half of the suite's time.
          globalSetup: ['server/test/global-setup.ts', 'tests/support/browser-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A journey waits on what a user waits on (a realtime answer, an upload's report): vitest's
          // 1 s default for expect.poll is shorter than a busy 2-core machine takes.
          expect: { poll: { timeout: 10_000 } },
          pool: 'forks',
          fileParallelism: true,
          // A worker's journey files share one module cache (Playwright, the helpers, the fakes: about a second
          // of CPU per file); each file still starts and stops its own server, fakes and browser contexts.
          isolate: false,
        },
      },
      {
        test: {
          // Benches (npm run bench…) at a tiny size, from an empty database: a bench that no longer
          // runs fails here. Figures are not checked.
          name: 'bench',
          include: ['tests/bench/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 300_000,
          pool: 'forks',
        },
      },
    ],
  },
});
