// Architecture rules as lint rules (docs/ARCHITECTURE.md "Dependency direction"): package boundaries, no `any`, and no
// floating promises in the server. `npm run lint`; part of `npm test`.
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import moduleCycles from './eslint-module-cycles.js';

/**
 * Scoping in one place (docs/ARCHITECTURE.md): in server/src, raw SQL and every way around
 * the tenant filter go through server/src/db/sql.ts (tenantSql / unscopedSql / scopedTo / crossTenant).
 * Its list of reasons (UNSCOPED) is the commented allowlist; this rule finds the unscoped forms
 * everywhere else. Tests and migrations are exempt (fixtures and schema changes write raw SQL).
 */
const SCOPE_HELP =
  'Raw SQL and the tenant filter go through server/src/db/sql.ts: tenantSql(em, organizationId) / ' +
  'scopedTo(organizationId), or unscopedSql / crossTenant with a reason from UNSCOPED (docs/ARCHITECTURE.md, ' +
  '"Scoping in one place").';
export const tenancySyntax = [
  {
    selector: "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(execute|executeQuery|raw)$/]",
    message: `Raw SQL outside the helper. ${SCOPE_HELP}`,
  },
  {
    selector: 'MemberExpression[property.name=/^(getConnection|getKysely|getKnex|createQueryBuilder|qb)$/]',
    message: `Unscoped connection or query builder (filters do not apply). ${SCOPE_HELP}`,
  },
  {
    selector: "ImportDeclaration[source.value='pg-copy-streams']",
    message:
      `COPY goes through tenantCopyClient (server/src/db/sql.ts): tenant statements checked, COPY only into the ` +
      `connection's temporary tables. ${SCOPE_HELP}`,
  },
  {
    selector: "Property[key.name='filters'][value.type='Literal'][value.value=false]",
    message: `\`filters: false\` turns the tenant filter off. ${SCOPE_HELP}`,
  },
  {
    selector: "Property[key.name='filters'] > ObjectExpression > Property[key.name='tenant'][value.type='Literal'][value.value=false]",
    message: `\`filters: { tenant: false }\` turns the tenant filter off. ${SCOPE_HELP}`,
  },
];

const THIN_ROUTES_HELP =
  'Routes only validate, authorize and answer: move the data work into the module\'s service (docs/ARCHITECTURE.md, "Dependency direction").';
const ORM_METHODS =
  'find|findOne|findOneOrFail|findAll|findAndCount|count|create|persist|flush|persistAndFlush|nativeUpdate|nativeDelete|upsert|upsertMany|' +
  'remove|transactional|getReference|insert|insertMany';
const ORM_CALL = `CallExpression[callee.type='MemberExpression'][callee.property.name=/^(${ORM_METHODS})$/]`;
/** Data work a route file may not do itself: ORM calls on an EntityManager, and the SQL helpers. */
export const thinRouteSyntax = [
  {
    selector: `${ORM_CALL}[callee.object.name=/^(em|tem)$/]`,
    message: `ORM call in a route. ${THIN_ROUTES_HELP}`,
  },
  {
    selector: `${ORM_CALL}[callee.object.property.name='em']`,
    message: `ORM call in a route. ${THIN_ROUTES_HELP}`,
  },
  { selector: 'CallExpression[callee.name=/^(tenantSql|unscopedSql|tenantCopyClient)$/]', message: `SQL in a route. ${THIN_ROUTES_HELP}` },
];

/** `@typescript-eslint/no-restricted-imports` entries: each server room may not import the rooms above it. */
function serverRooms() {
  const COMPOSITION = '(app|main|entities|orm-config|database|job-registry|hand-written)$|tools(/|$)';
  const up = (rooms) => `^(\\./|(\\.\\./)+)(${rooms.length ? `(${rooms.join('|')})(/|$)|` : ''}${COMPOSITION})`;
  const entry = (files, rooms, what, extra = {}) => ({
    files,
    ignores: ['server/src/**/*.test.ts', 'server/src/**/fixtures/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: up(rooms),
              message: `${what} (eslint.config.js, serverRooms; docs/ARCHITECTURE.md "Dependency direction").`,
              ...extra,
            },
          ],
        },
      ],
    },
  });
  return [
    entry(
      ['server/src/lib/**/*.ts', 'server/src/config.ts', 'server/src/logger.ts'],
      ['db', 'jobs', 'providers', 'plugins', 'modules'],
      'lib/, config.ts and logger.ts are the ground floor: they import no other room',
    ),
    entry(
      ['server/src/db/**/*.ts'],
      ['jobs', 'providers', 'plugins', 'modules'],
      'db/ stands on lib/ only: the entity list and the ORM config are assembled beside app.ts',
    ),
    entry(
      ['server/src/jobs/**/*.ts'],
      ['providers', 'plugins', 'modules'],
      'jobs/ stands on db/ and lib/: the job list is assembled in job-registry.ts',
    ),
    entry(['server/src/providers/**/*.ts'], ['plugins', 'modules'], 'providers/ (outside services) know nothing of plugins or modules'),
    entry(['server/src/plugins/**/*.ts'], ['modules'], 'plugins/ may import only the types of modules', { allowTypeImports: true }),
    entry(
      ['server/src/modules/**/*.ts'],
      [],
      'modules never import the composition root (app.ts, entities.ts, orm-config.ts, job-registry.ts, tools/)',
    ),
    // A feature's own adapters (modules/<feature>/providers/) stand where providers/ stands: they know
    // nothing of their module's services, of other modules or of plugins.
    {
      files: ['server/src/modules/*/providers/**/*.ts'],
      ignores: ['server/src/**/*.test.ts'],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex:
                  '^\\.\\./(?!\\.\\./)|^\\.\\./\\.\\./(?!\\.\\./)|^\\.\\./\\.\\./\\.\\./(plugins|modules|tools)(/|$)|' +
                  '^\\.\\./\\.\\./\\.\\./(app|main|entities|orm-config|database|job-registry|hand-written)$',
                message:
                  "A feature's providers/ folder is an adapter to an outside service: it imports lib/, db/, providers/ and its " +
                  'own folder only (eslint.config.js, serverRooms).',
              },
            ],
          },
        ],
      },
    },
  ];
}

const boundary = (patterns, message) => ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.output/**',
      '**/.wxt/**',
      'tests/artifacts/**',
      'tests/.chromium/**',
      '.data/**',
      'server/src/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      // No line over 160 characters: Prettier wraps code at 140 but leaves long strings, template
      // literals (SQL) and comments as written. Split those instead (SQL across lines, texts into
      // concatenated parts of the same string).
      'max-len': ['error', { code: 160 }],
    },
  },
  {
    files: ['server/src/**/*.ts'],
    // Types for no-floating-promises from the server's one program (server/tsconfig.json, src and test),
    // built once: a file outside it is an error. The project service (projectService) gave the same
    // findings for about a fifth more CPU.
    languageOptions: { parserOptions: { project: ['./server/tsconfig.json'], tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      'no-restricted-imports': boundary(
        ['@dealscout/shared/ui', '@dealscout/shared/ui/*', '**/shared/src/ui/**', 'react', 'react-dom', '@fluentui/*', '@dealscout/web*'],
        'The server never imports UI code.',
      ),
    },
  },
  // The server's rooms stand on each other in one direction: lib (and config.ts,
  // logger.ts) < db < jobs < providers < plugins < modules < the composition root (app.ts, main.ts,
  // entities.ts, orm-config.ts, database.ts, job-registry.ts, hand-written.ts, tools/). A room never
  // imports one above it; plugins may import module *types* (the Fastify declarations).
  ...serverRooms(),
  // No two modules import each other: what both need moves into the lower one, or into lib/.
  {
    files: ['server/src/modules/**/*.ts'],
    ignores: ['server/src/**/*.test.ts', 'server/src/**/fixtures/**'],
    plugins: { dealscout: moduleCycles },
    rules: {
      'dealscout/no-module-cycles': ['error', { modulesDir: path.join(import.meta.dirname, 'server/src/modules') }],
    },
  },
  {
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/**/*.test.ts', 'server/src/db/sql.ts'],
    rules: { 'no-restricted-syntax': ['error', ...tenancySyntax] },
  },
  // Thin routes: a *.routes.ts file validates, authorizes and answers; the data work (ORM calls, SQL)
  // is in the module's service or use-case files, which the worker, tools and tests call too.
  {
    files: ['server/src/**/*.routes.ts'],
    rules: { 'no-restricted-syntax': ['error', ...tenancySyntax, ...thinRouteSyntax] },
  },
  {
    files: ['shared/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': boundary(
        ['@dealscout/*', '../contracts*', '../client*', '../ui*', 'react', 'react-dom', '@fluentui/*', 'zod', 'node:*'],
        'shared/domain holds pure rules: it imports nothing from other packages or layers.',
      ),
    },
  },
  {
    files: ['shared/src/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': boundary(
        ['@dealscout/*', '../client*', '../ui*', 'react', 'react-dom', '@fluentui/*', 'node:*'],
        'shared/contracts may import zod and shared/domain only.',
      ),
    },
  },
  {
    files: ['shared/src/client/**/*.ts'],
    rules: {
      'no-restricted-imports': boundary(
        ['@dealscout/*', '../ui*', 'react', 'react-dom', '@fluentui/*'],
        'shared/client has no React and no other package.',
      ),
    },
  },
  {
    // The add-in's `office/` adapter is the only code that touches Office.js.
    files: ['addin-outlook/src/**/*.{ts,tsx}'],
    ignores: ['addin-outlook/src/office/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'Office', message: 'Only addin-outlook/src/office/ touches Office.js: use the OutlookHost adapter.' },
        { name: 'OfficeRuntime', message: 'Only addin-outlook/src/office/ touches Office.js.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'globalThis', property: 'Office', message: 'Only addin-outlook/src/office/ touches Office.js.' },
        { object: 'window', property: 'Office', message: 'Only addin-outlook/src/office/ touches Office.js.' },
      ],
    },
  },
  {
    files: [
      'web/src/**/*.{ts,tsx}',
      'addin-outlook/src/**/*.{ts,tsx}',
      'extension-chrome/src/**/*.{ts,tsx}',
      'shared/src/ui/**/*.{ts,tsx}',
    ],
    rules: {
      'no-restricted-imports': boundary(
        ['@dealscout/server*', '**/server/src/**'],
        'Clients talk to the server only through @dealscout/shared/client.',
      ),
    },
  },
  {
    // The extension's host APIs stay behind one adapter.
    files: ['extension-chrome/src/**/*.{ts,tsx}'],
    ignores: ['extension-chrome/src/host/extension-host.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@dealscout/server*', '**/server/src/**'],
              message: 'Clients talk to the server only through @dealscout/shared/client.',
            },
            {
              group: ['webextension-polyfill', 'wxt/browser', '@wxt-dev/browser'],
              message: 'Extension APIs only in src/host/extension-host.ts.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'chrome', message: 'Extension APIs only in src/host/extension-host.ts.' },
        { name: 'browser', message: 'Extension APIs only in src/host/extension-host.ts.' },
      ],
    },
  },
);
