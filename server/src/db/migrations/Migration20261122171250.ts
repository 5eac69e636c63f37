import { Migration } from '@mikro-orm/migrations';

// Enrichments: the organization's enrichments and their latest result per record.
// Configs are the product's own, fixed in code (modules/enrichments/configs.ts), so no table.
export class Migration20261122171250 extends Migration {
  override name = 'Migration20261122171250';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "enrichment" ("id" uuid not null, "organization_id" uuid not null, "config_id" varchar(64) not null,
        "enrichment_type" varchar(40) not null, "provider" varchar(20) not null, "entity_type" varchar(20) not null, "name" varchar(200)
        not null, "llm_model_id" varchar(200) not null default 'default', "data" jsonb not null, "color" varchar(20) null, "field_id"
        uuid null, "is_primary" boolean not null default false, "assigned_at" timestamptz null, "list_company_id" uuid null,
        "list_columns" jsonb not null default '[]', "created_by_id" uuid null, "created_at" timestamptz not null, "updated_at"
        timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "enrichment_org_created_index" on "enrichment" ("organization_id", "created_at");`);
    this.addSql(`create index "enrichment_org_field_index" on "enrichment" ("organization_id", "field_id");`);
    this.addSql(
      `create table "enrichment_result" ("id" uuid not null, "organization_id" uuid not null, "enrichment_id" uuid not null,
        "entity_type" varchar(20) not null, "entity_id" uuid not null, "execution_id" uuid null, "status" varchar(20) not null,
        "status_message" text null, "value" jsonb not null, "sources" jsonb not null default '[]', "updated_at" timestamptz not null,
        primary key ("id"));`,
    );
    this.addSql(`create index "enrichment_result_org_entity_index" on "enrichment_result" ("organization_id", "entity_id");`);
    this.addSql(
      `alter table "enrichment_result" add constraint "enrichment_result_enrichment_entity_unique" unique ("enrichment_id", "entity_id");`,
    );
    this.addSql(
      `alter table "enrichment" add constraint "enrichment_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "enrichment" add constraint "enrichment_field_id_foreign" foreign key ("field_id") references "field_definition" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "enrichment" add constraint "enrichment_created_by_id_foreign" foreign key ("created_by_id") references "app_user"
        ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "enrichment_result" add constraint "enrichment_result_organization_id_foreign" foreign key ("organization_id")
        references "organization" ("id");`,
    );
    this.addSql(
      `alter table "enrichment_result" add constraint "enrichment_result_enrichment_id_foreign" foreign key ("enrichment_id") references
        "enrichment" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "enrichment_result" cascade;`);
    this.addSql(`drop table if exists "enrichment" cascade;`);
  }
}
