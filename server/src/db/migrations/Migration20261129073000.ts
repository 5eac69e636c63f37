import { Migration } from '@mikro-orm/migrations';

// GET /metrics counts the executions not finished yet by type and state at every scrape: a partial
// index of those rows keeps the count small however many finished executions the table holds.
export class Migration20261129073000 extends Migration {
  override up(): void | Promise<void> {
    this.addSql(
      `create index if not exists "execution_active_type_status_index" on "execution" ("type", "status") where "status" in ('draft',
        'scheduled', 'processing');`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "execution_active_type_status_index";`);
  }
}
