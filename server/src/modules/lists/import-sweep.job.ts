// CSV imports that stopped without recording it: the process running one died (kill -9, a crash,
// the machine) or its connection was cut and the failure could not be written. A running import's
// connection holds its lease — a session advisory lock, `importLeaseKey(sourceId)`, taken before the
// source exists (csv-import.ts) — so a source 'inProgress' whose lease can be taken is one nobody
// runs any more: it is marked failed with CSV_MESSAGES.serverStopped (the user uploads the file
// again, or removes the source). Another live process's import holds its lease and is left alone,
// whichever process sweeps: every process at start (main.ts) and the worker every minute.
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { unscopedSql, LEASE_KEY_SQL } from '../../db/sql';
import { defineJob } from '../../jobs/definitions';
import { CSV_MESSAGES } from './csv-import';
import { publishListChange } from './lists.service';
import { failStoppedImportProgress } from './import-progress';

/** Marks failed every CSV import in progress whose lease nobody holds; answers the sources failed. */
export async function sweepStoppedImports(em: EntityManager): Promise<{ organizationId: string; listId: string; sourceId: string }[]> {
  return em.transactional(async (tem) => {
    // `offset 0` keeps the candidates a subquery of their own: the lock is tried on them only. The
    // transaction's lock conflicts with a running import's session lock, and holding it until the
    // commit keeps an import of that id from starting in between (none can: the id is new).
    const rows = await unscopedSql(tem, 'import-sweep').all<{ organization_id: string; list_id: string; id: string }>(
      `update list_source s set status = 'failed', status_severity = 'error', status_reason = ?, updated_at = now()
        where s.status = 'inProgress' and (s.organization_id, s.id) in (
              select c.organization_id, c.id from (select organization_id, id from list_source where type = 'csv' and status = 'inProgress' offset 0) c
               where pg_try_advisory_xact_lock(${LEASE_KEY_SQL(`'list-import:' || c.id::text`)}))
        returning s.organization_id::text, s.list_id::text, s.id::text`,
      [CSV_MESSAGES.serverStopped],
    );
    const byOrg = new Map<string, string[]>();
    for (const r of rows) byOrg.set(r.organization_id, [...(byOrg.get(r.organization_id) ?? []), r.id]);
    for (const [org, ids] of byOrg) await failStoppedImportProgress(tem, org, ids, CSV_MESSAGES.serverStopped);
    const lists = new Map(rows.map((r) => [`${r.organization_id}:${r.list_id}`, r]));
    for (const r of lists.values()) await publishListChange(tem, r.organization_id, r.list_id, 'sources');
    return rows.map((r) => ({ organizationId: r.organization_id, listId: r.list_id, sourceId: r.id }));
  });
}

/** Sweeps and logs what it failed (a failure of the sweep itself is logged: the next one tries again). */
export async function sweepStoppedImportsLogged(em: EntityManager, logger: Pick<Logger, 'info' | 'warn'>): Promise<void> {
  try {
    const failed = await sweepStoppedImports(em);
    if (failed.length > 0) logger.info({ sources: failed }, 'CSV imports stopped without finishing were marked failed');
  } catch (err) {
    logger.warn({ err }, 'the import sweep failed; it runs again in a minute');
  }
}

/** Every minute on a worker: imports whose process died while others kept running. */
export const importSweepJob = defineJob({
  queue: 'lists.import-sweep',
  schema: z.object({}).passthrough(),
  schedule: '* * * * *',
  async handle(_data, { orm, logger }) {
    await sweepStoppedImportsLogged(orm.em.fork(), logger);
  },
});
