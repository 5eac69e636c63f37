// The shared realtime client (shared/src/client/realtime.ts) against the real server: it connects
// with a token, and after the server drops it, reconnects and resumes without gaps or duplicates.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { createRealtimeClient, type RealtimeClient, type SocketLike, type RealtimeStatus } from '@dealscout/shared/client';
import { realtimePaths } from '@dealscout/shared/domain';
import { createTestApp, createOrg, signedIn, type TestContext } from '../../../test/helpers';
import { eventually } from '../../../test/execution-harness';
import { publish } from './publish';

describe('the shared realtime client against the server', () => {
  let ctx: TestContext;
  let rt: RealtimeClient | null = null;

  beforeAll(async () => {
    ctx = await createTestApp();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    rt?.stop();
    await ctx.close();
  });

  it('receives events, survives the server dropping it, and resumes exactly where it left off', async () => {
    const { organization, admin } = await createOrg(ctx, { name: 'Client Co' });
    const c = await signedIn(ctx, admin.email);
    const statuses: RealtimeStatus['status'][] = [];
    rt = createRealtimeClient({
      url: `ws://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/api/v1/realtime`,
      getToken: async () => (await c.get('/api/v1/notifications/token')).json(),
      socketFactory: (url) => new WebSocket(url) as unknown as SocketLike,
      initialDelayMs: 200,
    });
    rt.onStatus((s) => statuses.push(s.status));
    const got: number[] = [];
    rt.subscribe(realtimePaths.activities(organization.id), (e) => got.push((e.data as { n: number }).n));
    rt.start();
    await eventually(async () => (rt!.status.status === 'open' ? true : undefined), 'the client to open');
    const emit = (n: number) =>
      ctx
        .em()
        .transactional((tem) =>
          publish(tem, organization.id, { path: realtimePaths.activities(organization.id), kind: 'test', data: { n } }),
        );
    await emit(1);
    await eventually(async () => (got.length === 1 ? true : undefined), 'the first event');

    for (const socket of ctx.app.websocketServer.clients) socket.terminate();
    await emit(2);
    await emit(3);
    await eventually(
      async () => (statuses.includes('reconnecting') && rt!.status.status === 'open' ? true : undefined),
      'the client to reconnect',
    );
    await emit(4);
    await eventually(async () => (got.length >= 4 ? true : undefined), 'every event');
    expect(got).toEqual([1, 2, 3, 4]);
  });
});
