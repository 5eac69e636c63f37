import { Migration } from '@mikro-orm/migrations';

export class Migration20261122034404 extends Migration {
  override name = 'Migration20261122034404';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "table_layout" ("id" uuid not null, "organization_id" uuid not null, "user_id" uuid not null, "entity_type"
        varchar(20) not null, "name" varchar(100) not null, "columns" jsonb not null, "created_at" timestamptz not null, "updated_at"
        timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "table_layout_organization_id_index" on "table_layout" ("organization_id");`);
    this.addSql(`create index "table_layout_user_id_index" on "table_layout" ("user_id");`);

    this.addSql(
      `create table "field_definition" ("id" uuid not null, "organization_id" uuid not null, "entity_type" varchar(20) not null, "key"
        varchar(120) not null, "label" varchar(120) not null, "data_type" varchar(20) not null, "namespace" varchar(30) not null,
        "is_mandatory" boolean not null default false, "is_pseudo" boolean not null default false, "built_in_column" varchar(40) null,
        "config" jsonb not null, "created_by_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
        primary key ("id"));`,
    );
    this.addSql(`create index "field_definition_organization_id_index" on "field_definition" ("organization_id");`);
    this.addSql(`create index "field_definition_created_by_id_index" on "field_definition" ("created_by_id");`);
    this.addSql(
      `alter table "field_definition" add constraint "field_definition_organization_id_entity_type_key_unique" unique
        ("organization_id", "entity_type", "key");`,
    );

    this.addSql(
      `create table "field_value" ("id" uuid not null, "organization_id" uuid not null, "entity_type" varchar(20) not null, "entity_id"
        uuid not null, "field_id" uuid not null, "value" jsonb null, "value_text" text null, "value_num" double precision null,
        "value_bool" boolean null, "info_value" jsonb null, "status" varchar(20) null, "status_message" text null, "details" jsonb null,
        "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "field_value_entity_id_index" on "field_value" ("entity_id");`);
    this.addSql(`alter table "field_value" add constraint "field_value_field_id_entity_id_unique" unique ("field_id", "entity_id");`);

    this.addSql(
      `create table "contact" ("id" uuid not null, "organization_id" uuid not null, "first_name" varchar(128) not null, "last_name"
        varchar(128) not null, "email" varchar(128) not null, "owner_id" uuid null, "created_by_id" uuid null, "created_at" timestamptz
        not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "contact_owner_id_index" on "contact" ("owner_id");`);

    this.addSql(
      `create table "company" ("id" uuid not null, "organization_id" uuid not null, "name" varchar(255) not null, "website" varchar(255)
        not null, "domain" varchar(255) not null, "owner_id" uuid null, "created_by_id" uuid null, "created_at" timestamptz not null,
        "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "company_owner_id_index" on "company" ("owner_id");`);

    this.addSql(
      `create table "company_contact" ("id" uuid not null, "organization_id" uuid not null, "company_id" uuid not null, "contact_id"
        uuid not null, "is_key" boolean not null default false, "is_primary" boolean not null default false, "label" varchar(100) null,
        "value" varchar(255) null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "company_contact_contact_id_index" on "company_contact" ("contact_id");`);
    this.addSql(
      `alter table "company_contact" add constraint "company_contact_company_id_contact_id_unique" unique ("company_id", "contact_id");`,
    );

    this.addSql(
      `alter table "table_layout" add constraint "table_layout_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "table_layout" add constraint "table_layout_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "field_definition" add constraint "field_definition_organization_id_foreign" foreign key ("organization_id")
        references "organization" ("id");`,
    );
    this.addSql(
      `alter table "field_definition" add constraint "field_definition_created_by_id_foreign" foreign key ("created_by_id") references
        "app_user" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "field_value" add constraint "field_value_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "field_value" add constraint "field_value_field_id_foreign" foreign key ("field_id") references "field_definition"
        ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "contact" add constraint "contact_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "contact" add constraint "contact_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "contact" add constraint "contact_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "company" add constraint "company_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "company" add constraint "company_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "company" add constraint "company_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "company_contact" add constraint "company_contact_organization_id_foreign" foreign key ("organization_id") references
        "organization" ("id");`,
    );
    this.addSql(
      `alter table "company_contact" add constraint "company_contact_company_id_foreign" foreign key ("company_id") references "company"
        ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "company_contact" add constraint "company_contact_contact_id_foreign" foreign key ("contact_id") references "contact"
        ("id") on delete cascade;`,
    );

    // Written by hand (see server/src/db/hand-written.ts): trigram search, case-insensitive
    // sort keys led by the organization, one key contact per company, one primary company per
    // contact, and the typed projections of custom field values.
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create unique index "company_org_domain_unique" on "company" ("organization_id", "domain");`);
    this.addSql(`create index "company_org_name_index" on "company" ("organization_id", lower("name"), "id");`);
    this.addSql(`create index "company_org_created_index" on "company" ("organization_id", "created_at", "id");`);
    this.addSql(`create index "company_search_trgm" on "company" using gin (lower("name" || ' ' || "domain") gin_trgm_ops);`);
    this.addSql(`create unique index "contact_org_email_unique" on "contact" ("organization_id", lower("email"));`);
    this.addSql(`create index "contact_org_name_index" on "contact" ("organization_id", lower("last_name"), lower("first_name"), "id");`);
    this.addSql(`create index "contact_org_created_index" on "contact" ("organization_id", "created_at", "id");`);
    this.addSql(
      `create index "contact_search_trgm" on "contact" using gin (lower("first_name" || ' ' || "last_name" || ' ' || "email") gin_trgm_ops);`,
    );
    this.addSql(`create index "company_contact_org_company_index" on "company_contact" ("organization_id", "company_id");`);
    this.addSql(`create unique index "company_contact_one_key" on "company_contact" ("company_id") where "is_key";`);
    this.addSql(`create unique index "company_contact_one_primary" on "company_contact" ("contact_id") where "is_primary";`);
    this.addSql(`create index "field_value_org_num_index" on "field_value" ("organization_id", "field_id", "value_num", "entity_id");`);
    this.addSql(
      `create index "field_value_org_text_index" on "field_value" ("organization_id", "field_id", (left(lower("value_text"), 200)) collate "C", "entity_id");`,
    );
    this.addSql(`create index "field_value_org_bool_index" on "field_value" ("organization_id", "field_id", "value_bool", "entity_id");`);
    this.addSql(`create index "field_value_text_trgm" on "field_value" using gin (lower("value_text") gin_trgm_ops);`);
    // Every existing organization gets the built-in fields of server/src/modules/fields/builtins.ts
    // (new organizations get them when created). Inlined: a migration must not change with the code.
    this.addSql(`insert into "field_definition" ("id", "organization_id", "entity_type", "key", "label", "data_type", "namespace",
        "is_mandatory", "is_pseudo", "built_in_column", "config", "created_at", "updated_at")
      select gen_random_uuid(), o."id", b.entity_type, b.key, b.label, b.data_type, b.entity_type, true, b.is_pseudo, b.built_in_column,
        '{"reconciliation":"use_latest","refreshSchedule":"never"}'::jsonb, now(), now()
      from "organization" o cross join (values ('company', 'id', 'Id', 'id', 'id', false), ('company', 'name', 'Name', 'string', 'name',
        false), ('company', 'website', 'Website', 'url', 'website', false), ('company', 'domain', 'Domain', 'string', 'domain', true),
        ('company', 'owner', 'Account Owner', 'reference', 'owner_id', false), ('company', 'created_at', 'Created', 'date',
        'created_at', false), ('contact', 'id', 'Id', 'id', 'id', false), ('contact', 'first_name', 'First name', 'string',
        'first_name', false), ('contact', 'last_name', 'Last name', 'string', 'last_name', false), ('contact', 'email', 'Email',
        'email', 'email', false), ('contact', 'owner', 'Account Owner', 'reference', 'owner_id', false), ('contact', 'created_at',
        'Created', 'date', 'created_at', false)) as b(entity_type, key, label, data_type, built_in_column, is_pseudo);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "field_value" drop constraint "field_value_field_id_foreign";`);
    this.addSql(`alter table "company_contact" drop constraint "company_contact_contact_id_foreign";`);
    this.addSql(`alter table "company_contact" drop constraint "company_contact_company_id_foreign";`);

    this.addSql(`drop table if exists "table_layout" cascade;`);
    this.addSql(`drop table if exists "field_definition" cascade;`);
    this.addSql(`drop table if exists "field_value" cascade;`);
    this.addSql(`drop table if exists "contact" cascade;`);
    this.addSql(`drop table if exists "company" cascade;`);
    this.addSql(`drop table if exists "company_contact" cascade;`);
  }
}
