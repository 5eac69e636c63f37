import { HttpError } from '../../lib/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NotificationsTokenResponse, ErrorResponse } from '@dealscout/shared/contracts';
import { authOf } from '../../plugins/types';
import { signRealtimeToken } from './token';

export async function realtimeRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/notifications/token',
    {
      schema: {
        tags: ['realtime'],
        summary: 'A short-lived signed token for the realtime socket at /api/v1/realtime (send it as {type:"auth", token} first)',
        response: { 200: NotificationsTokenResponse, 401: ErrorResponse },
      },
    },
    async (req, reply) => {
      const a = authOf(req);
      const { token, expiresAt } = signRealtimeToken(
        { uid: a.user.id, oid: a.organizationId, sid: a.session.id },
        app.config.REALTIME_SECRET,
        app.config.REALTIME_TOKEN_TTL_SECONDS,
      );
      reply.header('cache-control', 'no-store');
      return { token, uid: a.user.id, oid: a.organizationId, expiresAt: expiresAt.toISOString() };
    },
  );

  // The socket authenticates with the token above (first message), not with the cookie: the add-in
  // and the extension cannot send cookies or headers on a WebSocket.
  app.get(
    '/realtime',
    {
      websocket: true,
      config: { auth: 'public' },
      // A browser always sends its page's Origin with the upgrade: only the allowed origins (the web
      // app and add-in host, CORS_ORIGINS, the configured extensions) may open the socket. Clients
      // that are not browsers send none and are judged by their token alone.
      preValidation: async (req) => {
        const origin = req.headers.origin;
        if (origin !== undefined && !app.config.corsOrigins.includes(origin)) throw new HttpError(403, 'Origin not allowed');
      },
      schema: {
        tags: ['realtime'],
        summary:
          'WebSocket (upgrade): authenticate with the token from /notifications/token, then subscribe to paths; protocol in shared/src/contracts/realtime.ts',
      },
    },
    (socket) => {
      app.realtime.handleSocket(socket);
    },
  );
}
