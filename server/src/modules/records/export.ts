// CSV export of the selected or filtered rows, streamed in batches from one cursor (memory stays
// flat whatever the number of rows); every cell is safe against spreadsheet formula injection.
// A custom field's value is written by the rules the tables show it with (domain/values.ts, its
// export mode): one value as itself (numbers plain, dates ISO), several as 'Label: value; …'.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Readable } from 'node:stream';
import { csvCell, exportValueText, type RecordEntityType } from '@dealscout/shared/domain';
import type { QueryContext, Sql } from './table-query';
import { companyRows, contactRows } from './presenter';
import { tenantSql, unscopedSql } from '../../db/sql';

const BATCH = 2000;

interface Column {
  header: string;
  get(row: Record<string, unknown>): unknown;
}

function builtInColumns(entityType: RecordEntityType): Column[] {
  const ownerName = (r: Record<string, unknown>) => {
    const o = r.owner as { firstName: string; lastName: string; email: string } | null;
    return o ? `${o.firstName} ${o.lastName}`.trim() || o.email : '';
  };
  if (entityType === 'company') {
    return [
      { header: 'Name', get: (r) => r.name },
      { header: 'Website', get: (r) => r.website },
      { header: 'Domain', get: (r) => r.domain },
      { header: 'Account Owner', get: ownerName },
      {
        header: 'Key Contact',
        get: (r) => {
          const k = r.keyContact as { firstName: string; lastName: string } | null;
          return k ? `${k.firstName} ${k.lastName}` : '';
        },
      },
      { header: 'Key Contact Email', get: (r) => (r.keyContact as { email: string } | null)?.email ?? '' },
      { header: 'Created', get: (r) => r.createdAt },
    ];
  }
  return [
    { header: 'First name', get: (r) => r.firstName },
    { header: 'Last name', get: (r) => r.lastName },
    { header: 'Email', get: (r) => r.email },
    { header: 'Account Owner', get: ownerName },
    { header: 'Primary Company', get: (r) => (r.primaryCompany as { name: string } | null)?.name ?? '' },
    { header: 'Created', get: (r) => r.createdAt },
  ];
}

/** The export's order: the table's default order, with the id as the tie-breaker. */
const ORDER: Record<RecordEntityType, { table: string; order: string }> = {
  company: { table: 'company', order: 'lower(r.name), r.id' },
  contact: { table: 'contact', order: 'lower(r.last_name), lower(r.first_name), r.id' },
};

export async function exportCsv(em: EntityManager, ctx: QueryContext, where: Sql, columnKeys?: string[]): Promise<Readable> {
  const custom = [...ctx.fieldsByKey.values()]
    .filter((f) => !f.builtInColumn && (!columnKeys || columnKeys.length === 0 || columnKeys.includes(f.key)))
    .sort((a, b) => a.label.localeCompare(b.label));
  const columns: Column[] = [
    ...builtInColumns(ctx.entityType),
    ...custom.map((f) => ({
      header: f.label,
      get: (r: Record<string, unknown>) =>
        exportValueText((r.fields as Record<string, { value: unknown }>)[f.id]?.value, { dataType: f.dataType, key: f.key }),
    })),
  ];
  const { table, order } = ORDER[ctx.entityType];
  // The cursor is declared and the first batch read BEFORE the answer starts: a query the database
  // refuses fails here, as an error answer, instead of after a 200 and the header row (a truncated
  // file with a success status). One cursor over the whole ordered selection, read in batches: the
  // selection is found once (planned for all of its rows: cursor_tuple_fraction = 1), in one
  // snapshot, instead of being searched again from the last key for every batch. The transaction
  // lives as long as the stream; a client that goes away ends it.
  const tx = em.fork();
  await tx.begin();
  let done = false;
  const rollback = async () => {
    if (done) return;
    done = true;
    await tx.rollback().catch(() => {});
  };
  // Cursor statements read through `where` (which binds the organization) or read no table.
  const sql = tenantSql(tx, ctx.organizationId);
  const cursor = unscopedSql(tx, 'connection');
  const fetchIds = async (): Promise<string[]> => {
    const batch = await cursor.all<{ id: string }>(`fetch ${BATCH} from export_rows`);
    return batch.map((r) => String(r.id));
  };
  const load = (ids: string[]) => {
    if (ids.length === 0) return Promise.resolve([]);
    // In the cursor's transaction: an export holding its connection never waits for a second
    // one (as many concurrent exports as pooled connections would otherwise wait for ever).
    const p = ctx.entityType === 'company' ? companyRows(tx, ctx.organizationId, ids) : contactRows(tx, ctx.organizationId, ids);
    p.catch(() => {}); // awaited below; this only keeps an abandoned stream's last load from being an unhandled rejection
    return p;
  };
  let firstIds: string[];
  let firstLoading: ReturnType<typeof load>;
  try {
    await cursor.run('set local cursor_tuple_fraction = 1');
    await sql.run(`declare export_rows no scroll cursor for select r.id from ${table} r ${where.text} order by ${order}`, where.params);
    firstIds = await fetchIds();
    firstLoading = load(firstIds);
    await firstLoading;
  } catch (err) {
    await rollback();
    throw err;
  }
  async function* rows() {
    yield '\uFEFF' + columns.map((c) => csvCell(c.header)).join(',') + '\r\n';
    try {
      // One batch ahead: the next ids are fetched while this batch's rows load, and the next rows
      // load while this batch is written out.
      let ids = firstIds;
      let loading = firstLoading;
      while (ids.length > 0) {
        const nextIds = ids.length < BATCH ? Promise.resolve([]) : fetchIds();
        nextIds.catch(() => {});
        const page = await loading;
        ids = await nextIds;
        loading = load(ids);
        let chunk = '';
        for (const row of page) chunk += columns.map((c) => csvCell(c.get(row as unknown as Record<string, unknown>))).join(',') + '\r\n';
        yield chunk;
      }
      await tx.commit();
      done = true;
    } finally {
      await rollback();
    }
  }
  const stream = Readable.from(rows());
  // A stream closed before its generator ran (the client left at once) still ends the transaction.
  stream.on('close', () => {
    void rollback();
  });
  return stream;
}
