import type { FastifyInstance, FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/errors';

/**
 * What a 500 logs. Database errors quote what was sent (the failing value in the message and
 * detail, the whole statement with its parameters in MikroORM's message), which may be submitted
 * JSON, personal data or secrets: they are logged by kind (SQLSTATE code, routine, table, column,
 * constraint) and call site only. Other errors keep their message (our own code's text) and stack.
 */
export function loggableError(error: Error): Record<string, unknown> {
  const e = error as Error & {
    code?: unknown;
    sqlState?: unknown;
    routine?: unknown;
    table?: unknown;
    column?: unknown;
    constraint?: unknown;
    cause?: unknown;
  };
  const db =
    (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) ||
    typeof e.sqlState === 'string' ||
    /Exception$/.test(e.name) ||
    (e.cause && typeof (e.cause as { code?: unknown }).code === 'string');
  if (!db) return { type: e.name, message: e.message, stack: e.stack, ...(typeof e.code === 'string' ? { code: e.code } : {}) };
  const src = (e.cause && typeof e.cause === 'object' ? e.cause : e) as typeof e;
  const frames = (e.stack ?? '')
    .split('\n')
    .filter((l) => /^\s+at /.test(l))
    .join('\n');
  return {
    type: e.name,
    message: `database error ${String(src.code ?? e.code ?? e.sqlState ?? '')}`.trim(),
    code: src.code ?? e.code ?? e.sqlState,
    routine: src.routine ?? e.routine,
    table: src.table ?? e.table,
    column: src.column ?? e.column,
    constraint: src.constraint ?? e.constraint,
    stack: frames,
  };
}

/** The web app's index.html, as built and as its precompressed copies (null: none written). */
export interface SpaHtml {
  plain: string;
  br: Buffer | null;
  gz: Buffer | null;
}

/**
 * Every error answer is `{ success: false, message }`. Validation errors carry the contract's own
 * message (the spec's text) and the list of issues; a 500 never carries a stack or internal text.
 */
export function registerErrorHandler(app: FastifyInstance, opts: { spaHtml?: SpaHtml | null } = {}): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, req, reply) => {
    if (error instanceof HttpError) {
      if (error.statusCode === 429 && typeof error.extra.retryAfterSeconds === 'number')
        reply.header('Retry-After', String(Math.ceil(error.extra.retryAfterSeconds)));
      return reply
        .status(error.statusCode)
        .send({ success: false, message: error.message, ...(Array.isArray(error.extra.issues) ? { issues: error.extra.issues } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path:
          [v.instancePath.replace(/^\//, '').replace(/\//g, '.')].filter(Boolean).join('.') ||
          (v.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') ||
          '',
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
      req.log.error({ err: loggableError(error) }, 'request failed');
      return reply.status(500).send({ success: false, message: 'Internal server error' });
    }
    // Fastify's own 4xx (bad JSON, body too large, unsupported media type): their messages are safe.
    return reply.status(status).send({ success: false, message: error.message });
  });
  // Client-side routes of the web app (GET, not /api, no file extension) get its index.html.
  app.setNotFoundHandler((req, reply) => {
    const pathOnly = req.url.split('?')[0];
    if (opts.spaHtml && req.method === 'GET' && !pathOnly.startsWith('/api') && !/\.[a-z0-9]+$/i.test(pathOnly)) {
      const html = opts.spaHtml;
      reply.type('text/html').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
      // The build's brotli / gzip copy when the browser takes it (the page carries Fluent's CSS: ~140 kB plain).
      const accepts = String(req.headers['accept-encoding'] ?? '');
      if (html.br && /\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(html.br);
      if (html.gz && /\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(html.gz);
      return reply.send(html.plain);
    }
    return reply.status(404).send({ success: false, message: 'Not found' });
  });
}
