// The web app's index.html for client-side routes: its build's brotli / gzip copy when the browser
// takes it (the page carries Fluent's CSS in its head), the plain file otherwise; never cached.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers';

describe('client-side routes get index.html', () => {
  let ctx: TestContext;
  let dist: string;
  const html = `<!doctype html><html><head><style data-make-styles-bucket="d">${'.f1{color:red}'.repeat(200)}</style></head><body></body></html>`;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-spa-html-'));
    fs.writeFileSync(path.join(dist, 'index.html'), html);
    fs.writeFileSync(path.join(dist, 'index.html.br'), zlib.brotliCompressSync(html));
    fs.writeFileSync(path.join(dist, 'index.html.gz'), zlib.gzipSync(html));
    ctx = await createTestApp({ env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await ctx?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends the brotli copy to a browser that takes br', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/companies', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(html);
  });

  it('sends the gzip copy to a browser that takes only gzip, and the plain file to one that takes neither', async () => {
    const gz = await ctx.app.inject({ method: 'GET', url: '/list-company/abc', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(html);
    const plain = await ctx.app.inject({ method: 'GET', url: '/account/profile', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(html);
  });
});
