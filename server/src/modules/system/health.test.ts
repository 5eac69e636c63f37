import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';

describe('GET /health and the error contract', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('answers ok when the database is reachable', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'up' });
  });

  it('answers 404 as JSON with success false for unknown API paths', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(res.statusCode).toBe(401); // default-deny comes before routing to nothing: no session
    const res2 = await ctx.app.inject({ method: 'GET', url: '/nope.js' });
    expect(res2.statusCode).toBe(404);
    expect(res2.json()).toEqual({ success: false, message: 'Not found' });
  });

  it('sets security headers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
  });

  it('refuses CORS from origins that are not configured', async () => {
    const bad = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/user',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(bad.headers['access-control-allow-origin']).toBeUndefined();
    const good = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/user',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' },
    });
    expect(good.headers['access-control-allow-origin']).toBe('http://localhost:3000');
  });

  it('limits the body size with a JSON error', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(ctx.config.BODY_LIMIT_BYTES + 10) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().success).toBe(false);
  });

  it('serves the OpenAPI document generated from the contracts', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/auth/login', '/api/v1/user', '/api/v1/organization/invite', '/api/account/logout']),
    );
    expect(doc.paths['/api/v1/auth/login'].post.requestBody.content['application/json'].schema.properties.email).toBeDefined();
  });
});
