// A fake web site on loopback for the guarded client and the research agents: routes by path, a log
// of every request (so a test can show that a refused address was never reached), and helpers for
// pages, redirects and raw responses. Reachable by the guarded client only through its testAllowlist.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeRoute = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface FakeWebServer {
  port: number;
  /** http://127.0.0.1:<port><path> */
  url(path?: string): string;
  /** Every request, in order: method, path and Host header. */
  requests: { method: string; path: string; host: string | undefined }[];
  /** The allowlist entry for this server. */
  allowEntry: { address: string; port: number };
  route(path: string, handler: FakeRoute): void;
  close(): Promise<void>;
}

export async function startFakeWeb(routes: Record<string, FakeRoute> = {}): Promise<FakeWebServer> {
  const table = new Map(Object.entries(routes));
  const requests: FakeWebServer['requests'] = [];
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', host: req.headers.host });
    const handler = table.get(path);
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path = '/') => `http://127.0.0.1:${port}${path}`,
    requests,
    allowEntry: { address: '127.0.0.1', port },
    route: (path, handler) => void table.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const html =
  (body: string, status = 200, headers: Record<string, string> = {}): FakeRoute =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
  };

export const redirect =
  (location: string, status = 302): FakeRoute =>
  (_req, res) => {
    res.writeHead(status, { location }).end();
  };

export const raw =
  (status: number, headers: Record<string, string>, body: string | Buffer): FakeRoute =>
  (_req, res) => {
    res.writeHead(status, headers).end(body);
  };
