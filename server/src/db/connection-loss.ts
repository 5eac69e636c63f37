// A database connection lost under a running operation (the server terminated it: an operator's
// pg_terminate_backend, a failover, a restart; or the network dropped it). node-postgres reports it
// twice: the statement in flight rejects, and the client emits 'error' — an 'error' event without a
// listener ends the whole process, so every client the server opens has one (docs/ARCHITECTURE.md,
// 'Lost database connections'). The operation then fails with a reason; the next one gets a new
// connection from its pool.

/** SQLSTATE classes and codes of a connection that is gone: class 08 (connection exception), 57P01–57P03 (shutdown). */
const LOST_CODES = /^(08[0-9A-Z]{3}|57P0[123])$/;
const LOST_SOCKET = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTCONN', 'ECONNABORTED']);
const LOST_MESSAGE = /Connection terminated|not queryable|terminating connection|server closed the connection|Connection ended/i;

/** Whether an error (or one of its causes) says the database connection was lost. */
export function isConnectionLoss(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const x = e as { code?: unknown; message?: unknown };
    if (typeof x.code === 'string' && (LOST_CODES.test(x.code) || LOST_SOCKET.has(x.code))) return true;
    if (typeof x.message === 'string' && LOST_MESSAGE.test(x.message)) return true;
  }
  return false;
}

/**
 * Runs `fn` again (up to `attempts` times, `delayMs` apart, doubling) while it fails because its
 * connection was lost: for the short bookkeeping statements of an error path (marking an operation
 * failed) that run right after the connections were cut, when the pool may still hand out one of
 * them. Any other error is thrown at once.
 */
export async function retryOnConnectionLoss<T>(fn: () => Promise<T>, attempts = 4, delayMs = 250): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i >= attempts || !isConnectionLoss(err)) throw err;
      await new Promise((r) => setTimeout(r, delayMs * 2 ** (i - 1)));
    }
  }
}
