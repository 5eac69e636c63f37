import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { RealtimeHub } from './hub';

declare module 'fastify' {
  interface FastifyInstance {
    /** This API process's realtime hub (sockets + LISTEN connection). */
    realtime: RealtimeHub;
  }
}

/**
 * WebSocket support and the process's realtime hub. Registered by API processes only (buildApp); a
 * worker process writes events but serves no sockets and does not LISTEN.
 */
export const realtimePlugin = fp(
  async (app: FastifyInstance) => {
    const clientUrl = app.orm.config.get('clientUrl');
    if (!clientUrl) throw new Error('realtime needs the database URL');
    const c = app.config;
    const hub = new RealtimeHub({
      connectionString: clientUrl,
      orm: app.orm,
      logger: app.log as never,
      secret: c.REALTIME_SECRET,
      maxBufferedBytes: c.REALTIME_MAX_BUFFERED_BYTES,
      flushMs: c.REALTIME_FLUSH_MS,
      replayLimit: c.REALTIME_REPLAY_LIMIT,
      sessionCheckSeconds: c.REALTIME_SESSION_CHECK_SECONDS,
    });
    app.decorate('realtime', hub);
    await app.register(websocket, {
      options: { maxPayload: 64 * 1024 },
      // When the app closes (SIGTERM, after READY_DRAIN_MS), every socket is closed with 1001 (going
      // away): the client reconnects through the balancer to another process and resumes with `since`.
      preClose(this: FastifyInstance, done: (err?: Error) => void) {
        hub.close().then(() => {
          this.websocketServer.close();
          done();
        }, done);
      },
    });
    app.addHook('onClose', async () => hub.close());
  },
  { name: 'realtime' },
);
