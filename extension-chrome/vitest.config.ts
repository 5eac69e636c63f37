import { defineProject } from 'vitest/config';

// The extension's unit and component tests: the page extractors over saved fixture pages, the
// panel's rules, and the panel's components over an in-memory host. The root vitest.config.ts
// lists this file among its projects.
export default defineProject({
  test: {
    name: 'extension',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
  },
});
