// How the built clients and the API's answers travel: the web app's and the pane's precompressed
// copies (written by the build's precompress step) chosen by Accept-Encoding, a year's cache for
// content-hashed chunks and revalidation for HTML; the API's large JSON answers and CSV exports
// compressed on the fly; the realtime WebSocket upgrade untouched by the compression.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createTestApp, createOrg, signedIn, type TestContext, type TestClient } from '../../../test/helpers';
import { openSocket } from '../../../test/ws-client';
import { precompressDir } from '../../../../shared/src/build/precompress';

/** A chunk large enough to be precompressed (over 1 KB) and to shrink. */
const CHUNK = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{"id":${i},"name":"Company ${i}"}`).join(',')}];\n`;

function decode(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return zlib.brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

/** A real HTTP request (inject does not exercise the socket), answering the raw bytes. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('serving the built clients and compressing answers', () => {
  let ctx: TestContext;
  let web: string;
  let addin: string;
  let c: TestClient;
  let base: string;

  beforeAll(async () => {
    web = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-web-'));
    fs.writeFileSync(
      path.join(web, 'index.html'),
      '<!doctype html><title>Dealscout</title><script type="module" src="/assets/index-Ab_c-123.js"></script>',
    );
    fs.writeFileSync(path.join(web, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    fs.mkdirSync(path.join(web, 'assets'));
    fs.writeFileSync(path.join(web, 'assets', 'index-Ab_c-123.js'), CHUNK);
    fs.writeFileSync(path.join(web, 'assets', 'tiny-Zz_9-876.js'), 'export {};');
    addin = fs.mkdtempSync(path.join(os.tmpdir(), 'ds-addin-'));
    fs.writeFileSync(path.join(addin, 'index.html'), `<!doctype html><title>Dealscout for Outlook</title>${'<!-- pane -->'.repeat(100)}`);
    fs.mkdirSync(path.join(addin, 'assets'));
    fs.writeFileSync(path.join(addin, 'assets', 'pane-Qw_e-456.js'), CHUNK);
    expect(await precompressDir(web)).toBe(1); // the chunk; index.html, the icon and tiny chunk are under 1 KB
    expect(await precompressDir(addin)).toBe(2);
    expect(fs.existsSync(path.join(web, 'assets', 'index-Ab_c-123.js.br'))).toBe(true);
    expect(fs.existsSync(path.join(web, 'assets', 'tiny-Zz_9-876.js.gz'))).toBe(false);
    ctx = await createTestApp({ env: { WEB_DIST: web, ADDIN_DIST: addin, OFFICE_JS_DIST: '/nonexistent' } });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    const o = await createOrg(ctx, { name: 'Compressed Co' });
    c = await signedIn(ctx, o.admin.email, '10.64.0.1');
    const db = new pg.Client({ connectionString: ctx.dbUrl });
    await db.connect();
    try {
      await db.query(
        `insert into company (id, organization_id, name, website, domain, created_at, updated_at)
         select gen_random_uuid(), $1, 'Packed ' || i, 'packed' || i || '.com', 'packed' || i || '.com', now(), now() from generate_series(1, 300) i`,
        [o.organization.id],
      );
    } finally {
      await db.end();
    }
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(web, { recursive: true, force: true });
    fs.rmSync(addin, { recursive: true, force: true });
  });

  it('sends the brotli copy of a hashed chunk to a browser that accepts it, gzip to one that accepts only gzip, the file otherwise', async () => {
    for (const [accept, expected] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
      ['', undefined],
    ] as const) {
      const res = await rawGet(`${base}/assets/index-Ab_c-123.js`, accept ? { 'accept-encoding': accept } : {});
      expect(res.status, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(expected);
      expect(res.headers['content-type']).toContain('javascript');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      if (expected) expect(res.body.length).toBeLessThan(CHUNK.length / 3);
      expect(decode(res.body, expected)).toBe(CHUNK);
    }
  });

  it('the copies themselves get no route; a file without copies is sent as is, or compressed on the way', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/assets/index-Ab_c-123.js.br' })).statusCode).toBe(404);
    const tiny = await rawGet(`${base}/assets/tiny-Zz_9-876.js`, { 'accept-encoding': 'br, gzip' });
    expect(tiny.status).toBe(200);
    expect(decode(tiny.body, tiny.headers['content-encoding'])).toBe('export {};');
    expect(tiny.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const bare = await rawGet(`${base}/assets/tiny-Zz_9-876.js`, {});
    expect(bare.headers['content-encoding']).toBeUndefined();
    expect(bare.body.toString()).toBe('export {};');
  });

  it("revalidates the web app's HTML (every client-side route and /index.html); plain names are not cached for good", async () => {
    for (const url of ['/', '/companies', '/list-company/abc', '/index.html']) {
      const res = await rawGet(`${base}${url}`, { 'accept-encoding': 'br, gzip' });
      expect(res.status, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(decode(res.body, res.headers['content-encoding']), url).toContain('<title>Dealscout</title>');
    }
    const icon = await ctx.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).not.toContain('immutable');
  });

  it("serves the pane's HTML and chunks precompressed, the HTML revalidated", async () => {
    const page = await rawGet(`${base}/addin/`, { 'accept-encoding': 'br' });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(decode(page.body, 'br')).toContain('Dealscout for Outlook');
    const chunk = await rawGet(`${base}/addin/assets/pane-Qw_e-456.js`, { 'accept-encoding': 'gzip' });
    expect(chunk.headers['content-encoding']).toBe('gzip');
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decode(chunk.body, 'gzip')).toBe(CHUNK);
  });

  it('compresses a large JSON answer by Accept-Encoding, and leaves small ones and clients without it alone', async () => {
    const page = { pageSize: 100 };
    const plain = await c.post('/api/v1/company/get-companies', page);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const expected = plain.json();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    for (const enc of ['br', 'gzip'] as const) {
      const res = await c.post('/api/v1/company/get-companies', page, { 'accept-encoding': enc });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(enc);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
      expect(JSON.parse(decode(res.rawPayload, enc))).toEqual(expected);
    }
    const health = await ctx.app.inject({ method: 'GET', url: '/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(health.statusCode).toBe(200);
    expect(health.rawPayload.length).toBeLessThan(1024);
    expect(health.headers['content-encoding']).toBeUndefined();
  });

  it('streams a CSV export compressed, every row in it', async () => {
    const plain = await c.post('/api/v1/company/export', { selection: { allSelected: true } });
    expect(plain.statusCode).toBe(200);
    expect(plain.body.split('\r\n').filter(Boolean)).toHaveLength(301);
    const res = await c.post('/api/v1/company/export', { selection: { allSelected: true } }, { 'accept-encoding': 'gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('attachment');
    expect(decode(res.rawPayload, 'gzip')).toBe(plain.body);
  });

  it('upgrades the realtime WebSocket of a client that accepts compressed answers', async () => {
    const token = (await c.get('/api/v1/notifications/token')).json().token as string;
    const url = `${base.replace('http', 'ws')}/api/v1/realtime`;
    const s = await openSocket(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    try {
      s.send({ type: 'auth', token });
      await s.next('ready');
    } finally {
      await s.close();
    }
  });
});
