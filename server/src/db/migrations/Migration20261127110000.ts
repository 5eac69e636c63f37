import { Migration } from '@mikro-orm/migrations';

// CRM sync, outbound phase (modules/crm/sync/push.ts): crm_link.crm_values keeps, per
// linked record, the mapped fields' values both sides last agreed on (what the CRM sent on the last
// read or what we wrote to it last), so a value that differs from it was changed here and is written
// back (crm_values_at: when the CRM's side last changed, so a value Dealscout keeps is compared again);
// crm_push_job remembers a Bulk API 2.0 job while it runs (a resumed sync collects it instead
// of loading a second job); crm_activity_push records the activities logged in the CRM (Salesforce
// Task or Affinity note id), each once.
export class Migration20261127110000 extends Migration {
  override name = 'Migration20261127110000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "crm_link" add column "crm_values" jsonb null, add column "crm_values_at" timestamptz null;`);

    this.addSql(
      `create table "crm_push_job" ("id" uuid not null, "organization_id" uuid not null, "provider" varchar(20) not null, "entity_type"
        varchar(20) not null, "job_id" varchar(40) not null, "items" jsonb not null, "created_at" timestamptz not null, primary key
        ("id"));`,
    );
    this.addSql(`create index "crm_push_job_org_provider_type_index" on "crm_push_job" ("organization_id", "provider", "entity_type");`);
    this.addSql(
      `alter table "crm_push_job" add constraint "crm_push_job_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );

    this.addSql(
      `create table "crm_activity_push" ("id" uuid not null, "organization_id" uuid not null, "provider" varchar(20) not null,
        "activity_id" uuid not null, "crm_id" varchar(255) not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "crm_activity_push" add constraint "crm_activity_push_org_provider_activity_unique" unique ("organization_id", "provider", "activity_id");`,
    );
    this.addSql(
      `alter table "crm_activity_push" add constraint "crm_activity_push_organization_id_foreign" foreign key ("organization_id")
        references "organization" ("id");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "crm_activity_push" cascade;`);
    this.addSql(`drop table if exists "crm_push_job" cascade;`);
    this.addSql(`alter table "crm_link" drop column "crm_values", drop column "crm_values_at";`);
  }
}
