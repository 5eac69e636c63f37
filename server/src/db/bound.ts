import type { EntityManager } from '@mikro-orm/postgresql';

interface RawExecutor {
  executeQuery(q: { sql: string; parameters: readonly unknown[]; query: { kind: 'RawNode' }; queryId: { queryId: string } }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a statement with bound parameters ($1, $2 …) on the EntityManager's transaction, or on a
 * pooled connection outside one. `em.execute()` inlines its parameters into the SQL text on the
 * client (quoting character by character), which costs ~100 ms per megabyte: bulk statements that
 * send their rows as one JSON parameter (events, execution rows, claims) use this instead. The rows
 * come back exactly as from `em.execute()` (same driver, same type parsers).
 */
export async function executeBound<T>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<T[]> {
  const conn = em.getConnection();
  const trx = em.getTransactionContext<RawExecutor>();
  const executor: RawExecutor = trx ?? (conn.getClient() as unknown as RawExecutor);
  const res = await executor.executeQuery({ sql, parameters: params, query: { kind: 'RawNode' }, queryId: { queryId: 'dealscout-bound' } });
  return res.rows as T[];
}
