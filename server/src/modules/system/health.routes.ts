import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DatabaseProbe, pingDatabase } from './db-probe';

/**
 * What /ready reads besides the database: set by main.ts. `shuttingDown` turns the process
 * not-ready the moment SIGTERM arrives, before it stops taking requests, so a balancer stops
 * sending it work; `workerStarted` is false until a worker's pg-boss subscriptions run (a process
 * that runs no worker leaves it null).
 */
export interface Readiness {
  shuttingDown: boolean;
  workerStarted: boolean | null;
}

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  let migrated = false;
  // Its own connection, not the request pool's: a busy process still answers its balancer at once.
  const clientUrl = app.orm.config.get('clientUrl');
  if (!clientUrl) throw new Error('GET /ready needs the database URL');
  const probe = new DatabaseProbe(clientUrl);
  app.addHook('onClose', async () => probe.close());
  app.withTypeProvider<ZodTypeProvider>().get(
    '/ready',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['system'],
        summary:
          'Readiness for a load balancer: database reachable, migrations applied, the worker started (when this process runs one), not shutting down',
        response: {
          200: z.object({ status: z.literal('ready') }),
          503: z.object({
            status: z.literal('not ready'),
            reason: z.enum(['shutting down', 'database down', 'migrations pending', 'worker not started']),
          }),
        },
      },
    },
    async (req, reply) => {
      const notReady = (reason: 'shutting down' | 'database down' | 'migrations pending' | 'worker not started') =>
        reply.status(503).send({ status: 'not ready' as const, reason });
      if (app.readiness.shuttingDown) return notReady('shutting down');
      if (!(await probe.reachable())) return notReady('database down');
      if (!migrated) {
        try {
          migrated = (await app.orm.migrator.getPending()).length === 0;
        } catch {
          return notReady('database down');
        }
        if (!migrated) return notReady('migrations pending');
      }
      if (app.readiness.workerStarted === false) return notReady('worker not started');
      return { status: 'ready' as const };
    },
  );

  app.withTypeProvider<ZodTypeProvider>().get(
    '/health',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Liveness: the process answers (and whether its database is reachable); /ready is what a balancer checks',
        response: {
          200: z.object({ status: z.literal('ok'), database: z.literal('up') }),
          503: z.object({ status: z.literal('error'), database: z.literal('down') }),
        },
      },
    },
    async (req, reply) => {
      try {
        await pingDatabase(req.em);
        return { status: 'ok' as const, database: 'up' as const };
      } catch (err) {
        req.log.error({ err }, 'health check: database unreachable');
        return reply.status(503).send({ status: 'error' as const, database: 'down' as const });
      }
    },
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
  }
}
