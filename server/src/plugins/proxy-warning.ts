import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config';

export const PROXY_WARNING_INTERVAL_MS = 60 * 60 * 1000;

export const PROXY_MESSAGES = {
  httpsWithoutTrustProxy:
    'PUBLIC_URL is https but TRUST_PROXY is off: behind a TLS proxy every request seems to come from the proxy, so ' +
    'all users share one sign-in throttle address and the logs show the proxy. Set TRUST_PROXY=true when a proxy ' +
    'you run sets X-Forwarded-For.',
  forwardedWithoutTrustProxy:
    "Requests carry X-Forwarded-For but TRUST_PROXY is off: client addresses are the proxy's, so all users share " +
    'one sign-in throttle address and the logs show the proxy. Set TRUST_PROXY=true when a proxy you run sets ' +
    'X-Forwarded-For.',
} as const;

/**
 * Without TRUST_PROXY the client address is the socket's. Behind a reverse proxy that is the
 * proxy's for every user — the sign-in throttle's per-address count, the logs and the session
 * list then see one address. The server speaks plain HTTP, so an https PUBLIC_URL means a proxy:
 * warned at start-up. A request carrying X-Forwarded-For is warned when first seen, then at most
 * once per hour while it goes on.
 */
export function registerProxyWarning(app: FastifyInstance, config: Config, logger: FastifyBaseLogger): void {
  if (config.TRUST_PROXY) return;
  if (config.publicUrl.startsWith('https://')) logger.warn({ publicUrl: config.publicUrl }, PROXY_MESSAGES.httpsWithoutTrustProxy);
  let lastWarnedAt: number | null = null;
  app.addHook('onRequest', async (req) => {
    if (req.headers['x-forwarded-for'] === undefined) return;
    const now = Date.now();
    if (lastWarnedAt !== null && now - lastWarnedAt < PROXY_WARNING_INTERVAL_MS) return;
    lastWarnedAt = now;
    logger.warn({ socketAddress: req.socket.remoteAddress }, PROXY_MESSAGES.forwardedWithoutTrustProxy);
  });
}
