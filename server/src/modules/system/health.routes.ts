import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { unscopedSql } from '../../db/sql';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get('/health', {
    config: { auth: 'public' },
    schema: {
      tags: ['system'],
      summary: 'Liveness and database reachability',
      response: { 200: z.object({ status: z.literal('ok'), database: z.literal('up') }), 503: z.object({ status: z.literal('error'), database: z.literal('down') }) },
    },
  }, async (req, reply) => {
    try {
      await unscopedSql(req.em, 'connection').all('select 1');
      return { status: 'ok' as const, database: 'up' as const };
    } catch (err) {
      req.log.error({ err }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'error' as const, database: 'down' as const });
    }
  });
}
