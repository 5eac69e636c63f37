import { Migration } from '@mikro-orm/migrations';

// The name sort indexes carry every column the search reads (docs/benchmarks.md): a search that
// matches too many rows to collect (table-query.ts COLLECT_MAX) walks the sort order and tests the
// search on the index entries alone (index-only), so even a walk through most of the organization
// reads no table rows. Supersedes the INCLUDE lists of Migration20261122050000.
export class Migration20261122051500 extends Migration {
  override name = 'Migration20261122051500';

  override up(): void | Promise<void> {
    this.addSql(`drop index "company_org_name_index";`);
    this.addSql(`create index "company_org_name_index" on "company" ("organization_id", lower("name"), "id") include ("name", "domain");`);
    this.addSql(`drop index "contact_org_name_index";`);
    this.addSql(
      `create index "contact_org_name_index" on "contact" ("organization_id", lower("last_name"), lower("first_name"), "id") include
        ("last_name", "first_name", "email");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "contact_org_name_index";`);
    this.addSql(
      `create index "contact_org_name_index" on "contact" ("organization_id", lower("last_name"), lower("first_name"), "id") include
        ("last_name", "first_name");`,
    );
    this.addSql(`drop index "company_org_name_index";`);
    this.addSql(`create index "company_org_name_index" on "company" ("organization_id", lower("name"), "id") include ("name");`);
  }
}
