// The progress of a CSV upload into a list. The import runs inside its request (csv-import.ts), not
// as a queued job, yet it is shown like every other long run: an execution of type 'list' (typeId =
// the source, entity = the list) that counts the rows read, published as 'execution.updated' on the
// executions path and read through POST /execution/progress. It cannot be cancelled (the upload is
// one transaction: it is whole or nothing); its idempotency key says so (CSV_IMPORT_KEY_PREFIX).
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { CSV_IMPORT_KEY_PREFIX } from '@dealscout/shared/domain';
import { tenantSql } from '../../db/sql';
import { publish } from '../realtime/publish';
import { EXECUTION_COLUMNS, executionEvent, type ExecutionRow } from '../executions/execution.presenter';

/** How often a running upload writes its rows read (ms). */
const PROGRESS_MS = 500;

export interface ImportProgress {
  executionId: string;
  /** The rows read so far (written at most every half second). */
  rows(n: number): void;
  /** The import committed: every row read is done. */
  completed(rows: number, result: { inserted: number; merged: number; rejected: number }): Promise<void>;
  /** The import failed: the line reads failed with the reason. */
  failed(reason: string): Promise<void>;
  /** The upload was refused (bad input changes nothing): a live line ends failed, and the execution is gone. */
  discard(reason: string): Promise<void>;
}

/** One write of the execution and its event, committed at once (on a connection of its own, beside the import's). */
async function write(em: EntityManager, organizationId: string, sql: string, params: unknown[]): Promise<void> {
  await em.transactional(async (tem) => {
    const [row] = await tenantSql(tem, organizationId).all<ExecutionRow>(`${sql} returning ${EXECUTION_COLUMNS}`, params);
    if (row) await publish(tem, organizationId, executionEvent(row));
  });
}

/** Creates the upload's execution (processing, no total yet) and answers how to report on it. */
export async function startImportProgress(
  em: EntityManager,
  input: { organizationId: string; userId: string; listId: string; sourceId: string },
): Promise<ImportProgress> {
  const id = randomUUID();
  const org = input.organizationId;
  await write(
    em.fork(),
    org,
    `insert into execution (id, organization_id, type, type_id, entity_type, entity_id, status, idempotency_key, attempt, processed,
      total, created_by_id, created_at, updated_at, started_at)
      values (?, ?, 'list', ?, 'list', ?, 'processing', ?, 0, 0, null, ?, clock_timestamp(), clock_timestamp(), clock_timestamp())`,
    [id, org, input.sourceId, input.listId, `${CSV_IMPORT_KEY_PREFIX}${input.sourceId}`, input.userId],
  );
  let last = 0;
  let pending: Promise<void> = Promise.resolve();
  const failed = async (reason: string) => {
    await pending;
    await write(
      em.fork(),
      org,
      `update execution set status = 'error', status_message = ?, completed_at = clock_timestamp(), updated_at = clock_timestamp()
        where organization_id = ? and id = ? and status = 'processing'`,
      [reason, org, id],
    );
  };
  return {
    executionId: id,
    rows(n) {
      if (Date.now() - last < PROGRESS_MS) return;
      last = Date.now();
      // One write at a time, in order; a lost write only delays the count (the next one carries it).
      pending = pending
        .then(() =>
          write(
            em.fork(),
            org,
            `update execution set processed = greatest(processed, ?), updated_at = clock_timestamp() where organization_id = ? and id =
              ? and status = 'processing'`,
            [n, org, id],
          ),
        )
        .catch(() => {});
    },
    async completed(rows, result) {
      await pending;
      await write(
        em.fork(),
        org,
        `update execution set status = 'completed', processed = ?, total = ?, result = ?::jsonb, completed_at = clock_timestamp(),
          updated_at = clock_timestamp()
          where organization_id = ? and id = ? and status = 'processing'`,
        [rows, rows, JSON.stringify(result), org, id],
      );
    },
    failed,
    async discard(reason) {
      await failed(reason);
      await tenantSql(em.fork(), org).run(`delete from execution where organization_id = ? and id = ?`, [org, id]);
    },
  };
}

/** The uploads whose import stopped without recording it (import-sweep.job.ts): their lines read failed too. */
export async function failStoppedImportProgress(em: EntityManager, organizationId: string, sourceIds: readonly string[], reason: string) {
  if (sourceIds.length === 0) return;
  const rows = await tenantSql(em, organizationId).all<ExecutionRow>(
    `update execution set status = 'error', status_message = ?, completed_at = clock_timestamp(), updated_at = clock_timestamp()
      where organization_id = ? and type = 'list' and type_id = any(?::uuid[]) and idempotency_key like ? and status = 'processing'
      returning ${EXECUTION_COLUMNS}`,
    [reason, organizationId, `{${sourceIds.join(',')}}`, `${CSV_IMPORT_KEY_PREFIX}%`],
  );
  if (rows.length > 0) await publish(em, organizationId, rows.map(executionEvent));
}
