// Origins: credentialed CORS only for the configured origins and extension ids, the realtime socket
// checks the Origin of the upgrade, and logout needs the CSRF proof like every other state change.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import WebSocket from 'ws';
import type { AddressInfo } from 'node:net';
import { createTestApp, createOrg, signedIn, type TestContext } from '../../test/helpers';
import { OWN_EXTENSION_ID } from '../config';

const OTHER_ID = 'abcdefghijklmnopabcdefghijklmnop';

function upgrade(url: string, origin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin ? { headers: { origin } } : {});
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

describe('origins', () => {
  let ctx: TestContext;
  let wsUrl: string;
  beforeAll(async () => {
    ctx = await createTestApp();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    wsUrl = `ws://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/api/v1/realtime`;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const preflight = (origin: string) =>
    ctx.app.inject({ method: 'OPTIONS', url: '/api/v1/user', headers: { origin, 'access-control-request-method': 'GET' } });

  it("CORS: the web app's origin and the product's own extension are allowed, any other chrome-extension:// origin is not", async () => {
    const web = await preflight('http://localhost:3000');
    expect(web.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(web.headers['access-control-allow-credentials']).toBe('true');
    const own = await preflight(`chrome-extension://${OWN_EXTENSION_ID}`);
    expect(own.headers['access-control-allow-origin']).toBe(`chrome-extension://${OWN_EXTENSION_ID}`);
    for (const origin of [`chrome-extension://${OTHER_ID}`, 'https://evil.example']) {
      const res = await preflight(origin);
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
      const get = await ctx.app.inject({ method: 'GET', url: '/health', headers: { origin } });
      expect(get.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });

  it('CORS: CHROME_EXTENSION_IDS replaces the default list', async () => {
    const other = await createTestApp({ env: { CHROME_EXTENSION_IDS: OTHER_ID } });
    try {
      const res = await other.app.inject({
        method: 'OPTIONS',
        url: '/api/v1/user',
        headers: { origin: `chrome-extension://${OTHER_ID}`, 'access-control-request-method': 'GET' },
      });
      expect(res.headers['access-control-allow-origin']).toBe(`chrome-extension://${OTHER_ID}`);
      const own = await other.app.inject({
        method: 'OPTIONS',
        url: '/api/v1/user',
        headers: { origin: `chrome-extension://${OWN_EXTENSION_ID}`, 'access-control-request-method': 'GET' },
      });
      expect(own.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('the realtime socket refuses an upgrade from a foreign Origin and accepts the allowed ones (and non-browser clients)', async () => {
    expect(await upgrade(wsUrl, 'https://evil.example')).toBe(403);
    expect(await upgrade(wsUrl, `chrome-extension://${OTHER_ID}`)).toBe(403);
    expect(await upgrade(wsUrl, 'http://localhost:3000')).toBe(101);
    expect(await upgrade(wsUrl, `chrome-extension://${OWN_EXTENSION_ID}`)).toBe(101);
    expect(await upgrade(wsUrl)).toBe(101);
  });

  it('POST /api/account/logout without the CSRF proof is refused and the session stays', async () => {
    const { admin } = await createOrg(ctx);
    const c = await signedIn(ctx, admin.email);
    c.sendCsrf = false;
    const res = await c.post('/api/account/logout');
    expect(res.statusCode).toBe(403);
    expect((await c.get('/api/v1/user')).statusCode).toBe(200);
    c.sendCsrf = true;
    expect((await c.post('/api/account/logout')).statusCode).toBe(200);
    expect((await c.get('/api/v1/user')).statusCode).toBe(401);
  });
});
