import { LogController, type FastifyRequest } from 'fastify';
import pino, { type Logger, type SerializerFn } from 'pino';
import type { Config } from './config';

// Request logs never carry credentials: the query string of an OAuth callback (authorization code,
// `state`) is dropped whole, and anywhere else a parameter whose name says it is a secret (code,
// state, token, key, password, secret, signature… in any spelling: access_token, apiKey,
// client_secret) keeps its name with the value redacted. Applied to every request line (pino's
// `req` serializer, which Fastify's 'incoming request' lines use) and to error messages and stacks.

const REDACTED = '[redacted]';

/** Paths whose whole query string is a credential: the OAuth redirects (Office 365, Salesforce). */
const OAUTH_CALLBACK = /\/callback\/?$/i;

/** Parameter-name words that mark a secret (the name is split on _ - . and camelCase). */
const SECRET_WORDS = new Set([
  'code',
  'state',
  'token',
  'tokens',
  'key',
  'keys',
  'apikey',
  'password',
  'passwd',
  'pwd',
  'secret',
  'secrets',
  'signature',
  'sig',
  'jwt',
  'session',
  'sessionid',
  'sid',
  'credential',
  'credentials',
  'auth',
  'authorization',
  'assertion',
  'ticket',
  'otp',
  'nonce',
  'verifier',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'clientsecret',
]);

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** Whether a query parameter's name marks a secret. */
export function isSecretParam(name: string): boolean {
  const words = decoded(name)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.some((w) => SECRET_WORDS.has(w)) || SECRET_WORDS.has(words.join(''));
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return eq >= 0 && isSecretParam(name) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/** A request URL as logs may show it: an OAuth callback without its query, elsewhere secret parameters redacted. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const path = url.slice(0, q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  if (OAUTH_CALLBACK.test(path)) return `${path}?${REDACTED}`;
  return `${path}?${redactQuery(query)}${hash < 0 ? '' : url.slice(hash)}`;
}

/** Secret parameters of any URL inside free text (an error message, a stack) redacted. */
export function redactUrlsInText(text: string): string {
  return text.replace(/([?&])([^=&\s?#"'<>]+)=([^&\s#"'<>]*)/g, (all, sep: string, name: string) =>
    isSecretParam(name) ? `${sep}${name}=${REDACTED}` : all,
  );
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}

/** Fastify's own `req` serializer (method, url, host, address, port) with the URL redacted. */
const req: SerializerFn = (r: LoggedRequest) => ({
  method: r.method,
  url: typeof r.url === 'string' ? redactUrl(r.url) : r.url,
  version: r.headers?.['accept-version'],
  host: r.host,
  remoteAddress: r.ip,
  remotePort: r.socket?.remotePort,
});

/** pino's error serializer, with secrets in URLs of the message and stack redacted. */
const err: SerializerFn = (e: Error) => {
  const serialized = pino.stdSerializers.err(e) as unknown;
  if (!serialized || typeof serialized !== 'object') return serialized;
  const out = { ...(serialized as Record<string, unknown>) };
  for (const k of ['message', 'stack']) if (typeof out[k] === 'string') out[k] = redactUrlsInText(out[k] as string);
  return out;
};

export const logSerializers = { req, err };

/** The logger with the redacting serializers (Fastify takes a logger instance's serializers over its own). */
export function withRedaction(logger: Logger): Logger {
  return logger.child({}, { serializers: logSerializers });
}

/** Fastify's own log lines, its default 404's 'Route GET:<url> not found' with the URL redacted too. */
export class RedactingLogController extends LogController {
  override routeNotFound(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.info(`Route ${request.raw.method}:${redactUrl(request.raw.url ?? '')} not found`);
  }
}

export function createLogger(config: Pick<Config, 'LOG_LEVEL' | 'NODE_ENV'>): Logger {
  return pino({
    level: config.LOG_LEVEL,
    serializers: logSerializers,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password', 'token', '*.token'], censor: REDACTED },
  });
}
