// A small typed HTTP client over fetch. Every answer is parsed with its zod contract, so a client
// never works with a shape the server did not promise.
import type { z } from 'zod';

export class ApiError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface HttpOptions {
  /** Server origin, e.g. 'https://dealscout.example.com'; '' for same-origin (the web app). */
  baseUrl?: string;
  /** Bearer token (add-in, extension). Without it the browser's session cookie is used. */
  getToken?: () => string | null | undefined;
  /** Called on every 401 answer (the client then signs the user out). */
  onUnauthorized?: (error: ApiError) => void;
  fetch?: typeof fetch;
}

const CSRF_COOKIE = 'ds_csrf';

function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  const m = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return m ? decodeURIComponent(m.slice(name.length + 1)) : null;
}

/**
 * False when a page can tell it is signed out without asking: in a browser, the session's readable
 * CSRF cookie (set with the session cookie at sign-in, cleared at sign-out) is missing. Outside a
 * browser (tests, the plugin clients' bearer tokens) it cannot tell: true.
 */
export function mayHaveSessionCookie(): boolean {
  if (typeof document === 'undefined') return true;
  return readCookie(CSRF_COOKIE) !== null;
}

export class Http {
  constructor(private readonly opts: HttpOptions = {}) {}

  async request<S extends z.ZodType>(method: string, path: string, schema: S, body?: unknown): Promise<z.infer<S>> {
    return schema.parse(await this.unvalidated(method, path, body));
  }

  /**
   * The answer's JSON as sent, not yet checked against its contract (errors as request()'s): for a
   * client that renders before its contracts have loaded and checks the answer once they have.
   */
  async unvalidated(method: string, path: string, body?: unknown): Promise<unknown> {
    const res = await this.raw(method, path, body);
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!res.ok) {
      const message =
        json && typeof json === 'object' && 'message' in json && typeof (json as { message: unknown }).message === 'string'
          ? (json as { message: string }).message
          : `Request failed (${res.status})`;
      const error = new ApiError(res.status, message, json);
      if (res.status === 401) this.opts.onUnauthorized?.(error);
      throw error;
    }
    return json;
  }

  /** A POST whose answer is a file: the Response when ok, else the API error thrown. */
  async download(path: string, body: unknown): Promise<Response> {
    const res = await this.raw('POST', path, body);
    if (res.ok) return res;
    let message = `Request failed (${res.status})`;
    try {
      const json = (await res.json()) as { message?: unknown };
      if (typeof json.message === 'string') message = json.message;
    } catch {
      /* not JSON */
    }
    const error = new ApiError(res.status, message);
    if (res.status === 401) this.opts.onUnauthorized?.(error);
    throw error;
  }

  /** A multipart form (a file upload): the browser sets its content type and boundary. */
  async form<S extends z.ZodType>(path: string, schema: S, form: FormData): Promise<z.infer<S>> {
    const res = await this.raw('POST', path, form);
    let json: unknown = null;
    try {
      json = await res.json();
    } catch {
      /* not JSON */
    }
    if (!res.ok) {
      const message =
        json && typeof json === 'object' && typeof (json as { message?: unknown }).message === 'string'
          ? (json as { message: string }).message
          : `Request failed (${res.status})`;
      const error = new ApiError(res.status, message);
      if (res.status === 401) this.opts.onUnauthorized?.(error);
      throw error;
    }
    return schema.parse(json);
  }

  async raw(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
    if (body !== undefined && !isForm) headers['content-type'] = 'application/json';
    const token = this.opts.getToken?.();
    if (token) headers.authorization = `Bearer ${token}`;
    else if (method !== 'GET' && method !== 'HEAD') {
      const csrf = readCookie(CSRF_COOKIE);
      if (csrf) headers['x-csrf-token'] = csrf;
    }
    const f = this.opts.fetch ?? fetch;
    return f(`${this.opts.baseUrl ?? ''}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
      credentials: token ? 'omit' : 'include',
    });
  }
}
