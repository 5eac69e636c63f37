import { defineProject } from 'vitest/config';

// The web app's unit tests (pure rules and the session controller, no DOM). The root
// vitest.config.ts lists this file among its projects.
export default defineProject({
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
  },
});
