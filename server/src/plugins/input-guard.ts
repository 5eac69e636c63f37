import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../lib/errors';

/** The answer to text PostgreSQL cannot store (NUL) or that is not valid Unicode (a lone surrogate). */
export const INVALID_TEXT_MESSAGE = 'Text must not contain NUL characters or invalid Unicode (lone surrogates).';

/** Where in the value the first bad string (or object key) is, or null when every string is fine. */
export function findInvalidText(value: unknown, maxNodes = 200_000): string | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  let seen = 0;
  // String.prototype.isWellFormed (ES2024, Node 20+): false when the string holds a lone surrogate.
  const bad = (s: string) => s.includes('\u0000') || !(s as unknown as { isWellFormed(): boolean }).isWellFormed();
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (++seen > maxNodes) return null; // bounded by the body limit anyway; the contracts check the rest
    if (typeof v === 'string') {
      if (bad(v)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], path ? `${path}.${i}` : String(i)]);
    } else if (v && typeof v === 'object' && !ArrayBuffer.isView(v) && typeof (v as { pipe?: unknown }).pipe !== 'function') {
      // Plain objects, and the query string's object (its prototype is neither Object's nor null).
      for (const [k, child] of Object.entries(v)) {
        const p = path ? `${path}.${k}` : k;
        if (bad(k)) return p;
        stack.push([child, p]);
      }
    }
  }
  return null;
}

/**
 * One rule for every route, before its contract is checked: a string with a NUL character
 * (PostgreSQL's text and jsonb cannot hold it) or a lone UTF-16 surrogate (not Unicode; jsonb
 * refuses it, text would silently store U+FFFD) anywhere in the body, the query string or the path
 * parameters — values and object keys — answers 400 with INVALID_TEXT_MESSAGE and changes nothing.
 * Registered on the root instance before the modules, so every route, later ones included, gets it.
 * Also records every route (`app.registeredRoutes`) so a test can walk them all.
 */
export function registerInputGuard(app: FastifyInstance): void {
  const routes: { method: string; url: string; websocket: boolean }[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (opts) => {
    for (const method of [opts.method].flat())
      routes.push({ method, url: opts.url, websocket: Boolean((opts as { websocket?: boolean }).websocket) });
  });
  app.addHook('preValidation', async (req: FastifyRequest) => {
    for (const [part, value] of [
      ['params', req.params],
      ['querystring', req.query],
      ['body', req.body],
    ] as const) {
      const path = findInvalidText(value);
      if (path !== null) {
        throw new HttpError(400, INVALID_TEXT_MESSAGE, {
          issues: [{ path: path ? `${part}.${path}` : part, message: INVALID_TEXT_MESSAGE }],
        });
      }
    }
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered on the app (method, url), for tests that walk all of them. */
    registeredRoutes: { method: string; url: string; websocket: boolean }[];
  }
}
