import { defineProject } from 'vitest/config';

// The add-in's tests: the Office adapter against office-addin-mock, the pane's components with a
// fake Api and a scripted Office host. The root vitest.config.ts lists this file among its projects.
export default defineProject({
  test: {
    name: 'addin-outlook',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
  },
});
