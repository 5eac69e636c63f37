import { Migration } from '@mikro-orm/migrations';

// CRM sync (modules/crm/sync): the organization's sync settings and field mappings, the
// inbound high-water marks (per provider, CRM object and scope), and the sync-change log the record
// drawer shows. Records are matched to CRM ids through the existing crm_link table.
export class Migration20261127060000 extends Migration {
  override name = 'Migration20261127060000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "crm_sync_settings" ("id" uuid not null, "organization_id" uuid not null, "provider" varchar(20) not null,
        "sync_accounts" boolean not null default true, "sync_contacts" boolean not null default true, "account_mappings" jsonb not null,
        "contact_mappings" jsonb not null, "updated_by_id" uuid null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "crm_sync_settings" add constraint "crm_sync_settings_org_provider_unique" unique ("organization_id", "provider");`,
    );
    this.addSql(
      `alter table "crm_sync_settings" add constraint "crm_sync_settings_organization_id_foreign" foreign key ("organization_id")
        references "organization" ("id");`,
    );

    this.addSql(
      `create table "crm_sync_state" ("id" uuid not null, "organization_id" uuid not null, "provider" varchar(20) not null, "object"
        varchar(40) not null, "scope" varchar(255) not null, "high_water" timestamptz null, "last_id" varchar(255) null, "updated_at"
        timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "crm_sync_state" add constraint "crm_sync_state_org_provider_object_scope_unique" unique ("organization_id",
        "provider", "object", "scope");`,
    );
    this.addSql(
      `alter table "crm_sync_state" add constraint "crm_sync_state_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );

    this.addSql(
      `create table "crm_sync_change" ("id" uuid not null, "organization_id" uuid not null, "execution_id" uuid null, "provider"
        varchar(20) not null, "entity_type" varchar(20) not null, "entity_id" uuid not null, "side" varchar(20) not null, "action"
        varchar(20) not null, "field_label" varchar(255) null, "old_value" text null, "new_value" text null, "crm_id" varchar(255) null,
        "changed_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "crm_sync_change_org_entity_index" on "crm_sync_change" ("organization_id", "entity_type", "entity_id", "changed_at");`,
    );
    this.addSql(
      `alter table "crm_sync_change" add constraint "crm_sync_change_organization_id_foreign" foreign key ("organization_id") references
        "organization" ("id");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "crm_sync_change" cascade;`);
    this.addSql(`drop table if exists "crm_sync_state" cascade;`);
    this.addSql(`drop table if exists "crm_sync_settings" cascade;`);
  }
}
