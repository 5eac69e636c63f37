import { defineProject } from 'vitest/config';
import { TEST_WORKERS } from '../tests/support/workers';

// The extension's unit and component tests: the page extractors over saved fixture pages, the
// panel's rules, and the panel's components over an in-memory host. The root vitest.config.ts
// lists this file among its projects.
export default defineProject({
  test: {
    name: 'extension',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    // The root's worker count (vitest.config.ts). Left at vitest's default (one worker on two cores), the
    // project's files ran one at a time in a group of their own, after every other file of the run.
    maxWorkers: TEST_WORKERS,
  },
});
