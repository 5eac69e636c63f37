import { Migration } from '@mikro-orm/migrations';

// Pending OAuth authorizations (modules/integrations/oauth.ts): one row per started Salesforce or
// Office 365 authorization, found by its state's hash, deleted when the callback takes it.
export class Migration20261129183000 extends Migration {
  override name = 'Migration20261129183000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "oauth_authorization" ("id" uuid not null, "organization_id" uuid not null, "user_id" uuid not null,
        "provider" varchar(40) not null, "state_hash" varchar(64) not null, "verifier" text not null, "data" jsonb not null default '{}',
        "expires_at" timestamptz not null, "created_at" timestamptz not null, primary key ("id", "organization_id"));`,
    );
    this.addSql(`create unique index "oauth_authorization_org_state_unique" on "oauth_authorization" ("organization_id", "state_hash");`);
    this.addSql(
      `alter table "oauth_authorization" add constraint "oauth_authorization_organization_id_foreign" foreign key ("organization_id")
        references "organization" ("id");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "oauth_authorization" cascade;`);
  }
}
