import { defineProject } from 'vitest/config';
import { TEST_WORKERS } from '../tests/support/workers';

// The add-in's tests: the Office adapter against office-addin-mock, the pane's components with a
// fake Api and a scripted Office host. The root vitest.config.ts lists this file among its projects.
export default defineProject({
  test: {
    name: 'addin-outlook',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    // The root's worker count (vitest.config.ts). Left at vitest's default (one worker on two cores), the
    // project's files ran one at a time in a group of their own, after every other file of the run.
    maxWorkers: TEST_WORKERS,
  },
});
