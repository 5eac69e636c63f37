import { describe, it, expect } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOrg, createTestApp, signedIn } from '../../../test/helpers';
import { openSocket } from '../../../test/ws-client';

/** GET over one keep-alive agent: the status, the Connection header, and whether the server closed the connection after answering. */
function get(
  agent: http.Agent,
  url: string,
): Promise<{ status: number; connection: string | undefined; body: string; closedAfter: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body, closedAfter }));
    });
    const closedAfter = new Promise<void>((r) => req.once('socket', (s) => s.once('close', () => r())));
    req.on('error', reject);
  });
}

describe('draining after SIGTERM (READY_DRAIN_MS)', () => {
  it('answers not ready at once, keeps serving with each answer closing its connection, then closes its sockets with 1001', async () => {
    const ctx = await createTestApp();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (ctx.app.server.address() as AddressInfo).port;
      const base = `http://127.0.0.1:${port}`;
      const { admin } = await createOrg(ctx, { name: 'Drain Co' });
      const client = await signedIn(ctx, admin.email);
      const socket = await openSocket(`ws://127.0.0.1:${port}/api/v1/realtime`);
      socket.send({ type: 'auth', token: (await client.get('/api/v1/notifications/token')).json().token });
      await socket.next('ready');

      // Serving: a keep-alive connection stays open between answers.
      const before = await get(agent, `${base}/health`);
      expect([before.status, before.connection]).toEqual([200, 'keep-alive']);
      expect((await get(agent, `${base}/ready`)).status).toBe(200);

      // SIGTERM: main.ts turns the process not-ready first, then waits READY_DRAIN_MS before closing.
      ctx.app.readiness.shuttingDown = true;
      const ready = await get(agent, `${base}/ready`);
      expect([ready.status, JSON.parse(ready.body)]).toEqual([503, { status: 'not ready', reason: 'shutting down' }]);
      expect(ready.connection).toBe('close');
      await ready.closedAfter;
      // Requests still reaching the process are served, and each answer closes its connection, so a
      // balancer holds no idle connection to it when the listener closes.
      const during = await get(agent, `${base}/health`);
      expect([during.status, during.connection]).toEqual([200, 'close']);
      await during.closedAfter;
      expect((await client.get('/api/v1/notifications/token')).statusCode).toBe(200);
      // The sockets stay open while draining; closing the app closes them with 1001 (going away:
      // reconnect to another process and resume).
      expect(socket.ws.readyState).toBe(socket.ws.OPEN);
      const closing = ctx.app.close();
      expect(await socket.closed).toEqual({ code: 1001, reason: 'Server shutting down' });
      await closing;
    } finally {
      agent.destroy();
      await ctx.close();
    }
  });
});
