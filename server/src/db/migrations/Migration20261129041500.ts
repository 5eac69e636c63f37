import { Migration } from '@mikro-orm/migrations';

// The company enrichments run on a list's ideas (their ids, in first-use order): the list shows
// their columns beside its own idea enrichments.
export class Migration20261129041500 extends Migration {
  override up(): void | Promise<void> {
    this.addSql(`alter table "list_company" add column "enrichment_ids" jsonb not null default '[]';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "list_company" drop column if exists "enrichment_ids";`);
  }
}
