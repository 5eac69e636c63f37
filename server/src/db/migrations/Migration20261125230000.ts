import { Migration } from '@mikro-orm/migrations';

// crm_link: a record's id in a CRM or on LinkedIn (modules/crm/links), for the Chrome side panel's
// lookup by CRM id. Exactly one of company_id / contact_id is set.
export class Migration20261125230000 extends Migration {
  override name = 'Migration20261125230000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "crm_link" ("id" uuid not null, "organization_id" uuid not null, "source" varchar(20) not null, "entity_type"
        varchar(20) not null, "external_id" varchar(255) not null, "company_id" uuid null, "contact_id" uuid null, "created_at"
        timestamptz not null, primary key ("id"), constraint "crm_link_one_record_check" check (("company_id" is null) <> ("contact_id"
        is null)));`,
    );
    this.addSql(`create index "crm_link_company_id_index" on "crm_link" ("company_id");`);
    this.addSql(`create index "crm_link_contact_id_index" on "crm_link" ("contact_id");`);
    this.addSql(
      `alter table "crm_link" add constraint "crm_link_org_source_type_external_unique" unique ("organization_id", "source", "entity_type", "external_id");`,
    );
    this.addSql(
      `alter table "crm_link" add constraint "crm_link_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "crm_link" add constraint "crm_link_company_id_foreign" foreign key ("company_id") references "company" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "crm_link" add constraint "crm_link_contact_id_foreign" foreign key ("contact_id") references "contact" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "crm_link" cascade;`);
  }
}
