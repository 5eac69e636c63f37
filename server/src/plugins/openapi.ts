import type { FastifyInstance, RouteOptions } from 'fastify';
import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUTH_MESSAGES, ErrorResponse } from '@dealscout/shared/contracts';
import type { Config } from '../config';
import { INVALID_TEXT_MESSAGE } from './input-guard';
import { routeAuth } from './types';

/**
 * The OpenAPI 3.1 document at /api/docs/json (and the Swagger UI at /api/docs), generated from the
 * routes' zod contracts by zod's own JSON Schema output (draft 2020-12, what OpenAPI 3.1 uses).
 * On top of the contracts, every operation gets:
 * - an `operationId` named from its route (`operationIdOf`), unless the route declares one;
 * - the error answers it really gives, from the guards every route passes through (input guard and
 *   validation: 400; default-deny auth: 401; admin routes and CSRF: 403; body limit and parsers:
 *   413/415) beside the ones the route declares itself (404 for foreign ids, 409, 429…), all in
 *   the one error shape `{ success: false, message, issues? }`;
 * - `security: []` when the route is public.
 * server/test/openapi.test.ts lints the document with Redocly's recommended rules and compiles a
 * client generated from it.
 */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A stable operationId from the method and the path: the method, then each path segment in
 * PascalCase with `/api` and `/api/v1` left out and a parameter as `By<Name>`.
 * `GET /api/v1/list-company/{id}/complete-confirmation` -> `getListCompanyByIdCompleteConfirmation`.
 * A route may declare its own `schema.operationId` instead (to keep an id when its path moves).
 */
export function operationIdOf(method: string, url: string): string {
  const pascal = (s: string) =>
    s
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((w) => w[0].toUpperCase() + w.slice(1))
      .join('');
  const segments = url
    .replace(/^\/api(\/v1)?(?=\/|$)/, '')
    .split('/')
    .filter(Boolean);
  const words = segments.map((s) => {
    const param = /^(?::|\{)([^}]+)\}?$/.exec(s);
    return param ? `By${pascal(param[1])}` : pascal(s);
  });
  return method.toLowerCase() + words.join('');
}

const STATUS_TEXT: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  302: 'Redirect',
  400: 'Invalid request',
  401: 'Not signed in',
  403: 'Forbidden',
  404: 'Not found (also for an id of another organization)',
  409: 'Conflict',
  413: 'Body too large',
  415: 'Unsupported media type',
  422: 'Cannot be processed',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'The outside service failed',
  503: 'Not available',
  504: 'The outside service timed out',
};

type Json = Record<string, unknown>;

/** The error answers a route gives because of the guards in front of it, with what each means. */
export function guardAnswers(
  route: Pick<RouteOptions, 'method' | 'url' | 'config'>,
  schema: Json,
  bodyLimitBytes: number,
): Record<number, string> {
  const method = [route.method].flat()[0].toUpperCase();
  const level = routeAuth(route.url, (route.config as { auth?: 'public' | 'user' | 'admin' } | undefined)?.auth);
  const takesBody = Boolean(schema.body) || Array.isArray(schema.consumes);
  const validated = takesBody || Boolean(schema.querystring) || Boolean(schema.params);
  const answers: Record<number, string> = {};
  answers[400] = validated
    ? "The request does not match the route's contract: `message` is the first problem in the specification's words, `issues` lists each " +
      (`field's path and message.${takesBody ? ' Also a body that is not valid JSON.' : ''} Text with NUL characters ` +
        `or lone surrogates anywhere: '${INVALID_TEXT_MESSAGE}'`)
    : `Text with NUL characters or lone surrogates in the query string: '${INVALID_TEXT_MESSAGE}' (\`issues\` says where).`;
  if (level !== 'public')
    answers[401] = `No valid session or bearer token: '${AUTH_MESSAGES.unauthorized}', or '${AUTH_MESSAGES.sessionExpired}' for an expired or revoked one.`;
  const forbidden: string[] = [];
  if (level === 'admin') forbidden.push(`the caller is not an Admin: '${AUTH_MESSAGES.forbidden}'`);
  const csrf = (route.config as { csrf?: boolean } | undefined)?.csrf !== false;
  if (level !== 'public' && csrf && !SAFE_METHODS.has(method))
    forbidden.push(`a cookie session without its \`x-csrf-token\` header: '${AUTH_MESSAGES.csrf}'`);
  if (forbidden.length) answers[403] = `Forbidden: ${forbidden.join('; ')}.`;
  if (takesBody) {
    const consumes = Array.isArray(schema.consumes) ? (schema.consumes as string[]) : ['application/json'];
    const upload = consumes.some((c) => c.startsWith('multipart/')) ? ', or the uploaded file is larger than the route allows' : '';
    answers[413] = `The body is larger than the server's limit (BODY_LIMIT_BYTES, ${bodyLimitBytes} bytes here)${upload}.`;
    answers[415] = `The body's content type is not one the route reads (${consumes.join(', ')}).`;
  }
  return answers;
}

export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  const zodTransform = createJsonSchemaTransform({});
  const errorSchema = z.toJSONSchema(ErrorResponse, { io: 'output' }) as Json;
  delete errorSchema.$schema;
  // Every error answer has the one shape: described once, referenced by each operation.
  const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } };

  const transform: SwaggerTransform = (doc) => {
    const out = zodTransform(doc as Parameters<typeof zodTransform>[0]) as { schema: Json; url: string };
    const schema = out.schema;
    if (!schema || schema.hide) return out;
    const route = (doc as { route: RouteOptions }).route;
    schema.operationId ??= operationIdOf([route.method].flat()[0], route.url);
    if (routeAuth(route.url, route.config?.auth) === 'public') schema.security = [];
    const declared = (schema.response ?? {}) as Record<string, Json>;
    const response: Record<string, Json> = {};
    for (const [status, answer] of Object.entries(declared)) {
      if (Number(status) >= 400) {
        const own = typeof answer.description === 'string' ? answer.description : undefined;
        response[status] = { description: own ?? STATUS_TEXT[status] ?? 'Error', content: errorContent };
      } else {
        response[status] = { ...answer, 'x-response-description': answer.description ?? STATUS_TEXT[status] ?? 'OK' };
      }
    }
    for (const [status, description] of Object.entries(guardAnswers(route, schema, config.BODY_LIMIT_BYTES))) {
      const own = declared[status]?.description;
      response[status] = { description: typeof own === 'string' ? own : description, content: errorContent };
    }
    schema.response = Object.fromEntries(Object.entries(response).sort(([a], [b]) => Number(a) - Number(b)));
    return out;
  };

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Dealscout API',
        version: '1.0.0',
        description: 'Every route, generated from the zod contracts in shared/src/contracts.',
      },
      servers: [{ url: config.publicUrl, description: 'This Dealscout server' }],
      components: {
        schemas: {
          ErrorResponse: {
            ...errorSchema,
            description: 'Every error answer: `success: false`, the message to show, and for invalid input the issues by field',
          },
        },
        securitySchemes: {
          cookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'ds_session',
            description: 'The web session; state-changing calls also send the `x-csrf-token` header.',
          },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'A token from POST /api/v1/auth/token (Outlook add-in, Chrome extension, scripts).',
          },
        },
      },
      security: [{ cookie: [] }, { bearer: [] }],
    },
    stripBasePath: false,
    transform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
}
