import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestContext } from '../../../test/helpers';

describe('serving the built web app', () => {
  let ctx: TestContext;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-web-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Dealscout</title><div id="root"></div>');
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    ctx = await createTestApp({ env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html for client-side routes', async () => {
    for (const url of ['/', '/login', '/organization/settings', '/invite/abc?x=1']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('serves assets and answers 404 JSON for missing files and API paths', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/assets/app.js' })).body).toBe('console.log(1)');
    const missing = await ctx.app.inject({ method: 'GET', url: '/assets/nope.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ success: false, message: 'Not found' });
    const api = await ctx.app.inject({ method: 'GET', url: '/api/docs/nope' });
    expect(api.statusCode).toBe(404);
  });
});
