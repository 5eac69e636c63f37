import type { FastifyInstance, FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/errors';

/**
 * Every error answer is `{ success: false, message }`. Validation errors carry the contract's own
 * message (the spec's text) and the list of issues; a 500 never carries a stack or internal text.
 */
export function registerErrorHandler(app: FastifyInstance, opts: { spaHtml?: string | null } = {}): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, req, reply) => {
    if (error instanceof HttpError) {
      if (error.statusCode === 429 && typeof error.extra.retryAfterSeconds === 'number') reply.header('Retry-After', String(Math.ceil(error.extra.retryAfterSeconds)));
      return reply.status(error.statusCode).send({ success: false, message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: [v.instancePath.replace(/^\//, '').replace(/\//g, '.')].filter(Boolean).join('.') || (v.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') || '',
        message: v.message ?? 'Invalid value',
      }));
      return reply.status(400).send({ success: false, message: issues[0]?.message ?? 'Invalid request', issues });
    }
    if (isResponseSerializationError(error)) {
      req.log.error({ err: error }, 'response did not match its contract');
      return reply.status(500).send({ success: false, message: 'Internal server error' });
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 500) {
      req.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ success: false, message: 'Internal server error' });
    }
    // Fastify's own 4xx (bad JSON, body too large, unsupported media type): their messages are safe.
    return reply.status(status).send({ success: false, message: error.message });
  });
  // Client-side routes of the web app (GET, not /api, no file extension) get its index.html.
  app.setNotFoundHandler((req, reply) => {
    const pathOnly = req.url.split('?')[0];
    if (opts.spaHtml && req.method === 'GET' && !pathOnly.startsWith('/api') && !/\.[a-z0-9]+$/i.test(pathOnly)) {
      return reply.type('text/html').header('cache-control', 'no-cache').send(opts.spaHtml);
    }
    return reply.status(404).send({ success: false, message: 'Not found' });
  });
}
