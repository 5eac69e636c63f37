// The NUL / lone-surrogate rule, proven on every registered route: whatever a route expects, a NUL
// character or a lone surrogate in its body, query string or path answers 400 with the one message
// (never a 500, never a half-written change).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../test/helpers';
import { INVALID_TEXT_MESSAGE, findInvalidText } from './input-guard';

const ID = '00000000-0000-4000-8000-000000000000';
const fill = (url: string) => url.replace(/:[A-Za-z]+/g, ID).replace(/\*/g, 'x');

describe('NUL characters and lone surrogates: 400 on every route', () => {
  let ctx: TestContext;
  let admin: TestClient;
  beforeAll(async () => {
    ctx = await createTestApp();
    const { admin: a } = await createOrg(ctx);
    admin = await signedIn(ctx, a.email);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const apiRoutes = () => {
    const seen = new Set<string>();
    return ctx.app.registeredRoutes.filter((r) => {
      const key = `${r.method} ${r.url}`;
      if (r.method === 'HEAD' || r.method === 'OPTIONS' || !r.url.startsWith('/api/') || r.url.startsWith('/api/docs') || seen.has(key))
        return false;
      seen.add(key);
      return true;
    });
  };

  it('walks a real list of routes', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['POST /api/v1/auth/login', 'POST /api/v1/company/export', 'POST /api/v1/organization/integration']),
    );
  });

  for (const [what, bad] of [
    ['a NUL character', 'a\u0000b'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', '\udc00'],
  ] as const) {
    it(`${what} in the body (value or key) of every state-changing route`, async () => {
      const failures: string[] = [];
      for (const r of apiRoutes().filter((x) => !['GET'].includes(x.method))) {
        for (const body of [
          { name: bad, text: bad, email: `x${bad}@example.com` },
          { [`k${bad}`]: 'v' },
          { selection: { allSelected: true, text: bad } },
        ]) {
          const res = await admin.request(r.method as 'POST', fill(r.url), body);
          if (res.statusCode !== 400 || res.json().message !== INVALID_TEXT_MESSAGE)
            failures.push(`${r.method} ${r.url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it('a NUL or lone surrogate in the query string or a path parameter of every route', async () => {
    const failures: string[] = [];
    for (const r of apiRoutes()) {
      const withQuery = `${fill(r.url)}?q=${encodeURIComponent('a\u0000')}`;
      const res = await admin.request(r.method as 'GET', withQuery, r.method === 'GET' ? undefined : {});
      if (res.statusCode !== 400 || res.json().message !== INVALID_TEXT_MESSAGE)
        failures.push(`${r.method} ${withQuery}: ${res.statusCode} ${res.body.slice(0, 120)}`);
      if (r.url.includes(':')) {
        const withParam = r.url.replace(/:[A-Za-z]+/g, '%ED%A0%80x%00').replace(/\*/g, 'x');
        const p = await admin.request(r.method as 'GET', withParam, r.method === 'GET' ? undefined : {});
        if (p.statusCode !== 400) failures.push(`${r.method} ${withParam}: ${p.statusCode} ${p.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('changes nothing: a profile update with a NUL is refused whole', async () => {
    const before = (await admin.get('/api/v1/user')).body;
    const res = await admin.put('/api/v1/user/profile', { firstName: 'Ok', lastName: 'Bad\u0000' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      message: INVALID_TEXT_MESSAGE,
      issues: [{ path: 'body.lastName', message: INVALID_TEXT_MESSAGE }],
    });
    expect((await admin.get('/api/v1/user')).body).toBe(before);
  });

  it('the export answers 400 before streaming (no 200 with a cut file)', async () => {
    const res = await admin.post('/api/v1/company/export', { selection: { allSelected: true, text: 'acme\u0000' } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json().message).toBe(INVALID_TEXT_MESSAGE);
  });

  it('findInvalidText: well-formed pairs and ordinary text pass', () => {
    expect(findInvalidText({ a: ['ok', { b: 'emoji 😀 ok', ключ: 'значение' }], n: 1, t: true, z: null })).toBeNull();
    expect(findInvalidText({ a: ['ok', { b: 'x\u0000' }] })).toBe('a.1.b');
    expect(findInvalidText('\ud83d')).toBe('');
  });
});
