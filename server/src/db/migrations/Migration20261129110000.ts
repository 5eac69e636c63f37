import { Migration } from '@mikro-orm/migrations';

// The tables written in bulk (a CSV upload's ideas, a score run's idea scores, an enrichment's
// results, a CRM sync's links and field values, an upload's rejections) lose their own foreign key
// to organization: each row also references a parent of the same organization through a required
// (organization_id, …) key, which already proves the organization exists. The check it repeated
// cost a lookup per inserted row (about a sixth of a million-row upload's insert).
const TABLES = ['idea', 'idea_score', 'enrichment_result', 'company_contact', 'field_value', 'list_source_rejection'];

export class Migration20261129110000 extends Migration {
  override up(): void | Promise<void> {
    for (const t of TABLES) this.addSql(`alter table "${t}" drop constraint if exists "${t}_organization_id_foreign";`);
  }

  override down(): void | Promise<void> {
    for (const t of TABLES)
      this.addSql(
        `alter table "${t}" add constraint "${t}_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
      );
  }
}
