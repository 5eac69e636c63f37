// The API as an integrator sees it: the OpenAPI 3.1 document at /api/docs/json passes Redocly's
// recommended rules with no error (the warnings left are listed with their reasons), every
// operation has a stable, unique operationId (the committed list openapi-operation-ids.txt), the
// error answers the guards give are documented and really given, and a typed client generated from
// the document (openapi-typescript) compiles. Offline: nothing here reaches the network.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { AUTH_MESSAGES } from '@dealscout/shared/contracts';
import { createTestApp, createOrg, createUser, signedIn, TestClient, TEST_PASSWORD, type TestContext } from './helpers';
import { operationIdOf } from '../src/plugins/openapi';
import { INVALID_TEXT_MESSAGE } from '../src/plugins/input-guard';

interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { description: string; content?: Record<string, { schema: { $ref?: string } }> }>;
}
interface Document {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

/** The recommended rules' warnings the document keeps, each with its reason (`ruleId pointer`). */
const KEPT_WARNINGS: Record<string, string> = {
  'info-license #/info': "no license is published for the API; choosing one is the owner's decision, not the generator's",
  'no-ambiguous-paths #/paths/~1api~1v1~1list-company~1{id}~1complete':
    "the specification's paths; DELETE /list-company/source/{id} and POST /list-company/{id}/complete differ by " +
    'method and take uuids, so no request matches both',
  'no-ambiguous-paths #/paths/~1api~1v1~1list-company~1{id}~1complete-confirmation':
    "the specification's paths; DELETE /list-company/source/{id} and GET /list-company/{id}/complete-confirmation differ by method, so no request matches both",
  'operation-2xx-response #/paths/~1api~1v1~1integrations~1salesforce~1callback/get/responses':
    "Salesforce's OAuth redirect target: the browser is always sent on (302)",
  'operation-2xx-response #/paths/~1api~1v1~1user~1o365-integration~1callback/get/responses':
    "Microsoft's OAuth redirect target: the browser is always sent on (302)",
};

const PUBLIC_URL = 'https://deals.acme-capital.test';

describe('the OpenAPI document', () => {
  let ctx: TestContext;
  let doc: Document;
  let ops: (Operation & { method: string; path: string })[];
  let admin: TestClient;
  let adminBearer: TestClient;
  let userBearer: TestClient;

  beforeAll(async () => {
    ctx = await createTestApp({ env: { PUBLIC_URL } });
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
    ops = Object.entries(doc.paths).flatMap(([p, byMethod]) =>
      Object.entries(byMethod).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path: p })),
    );
    const org = await createOrg(ctx);
    const member = await createUser(ctx, org.organization.id);
    admin = await signedIn(ctx, org.admin.email);
    admin.sendCsrf = false;
    const bearerOf = async (email: string, ip: string) => {
      const c = new TestClient(ctx.app, ip);
      const tok = await c.post('/api/v1/auth/token', { email, password: TEST_PASSWORD, label: 'openapi test' });
      expect(tok.statusCode, tok.body).toBe(200);
      c.bearer = tok.json().token;
      return c;
    };
    adminBearer = await bearerOf(org.admin.email, '10.0.0.2');
    userBearer = await bearerOf(member.email, '10.0.0.3');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('is OpenAPI 3.1 with this server as its server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([expect.objectContaining({ url: PUBLIC_URL })]);
    expect(ops.length).toBeGreaterThan(150);
  });

  it("passes Redocly's recommended rules: no error, and only the warnings kept with a reason", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: path.join(os.tmpdir(), 'dealscout-openapi.json'),
      config,
    });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(errors).toEqual([]);
    const warnings = problems.filter((p) => p.severity !== 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}`);
    expect(warnings.sort()).toEqual(Object.keys(KEPT_WARNINGS).sort());
  });

  it('names every operation with a unique operationId from its route, the same as the committed list', async () => {
    const missing = ops.filter((op) => !op.operationId).map((op) => `${op.method} ${op.path}`);
    expect(missing).toEqual([]);
    const ids = ops.map((op) => op.operationId!);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    // Stable across releases: a changed or removed id breaks generated clients, so it changes only on purpose
    // (`npx vitest run server/test/openapi.test.ts -u` rewrites the list; review its diff).
    const list = ops
      .map((op) => `${op.operationId} ${op.method} ${op.path}`)
      .sort()
      .join('\n');
    await expect(`${list}\n`).toMatchFileSnapshot('./openapi-operation-ids.txt');
  });

  it('derives an operationId from the method and the path', () => {
    expect(operationIdOf('GET', '/health')).toBe('getHealth');
    expect(operationIdOf('POST', '/api/v1/auth/login')).toBe('postAuthLogin');
    expect(operationIdOf('POST', '/api/account/logout')).toBe('postAccountLogout');
    expect(operationIdOf('GET', '/api/v1/list-company/:id/complete-confirmation')).toBe('getListCompanyByIdCompleteConfirmation');
    expect(operationIdOf('DELETE', '/api/v1/user/tablelayout/{entityType}/{id}')).toBe('deleteUserTablelayoutByEntityTypeById');
    expect(operationIdOf('PUT', '/api/v1/organization/useSystemLLMSetting')).toBe('putOrganizationUseSystemLLMSetting');
  });

  it('describes a success answer and the error answers of every operation, errors in the one error shape', () => {
    const problems: string[] = [];
    for (const op of ops) {
      const route = `${op.method} ${op.path}`;
      const statuses = Object.keys(op.responses);
      if (!statuses.some((s) => Number(s) < 400)) problems.push(`${route}: no success answer`);
      if (!statuses.some((s) => s.startsWith('4'))) problems.push(`${route}: no 4xx answer`);
      for (const s of statuses.filter((x) => Number(x) >= 400)) {
        if (op.responses[s].content?.['application/json']?.schema.$ref !== '#/components/schemas/ErrorResponse')
          problems.push(`${route} ${s}: not the error shape`);
      }
      const isPublic = Array.isArray(op.security) && op.security.length === 0;
      if (!isPublic && !statuses.includes('401')) problems.push(`${route}: needs a session but documents no 401`);
    }
    expect(problems).toEqual([]);
  });

  /** A request to the operation's path with its parameters filled (the guards answer before any handler). */
  const urlOf = (op: Operation & { path: string }, query = '') =>
    op.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000') + query;

  it(
    'every guard answer it documents is really given (400 bad text, 401, 403 admin and CSRF, 413, 415)',
    { timeout: 240_000 },
    async () => {
      const problems: string[] = [];
      const expectStatus = (route: string, what: string, res: { statusCode: number; body: string }, status: number, message?: string) => {
        if (res.statusCode !== status)
          problems.push(`${route} ${what}: ${res.statusCode} instead of ${status} (${res.body.slice(0, 120)})`);
        else if (message && !res.body.includes(message)) problems.push(`${route} ${what}: ${res.body.slice(0, 160)}`);
      };
      let checked = 0;
      for (const op of ops) {
        const route = `${op.method} ${op.path}`;
        const method = op.method as 'GET';
        const documented = (s: number) => String(s) in op.responses;
        const description = (s: number) => op.responses[String(s)]?.description ?? '';
        expectStatus(
          route,
          'with NUL in the query string',
          await adminBearer.request(method, urlOf(op, '?zz=%00')),
          400,
          INVALID_TEXT_MESSAGE,
        );
        // A public route's own 401 (a wrong password) is its handler's, tested with the route.
        const isPublic = op.security?.length === 0;
        if (!isPublic)
          expectStatus(route, 'without a session', await ctx.app.inject({ method, url: urlOf(op) }), 401, AUTH_MESSAGES.unauthorized);
        if (description(403).includes(AUTH_MESSAGES.forbidden))
          expectStatus(route, "as a User (admins' route)", await userBearer.request(method, urlOf(op)), 403, AUTH_MESSAGES.forbidden);
        if (description(403).includes(AUTH_MESSAGES.csrf))
          expectStatus(
            route,
            'from a cookie session without x-csrf-token',
            await admin.request(method, urlOf(op), {}),
            403,
            AUTH_MESSAGES.csrf,
          );
        if (op.requestBody) {
          const big = JSON.stringify({ zz: 'x'.repeat(ctx.config.BODY_LIMIT_BYTES) });
          if (!documented(413) || !documented(415)) problems.push(`${route}: takes a body but documents no 413 or 415`);
          expectStatus(
            route,
            'with a body over the limit',
            await adminBearer.request(method, urlOf(op), big, { 'content-type': 'application/json' }),
            413,
          );
          expectStatus(
            route,
            'with an XML body',
            await adminBearer.request(method, urlOf(op), '<zz/>', { 'content-type': 'application/xml' }),
            415,
          );
        }
        checked++;
      }
      expect(problems).toEqual([]);
      expect(checked).toBe(ops.length);
    },
  );

  it('generates a typed client (openapi-typescript) that compiles with tsc', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dealscout-client-'));
    try {
      writeFileSync(path.join(dir, 'api.ts'), astToString(await openapiTS(doc as unknown as OpenAPI3, { silent: true })));
      // A few calls as an integrator would type them; the last line proves the types are not `any`.
      writeFileSync(
        path.join(dir, 'usage.ts'),
        `
import type { paths, operations, components } from './api';
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
export const login: operations['postAuthLogin']['requestBody']['content']['application/json'] = { email: 'ada@example.com', password: 'Secret123' };
export const emailOf = (ok: Json<operations['postAuthLogin']['responses'][200]>): string => ok.user.email;
export const messageOf = (e: components['schemas']['ErrorResponse']): string => e.message;
export const gone: Json<operations['getCompanyDetailsById']['responses'][404]> = { success: false, message: 'Not found' };
export const company: operations['getCompanyDetailsById']['parameters']['path'] = { id: '00000000-0000-4000-8000-000000000000' };
export const models: paths['/api/v1/scoring-model']['get']['parameters']['query'] = { listCompanyId: '00000000-0000-4000-8000-000000000000' };
// @ts-expect-error the body's email is a string
export const wrong: operations['postAuthLogin']['requestBody']['content']['application/json'] = { email: 1, password: 'x' };
`,
      );
      const program = ts.createProgram([path.join(dir, 'usage.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        types: [],
        skipLibCheck: true,
      });
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(diagnostics).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
