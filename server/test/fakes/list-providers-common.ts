// Shared plumbing of the list-source provider fakes (ocean-server.ts, google-places-server.ts,
// sourcescrub-server.ts): a loopback HTTP server that records requests and can be scripted to
// answer the next calls with a failure (a status, a body, a Retry-After).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}
export interface ScriptedFailure {
  status: number;
  body?: unknown;
  retryAfter?: string;
}

export interface FakeBase {
  url: string;
  requests: Recorded[];
  /** The next matching calls answer this instead (in order). */
  failNext(f: ScriptedFailure): void;
  close(): Promise<void>;
}

export type Handler = (req: Recorded, send: (status: number, body: unknown, headers?: Record<string, string>) => void) => void;

export async function startFake(handle: Handler, failureBody: (f: ScriptedFailure) => unknown): Promise<FakeBase> {
  const requests: Recorded[] = [];
  const failures: ScriptedFailure[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      if ((req.headers['content-type'] ?? '').includes('json') && text) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      if ((req.headers['content-type'] ?? '').includes('x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(text));
      const rec: Recorded = { method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, headers: req.headers, body };
      requests.push(rec);
      const send = (status: number, b: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(b));
      };
      const f = failures.shift();
      if (f) return send(f.status, f.body ?? failureBody(f), f.retryAfter !== undefined ? { 'retry-after': f.retryAfter } : {});
      handle(rec, send);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    failNext: (f) => void failures.push(f),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
