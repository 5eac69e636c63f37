import { Migration } from '@mikro-orm/migrations';

// company_contact_org_company_index (organization_id, company_id) repeated the leading columns of
// the unique company_contact_organization_id_company_id_contact_id_unique (organization_id,
// company_id, contact_id): every lookup it served (a company's contacts, the cascade and the
// foreign-key check of company_contact_company_id_foreign) is served by that index's prefix. It was
// one more index written per link — a CRM first sync writes 200,000 links (docs/benchmarks.md
// 'CRM sync (Salesforce)'). The contact side keeps company_contact_organization_id_contact_id_index.
export class Migration20261128110000 extends Migration {
  override up(): void | Promise<void> {
    this.addSql(`drop index if exists "company_contact_org_company_index";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create index "company_contact_org_company_index" on "company_contact" ("organization_id", "company_id");`);
  }
}
