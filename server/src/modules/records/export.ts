// CSV export of the selected or filtered rows, streamed in keyset batches (memory stays flat
// whatever the number of rows); every cell is safe against spreadsheet formula injection.
import type { EntityManager } from '@mikro-orm/postgresql';
import { Readable } from 'node:stream';
import { csvCell, type RecordEntityType } from '@dealscout/shared/domain';
import type { QueryContext, Sql } from './table-query';
import { companyRows, contactRows } from './presenter';

const BATCH = 2000;

interface Column { header: string; get(row: Record<string, unknown>): unknown }

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
      { header: 'Key Contact', get: (r) => { const k = r.keyContact as { firstName: string; lastName: string } | null; return k ? `${k.firstName} ${k.lastName}` : ''; } },
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

/** Keyset over the table's default order: (lower(name), id) or (lower(last), lower(first), id). */
const KEYSET: Record<RecordEntityType, { cols: string[]; order: string; table: string }> = {
  company: { table: 'company', cols: ['lower(r.name)', 'r.id'], order: 'lower(r.name), r.id' },
  contact: { table: 'contact', cols: ['lower(r.last_name)', 'lower(r.first_name)', 'r.id'], order: 'lower(r.last_name), lower(r.first_name), r.id' },
};

export function exportCsv(em: EntityManager, ctx: QueryContext, where: Sql, columnKeys?: string[]): Readable {
  const custom = [...ctx.fieldsByKey.values()]
    .filter((f) => !f.builtInColumn && (!columnKeys || columnKeys.length === 0 || columnKeys.includes(f.key)))
    .sort((a, b) => a.label.localeCompare(b.label));
  const columns: Column[] = [
    ...builtInColumns(ctx.entityType),
    ...custom.map((f) => ({ header: f.label, get: (r: Record<string, unknown>) => (r.fields as Record<string, { value: unknown }>)[f.id]?.value ?? '' })),
  ];
  const ks = KEYSET[ctx.entityType];
  async function* rows() {
    yield '\uFEFF' + columns.map((c) => csvCell(c.header)).join(',') + '\r\n';
    let after: unknown[] | null = null;
    const conn = em.getConnection();
    for (;;) {
      const cond = after ? ` and (${ks.cols.join(', ')}) > (${ks.cols.map(() => '?').join(', ')})` : '';
      const keyRows: Record<string, unknown>[] = await conn.execute(
        `select ${ks.cols.map((c, i) => `${c} as k${i}`).join(', ')} from ${ks.table} r ${where.text}${cond} order by ${ks.order} limit ${BATCH}`,
        [...where.params, ...(after ?? [])],
      );
      if (keyRows.length === 0) return;
      const ids = keyRows.map((r) => String(r[`k${ks.cols.length - 1}`]));
      const page = ctx.entityType === 'company' ? await companyRows(em, ctx.organizationId, ids) : await contactRows(em, ctx.organizationId, ids);
      let chunk = '';
      for (const row of page) chunk += columns.map((c) => csvCell(c.get(row as unknown as Record<string, unknown>))).join(',') + '\r\n';
      yield chunk;
      const last = keyRows[keyRows.length - 1];
      after = ks.cols.map((_, i) => last[`k${i}`]);
      if (keyRows.length < BATCH) return;
    }
  }
  return Readable.from(rows());
}
