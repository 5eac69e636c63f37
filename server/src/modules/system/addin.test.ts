import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestContext } from '../../../test/helpers';

describe('serving the Outlook add-in', () => {
  let ctx: TestContext;
  let dist: string;
  let officeJs: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-addin-'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><title>Dealscout for Outlook</title><script src="./office-js/office.js"></script>',
    );
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'pane.js'), 'console.log("pane")');
    fs.writeFileSync(path.join(dist, 'assets', 'index-Ab_c-123.js'), 'console.log("hashed")');
    officeJs = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-officejs-'));
    fs.writeFileSync(path.join(officeJs, 'office.js'), 'var Office = {};');
    fs.mkdirSync(path.join(officeJs, 'en-us'));
    fs.writeFileSync(path.join(officeJs, 'en-us', 'outlook_strings.js'), 'var strings = 1;');
    ctx = await createTestApp({ env: { ADDIN_DIST: dist, OFFICE_JS_DIST: officeJs, WEB_DIST: '/nonexistent' } });
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(dist, { recursive: true, force: true });
    fs.rmSync(officeJs, { recursive: true, force: true });
  });

  it('serves the pane at /addin/ (never cached) and its assets', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/addin/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('Dealscout for Outlook');
    const bare = await ctx.app.inject({ method: 'GET', url: '/addin' });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/addin/');
    const plain = await ctx.app.inject({ method: 'GET', url: '/addin/assets/pane.js' });
    expect(plain.body).toBe('console.log("pane")');
    expect(plain.headers['cache-control']).not.toContain('immutable');
  });

  it("keeps Vite's content-hashed chunks in the browser's cache for good", async () => {
    const chunk = await ctx.app.inject({ method: 'GET', url: '/addin/assets/index-Ab_c-123.js' });
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves office.js and the files it loads beside itself from the package', async () => {
    const js = await ctx.app.inject({ method: 'GET', url: '/addin/office-js/office.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toContain('javascript');
    expect(js.body).toBe('var Office = {};');
    expect((await ctx.app.inject({ method: 'GET', url: '/addin/office-js/en-us/outlook_strings.js' })).body).toBe('var strings = 1;');
    const missing = await ctx.app.inject({ method: 'GET', url: '/addin/office-js/nope.js' });
    expect(missing.statusCode).toBe(404);
  });

  it('may be framed by Outlook on the web', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/addin/' });
    expect(String(page.headers['content-security-policy'])).toContain('frame-ancestors');
    expect(String(page.headers['content-security-policy'])).toContain('https://outlook.office.com');
  });
});
