// Scoping in one place: the lint refuses raw SQL and the tenant filter turned off anywhere in
// server/src but db/sql.ts (eslint.config.js, `tenancySyntax`). Checked on snippets of each unscoped
// form, and on the configuration the real files get.
import { describe, it, expect } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { tenancySyntax } from '../../eslint.config.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function problems(code: string): string[] {
  const linter = new Linter({ configType: 'flat' });
  return linter
    .verify(
      code,
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser as Linter.Parser },
          rules: { 'no-restricted-syntax': ['error', ...tenancySyntax] },
        },
      ],
      'x.ts',
    )
    .map((m) => m.message);
}

describe('lint: raw SQL and the tenant filter go through db/sql.ts', () => {
  it.each([
    ['em.execute', "await em.execute('delete from company where id = ?', [id]);"],
    ['req.em.execute', "await req.em.execute<{ id: string }[]>('select id from company');"],
    ['a connection', "const conn = em.getConnection(); await conn.execute('select 1');"],
    ['kysely', "await em.getKysely().selectFrom('company').selectAll().execute();"],
    ['a query builder', 'await em.createQueryBuilder(Company).where({ id }).getResult();'],
    ['knex.raw', "await knex.raw('select 1');"],
    ['filters: false', 'await em.find(User, { email }, { filters: false });'],
    ['filters: { tenant: false }', "await em.findOne(Session, { tokenHash }, { populate: ['user'], filters: { tenant: false } });"],
    ['executeQuery', 'await trx.executeQuery({ sql, parameters: [] });'],
    ['COPY around tenantCopyClient', "import { from as copyFrom } from 'pg-copy-streams';"],
  ])('refuses %s', (_name, code) => {
    const found = problems(code);
    expect(found.length).toBeGreaterThan(0);
    expect(found.join('\n')).toMatch(/server\/src\/db\/sql\.ts/);
  });

  it.each([
    ['tenantSql', "await tenantSql(em, organizationId).all('select id from company where organization_id = ?', [organizationId]);"],
    ['scopedTo', 'await em.find(User, { email }, scopedTo(organizationId));'],
    ['crossTenant', "await em.findOne(User, { email }, crossTenant('sign-in'));"],
    ['the tenant filter with its organization', 'await em.find(User, {}, { filters: { tenant: { organizationId } } });'],
  ])('lets %s pass', (_name, code) => {
    expect(problems(code)).toEqual([]);
  });

  it('applies to every server source file but db/sql.ts and tests', async () => {
    const eslint = new ESLint({ cwd: root });
    const rule = async (file: string) =>
      ((await eslint.calculateConfigForFile(path.join(root, file))) as { rules?: Record<string, unknown> }).rules?.['no-restricted-syntax'];
    for (const file of [
      'server/src/modules/records/records.service.ts',
      'server/src/jobs/cleanup.job.ts',
      'server/src/modules/auth/auth.plugin.ts',
      'server/src/app.ts',
      'server/src/modules/some-new-module/new.routes.ts',
    ]) {
      expect(JSON.stringify(await rule(file)), file).toContain('getConnection');
    }
    expect(JSON.stringify((await rule('server/src/db/sql.ts')) ?? null)).not.toContain('getConnection');
    expect(JSON.stringify((await rule('server/src/db/sql.test.ts')) ?? null)).not.toContain('getConnection');
  });
});

describe('lint: the server rooms import downward only (lib < db < jobs < providers < plugins < modules < composition root)', () => {
  const restricted = async (file: string, code: string) => {
    // Without type information (the import rule needs none; building the program takes ~40 s).
    const eslint = new ESLint({
      cwd: root,
      overrideConfig: {
        languageOptions: { parserOptions: { project: false, projectService: false } },
        rules: { '@typescript-eslint/no-floating-promises': 'off' },
      },
    });
    const [r] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return r.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.line);
  };
  it.each([
    ['db imports a module', 'server/src/db/embedded.ts', "import { User } from '../modules/users/user.entity';\nexport const x = User;\n"],
    ['jobs import the entity list', 'server/src/jobs/boss.ts', "import { entities } from '../entities';\nexport const x = entities;\n"],
    [
      'a module imports the composition root',
      'server/src/modules/records/export.ts',
      "import { entities } from '../../entities';\nexport const x = entities;\n",
    ],
    [
      'a module imports a tool',
      'server/src/modules/records/export.ts',
      "import { seedDemo } from '../../tools/demo';\nexport const x = seedDemo;\n",
    ],
    ['lib imports db', 'server/src/lib/tokens.ts', "import { tenantSql } from '../db/sql';\nexport const t = tenantSql;\n"],
    [
      'config imports a provider',
      'server/src/config.ts',
      "import { outboundFetchFor } from './providers/web/outbound';\nexport const t = outboundFetchFor;\n",
    ],
    [
      'a plugin imports a module at run time',
      'server/src/plugins/types.ts',
      "import { User } from '../modules/users/user.entity';\nexport const u = User;\n",
    ],
  ])('refuses: %s', async (_name, file, code) => {
    expect(await restricted(file, code)).toEqual([1]);
  });
  it.each([
    [
      'a module imports db, jobs, lib and another module',
      'server/src/modules/records/export.ts',
      "import { tenantSql } from '../../db/sql';\nimport { defineJob } from '../../jobs/definitions';\nimport { " +
        "sha256 } from '../../lib/tokens';\nimport { User } from '../users/user.entity';\nexport const x = [tenantSql, " +
        'defineJob, sha256, User];\n',
    ],
    [
      'a plugin imports module types',
      'server/src/plugins/types.ts',
      "import type { IUser } from '../modules/users/user.entity';\nexport type X = IUser;\n",
    ],
    [
      'the composition root imports everything',
      'server/src/entities.ts',
      "import { User } from './modules/users/user.entity';\nimport { tenantSql } from './db/sql';\nexport const x = [User, tenantSql];\n",
    ],
  ])('allows: %s', async (_name, file, code) => {
    expect(await restricted(file, code)).toEqual([]);
  });
});
