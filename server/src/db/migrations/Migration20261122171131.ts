import { Migration } from '@mikro-orm/migrations';

// The LLM provider: integrations (the organization's own openai key, encrypted), AI credits
// on the organization (credits.ai) and the charged keys that make a repeated call free.
export class Migration20261122171131 extends Migration {
  override name = 'Migration20261122171131';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "organization" add column "ai_credits_total" int null, add column "ai_credits_used" int not null default 0, add
        column "ai_credits_expires_at" timestamptz null;`,
    );

    this.addSql(
      `create table "integration" ("id" uuid not null, "organization_id" uuid not null, "user_id" uuid null, "provider" varchar(40) not
        null, "type" varchar(20) not null, "name" varchar(200) not null, "active" boolean not null default true, "data" jsonb not null
        default '{}', "secret" text null, "created_by_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not
        null, "expires_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "integration_org_provider_index" on "integration" ("organization_id", "provider");`);

    this.addSql(
      `create table "llm_charge" ("id" uuid not null, "organization_id" uuid not null, "charge_key" varchar(300) not null, "model"
        varchar(200) not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "llm_charge" add constraint "llm_charge_org_key_unique" unique ("organization_id", "charge_key");`);

    this.addSql(
      `alter table "integration" add constraint "integration_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "integration" add constraint "integration_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "integration" add constraint "integration_created_by_id_foreign" foreign key ("created_by_id") references "app_user"
        ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "llm_charge" add constraint "llm_charge_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "llm_charge" cascade;`);
    this.addSql(`drop table if exists "integration" cascade;`);
    this.addSql(
      `alter table "organization" drop column "ai_credits_total", drop column "ai_credits_used", drop column "ai_credits_expires_at";`,
    );
  }
}
