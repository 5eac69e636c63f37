import { Migration } from '@mikro-orm/migrations';

// Statistics on each slot's filled bit (docs/benchmarks.md, records/table-query.ts slotSortedPage):
// a sort by a custom field reads its rows without a value by walking the name index filtered on
// `(filled_mask & bit) = 0`. Without statistics on that expression PostgreSQL guesses 0.5% of the
// rows match (5,000 of a million, where 100,000 did), judges the walk too long for so few rows, and
// sorts a parallel scan of the whole table instead: 300–450 ms instead of 13–60 ms for a page among
// the empty values. One expression statistics object per slot bit and table (an unused slot's is a
// single value, nothing to keep), filled by the next ANALYZE (run here).
const NUM = 16;
const TXT = 16;
const slots = Array.from({ length: NUM + TXT }, (_, i) => i + 1);
const bit = (s: number) => (1n << BigInt(s - 1)).toString();

export class Migration20261122211000 extends Migration {
  override name = 'Migration20261122211000';

  override up(): void | Promise<void> {
    for (const table of ['company', 'contact']) {
      for (const s of slots)
        this.addSql(`create statistics "${table}_slot_${s}_filled_stats" on (("filled_mask" & ${bit(s)})) from "${table}";`);
      this.addSql(`analyze "${table}";`);
    }
  }

  override down(): void | Promise<void> {
    for (const table of ['company', 'contact']) {
      for (const s of slots) this.addSql(`drop statistics if exists "${table}_slot_${s}_filled_stats";`);
    }
  }
}
