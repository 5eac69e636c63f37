// GET /metrics for a process without the HTTP API (a worker): a small listener of its own on
// METRICS_PORT (bound to METRICS_HOST, loopback unless told otherwise), with the same token rule as
// the API's route (404 without METRICS_TOKEN, 401 for another token). It serves the default
// process metrics, the database-wide gauges and the process's work registry (lib/metrics.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { Config } from '../../config';
import { setMetricsRole } from '../../lib/metrics';
import { exposition, fleetGauges, scrapeRefusal } from './metrics';

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

export async function startMetricsListener(deps: {
  config: Pick<Config, 'METRICS_TOKEN' | 'METRICS_HOST' | 'ROLE'> & { METRICS_PORT?: number };
  orm: MikroORM;
  boss: PgBoss | null;
  logger: Pick<Logger, 'info' | 'warn'>;
}): Promise<MetricsListener> {
  const registry = new Registry();
  registry.setDefaultLabels({ role: deps.config.ROLE });
  setMetricsRole(deps.config.ROLE);
  await fleetGauges(registry, { orm: deps.orm, boss: deps.boss });
  const server = http.createServer((req, res) => {
    const json = (status: number, message: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, message }));
    };
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') return json(404, 'Not found');
    const refusal = scrapeRefusal(deps.config.METRICS_TOKEN, req.headers.authorization);
    if (refusal === 404) return json(404, 'Not found');
    if (refusal === 401) return json(401, 'Unauthorized');
    exposition(registry).then(
      (body) => {
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(body);
      },
      (err: unknown) => {
        deps.logger.warn({ err }, 'metrics scrape failed');
        json(500, 'Internal error');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.config.METRICS_PORT ?? 0, deps.config.METRICS_HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  if (!deps.config.METRICS_TOKEN) deps.logger.warn({ port }, 'METRICS_PORT is set without METRICS_TOKEN: every scrape gets a 404');
  else deps.logger.info({ host: deps.config.METRICS_HOST, port }, 'metrics listener started');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
