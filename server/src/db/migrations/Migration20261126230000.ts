import { Migration } from '@mikro-orm/migrations';

// crm_user_link: a user's CRM user, linked once (modules/crm). The user reference carries the
// organization (a link can only name a user of its own organization).
export class Migration20261126230000 extends Migration {
  override name = 'Migration20261126230000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "crm_user_link" ("id" uuid not null, "organization_id" uuid not null, "user_id" uuid not null, "provider"
        varchar(20) not null, "crm_user_id" varchar(255) not null, "crm_username" varchar(255) not null, "created_at" timestamptz not
        null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "crm_user_link" add constraint "crm_user_link_org_provider_crm_user_unique" unique ("organization_id", "provider", "crm_user_id");`,
    );
    this.addSql(
      `alter table "crm_user_link" add constraint "crm_user_link_org_user_provider_unique" unique ("organization_id", "user_id", "provider");`,
    );
    this.addSql(
      `alter table "crm_user_link" add constraint "crm_user_link_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "crm_user_link" add constraint "crm_user_link_user_id_foreign" foreign key ("organization_id", "user_id") references
        "app_user" ("organization_id", "id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "crm_user_link" cascade;`);
  }
}
