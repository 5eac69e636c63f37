import { Migration } from '@mikro-orm/migrations';

// The organization as the sharding key (server/test/tenancy.test.ts, GitLab's check): references
// between tenant tables include organization_id, so a row can only point at a row of its own
// organization (the database refuses a company of organization A linked to a contact of B), and
// every index and unique of a tenant table leads with organization_id (the exceptions are listed
// in the test with their reasons). Ready for distributing the tables by organization_id (Citus).
export class Migration20261125230500 extends Migration {
  override name = 'Migration20261125230500';

  override up(): void | Promise<void> {
    // The key (organization_id, id) that references between tenant tables point at.
    this.addSql(`alter table "app_user" add constraint "app_user_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "company" add constraint "company_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(`alter table "contact" add constraint "contact_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(
      `alter table "field_definition" add constraint "field_definition_organization_id_id_unique" unique ("organization_id", "id");`,
    );
    this.addSql(`alter table "enrichment" add constraint "enrichment_organization_id_id_unique" unique ("organization_id", "id");`);
    // References between tenant tables carry the organization: a row can only point at a row of its own organization.
    // A nullable reference is cleared alone (ON DELETE SET NULL (column), PostgreSQL 15+), the organization stays.
    this.addSql(
      `alter table "session" drop constraint "session_user_id_foreign", add constraint "session_user_id_foreign" foreign key
        ("organization_id", "user_id") references "app_user" ("organization_id", "id");`,
    );
    this.addSql(
      `alter table "password_reset" drop constraint "password_reset_user_id_foreign", add constraint "password_reset_user_id_foreign"
        foreign key ("organization_id", "user_id") references "app_user" ("organization_id", "id");`,
    );
    this.addSql(
      `alter table "invitation" drop constraint "invitation_invited_by_id_foreign", add constraint "invitation_invited_by_id_foreign"
        foreign key ("organization_id", "invited_by_id") references "app_user" ("organization_id", "id") on delete set null
        ("invited_by_id");`,
    );
    this.addSql(
      `alter table "table_layout" drop constraint "table_layout_user_id_foreign", add constraint "table_layout_user_id_foreign" foreign
        key ("organization_id", "user_id") references "app_user" ("organization_id", "id") on delete cascade;`,
    );
    this.addSql(
      `alter table "field_definition" drop constraint "field_definition_created_by_id_foreign", add constraint
        "field_definition_created_by_id_foreign" foreign key ("organization_id", "created_by_id") references "app_user"
        ("organization_id", "id") on delete set null ("created_by_id");`,
    );
    this.addSql(
      `alter table "field_value" drop constraint "field_value_field_id_foreign", add constraint "field_value_field_id_foreign" foreign
        key ("organization_id", "field_id") references "field_definition" ("organization_id", "id") on delete cascade;`,
    );
    this.addSql(
      `alter table "contact" drop constraint "contact_created_by_id_foreign", add constraint "contact_created_by_id_foreign" foreign key
        ("organization_id", "created_by_id") references "app_user" ("organization_id", "id") on delete set null ("created_by_id");`,
    );
    this.addSql(
      `alter table "contact" drop constraint "contact_owner_id_foreign", add constraint "contact_owner_id_foreign" foreign key
        ("organization_id", "owner_id") references "app_user" ("organization_id", "id") on delete set null ("owner_id");`,
    );
    this.addSql(
      `alter table "company" drop constraint "company_created_by_id_foreign", add constraint "company_created_by_id_foreign" foreign key
        ("organization_id", "created_by_id") references "app_user" ("organization_id", "id") on delete set null ("created_by_id");`,
    );
    this.addSql(
      `alter table "company" drop constraint "company_owner_id_foreign", add constraint "company_owner_id_foreign" foreign key
        ("organization_id", "owner_id") references "app_user" ("organization_id", "id") on delete set null ("owner_id");`,
    );
    this.addSql(
      `alter table "company_contact" drop constraint "company_contact_company_id_foreign", add constraint
        "company_contact_company_id_foreign" foreign key ("organization_id", "company_id") references "company" ("organization_id",
        "id") on delete cascade;`,
    );
    this.addSql(
      `alter table "company_contact" drop constraint "company_contact_contact_id_foreign", add constraint
        "company_contact_contact_id_foreign" foreign key ("organization_id", "contact_id") references "contact" ("organization_id",
        "id") on delete cascade;`,
    );
    this.addSql(
      `alter table "notification" drop constraint "notification_user_id_foreign", add constraint "notification_user_id_foreign" foreign
        key ("organization_id", "user_id") references "app_user" ("organization_id", "id") on delete cascade;`,
    );
    this.addSql(
      `alter table "execution" drop constraint "execution_created_by_id_foreign", add constraint "execution_created_by_id_foreign"
        foreign key ("organization_id", "created_by_id") references "app_user" ("organization_id", "id") on delete set null
        ("created_by_id");`,
    );
    this.addSql(
      `alter table "activity" drop constraint "activity_company_id_foreign", add constraint "activity_company_id_foreign" foreign key
        ("organization_id", "company_id") references "company" ("organization_id", "id") on delete set null ("company_id");`,
    );
    this.addSql(
      `alter table "activity" drop constraint "activity_contact_id_foreign", add constraint "activity_contact_id_foreign" foreign key
        ("organization_id", "contact_id") references "contact" ("organization_id", "id") on delete set null ("contact_id");`,
    );
    this.addSql(
      `alter table "activity" drop constraint "activity_created_by_id_foreign", add constraint "activity_created_by_id_foreign" foreign
        key ("organization_id", "created_by_id") references "app_user" ("organization_id", "id") on delete set null ("created_by_id");`,
    );
    this.addSql(
      `alter table "integration" drop constraint "integration_created_by_id_foreign", add constraint "integration_created_by_id_foreign"
        foreign key ("organization_id", "created_by_id") references "app_user" ("organization_id", "id") on delete set null
        ("created_by_id");`,
    );
    this.addSql(
      `alter table "integration" drop constraint "integration_user_id_foreign", add constraint "integration_user_id_foreign" foreign key
        ("organization_id", "user_id") references "app_user" ("organization_id", "id") on delete cascade;`,
    );
    this.addSql(
      `alter table "enrichment" drop constraint "enrichment_created_by_id_foreign", add constraint "enrichment_created_by_id_foreign"
        foreign key ("organization_id", "created_by_id") references "app_user" ("organization_id", "id") on delete set null
        ("created_by_id");`,
    );
    this.addSql(
      `alter table "enrichment" drop constraint "enrichment_field_id_foreign", add constraint "enrichment_field_id_foreign" foreign key
        ("organization_id", "field_id") references "field_definition" ("organization_id", "id") on delete set null ("field_id");`,
    );
    this.addSql(
      `alter table "enrichment_result" drop constraint "enrichment_result_enrichment_id_foreign", add constraint
        "enrichment_result_enrichment_id_foreign" foreign key ("organization_id", "enrichment_id") references "enrichment"
        ("organization_id", "id") on delete cascade;`,
    );
    // Indexes and uniques lead with organization_id.
    this.addSql(`drop index "session_user_id_index";`);
    this.addSql(`create index "session_organization_id_user_id_index" on "session" ("organization_id", "user_id");`);
    this.addSql(`drop index "password_reset_user_id_index";`);
    this.addSql(`create index "password_reset_organization_id_user_id_index" on "password_reset" ("organization_id", "user_id");`);
    this.addSql(`drop index "invitation_invited_by_id_index";`);
    this.addSql(`create index "invitation_organization_id_invited_by_id_index" on "invitation" ("organization_id", "invited_by_id");`);
    this.addSql(`drop index "table_layout_user_id_index";`);
    this.addSql(`create index "table_layout_organization_id_user_id_index" on "table_layout" ("organization_id", "user_id");`);
    this.addSql(`drop index "field_definition_created_by_id_index";`);
    this.addSql(
      `create index "field_definition_organization_id_created_by_id_index" on "field_definition" ("organization_id", "created_by_id");`,
    );
    this.addSql(`drop index "field_value_entity_id_index";`);
    this.addSql(`create index "field_value_organization_id_entity_id_index" on "field_value" ("organization_id", "entity_id");`);
    this.addSql(`drop index "company_contact_contact_id_index";`);
    this.addSql(`create index "company_contact_organization_id_contact_id_index" on "company_contact" ("organization_id", "contact_id");`);
    this.addSql(`alter table "field_value" drop constraint "field_value_field_id_entity_id_unique";`);
    this.addSql(
      `alter table "field_value" add constraint "field_value_organization_id_field_id_entity_id_unique" unique ("organization_id", "field_id", "entity_id");`,
    );
    this.addSql(`alter table "company_contact" drop constraint "company_contact_company_id_contact_id_unique";`);
    this.addSql(
      `alter table "company_contact" add constraint "company_contact_organization_id_company_id_contact_id_unique" unique
        ("organization_id", "company_id", "contact_id");`,
    );
    this.addSql(`alter table "enrichment_result" drop constraint "enrichment_result_enrichment_entity_unique";`);
    this.addSql(
      `alter table "enrichment_result" add constraint "enrichment_result_enrichment_entity_unique" unique ("organization_id", "enrichment_id", "entity_id");`,
    );
    this.addSql(`drop index "company_contact_one_key";`);
    this.addSql(`create unique index "company_contact_one_key" on "company_contact" ("organization_id", "company_id") where "is_key";`);
    this.addSql(`drop index "company_contact_one_primary";`);
    this.addSql(
      `create unique index "company_contact_one_primary" on "company_contact" ("organization_id", "contact_id") where "is_primary";`,
    );
    // Served by notification_org_user_created_index, company_org_owner_index and contact_org_owner_index (organization first).
    this.addSql(`drop index "notification_user_id_index";`);
    this.addSql(`drop index "company_owner_id_index";`);
    this.addSql(`drop index "contact_owner_id_index";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create index "contact_owner_id_index" on "contact" ("owner_id");`);
    this.addSql(`create index "company_owner_id_index" on "company" ("owner_id");`);
    this.addSql(`create index "notification_user_id_index" on "notification" ("user_id");`);
    this.addSql(`drop index "company_contact_one_primary";`);
    this.addSql(`create unique index "company_contact_one_primary" on "company_contact" ("contact_id") where "is_primary";`);
    this.addSql(`drop index "company_contact_one_key";`);
    this.addSql(`create unique index "company_contact_one_key" on "company_contact" ("company_id") where "is_key";`);
    this.addSql(`alter table "enrichment_result" drop constraint "enrichment_result_enrichment_entity_unique";`);
    this.addSql(
      `alter table "enrichment_result" add constraint "enrichment_result_enrichment_entity_unique" unique ("enrichment_id", "entity_id");`,
    );
    this.addSql(`alter table "company_contact" drop constraint "company_contact_organization_id_company_id_contact_id_unique";`);
    this.addSql(
      `alter table "company_contact" add constraint "company_contact_company_id_contact_id_unique" unique ("company_id", "contact_id");`,
    );
    this.addSql(`alter table "field_value" drop constraint "field_value_organization_id_field_id_entity_id_unique";`);
    this.addSql(`alter table "field_value" add constraint "field_value_field_id_entity_id_unique" unique ("field_id", "entity_id");`);
    this.addSql(`drop index "session_organization_id_user_id_index";`);
    this.addSql(`create index "session_user_id_index" on "session" ("user_id");`);
    this.addSql(`drop index "password_reset_organization_id_user_id_index";`);
    this.addSql(`create index "password_reset_user_id_index" on "password_reset" ("user_id");`);
    this.addSql(`drop index "invitation_organization_id_invited_by_id_index";`);
    this.addSql(`create index "invitation_invited_by_id_index" on "invitation" ("invited_by_id");`);
    this.addSql(`drop index "table_layout_organization_id_user_id_index";`);
    this.addSql(`create index "table_layout_user_id_index" on "table_layout" ("user_id");`);
    this.addSql(`drop index "field_definition_organization_id_created_by_id_index";`);
    this.addSql(`create index "field_definition_created_by_id_index" on "field_definition" ("created_by_id");`);
    this.addSql(`drop index "field_value_organization_id_entity_id_index";`);
    this.addSql(`create index "field_value_entity_id_index" on "field_value" ("entity_id");`);
    this.addSql(`drop index "company_contact_organization_id_contact_id_index";`);
    this.addSql(`create index "company_contact_contact_id_index" on "company_contact" ("contact_id");`);
    this.addSql(
      `alter table "session" drop constraint "session_user_id_foreign", add constraint "session_user_id_foreign" foreign key ("user_id")
        references "app_user" ("id");`,
    );
    this.addSql(
      `alter table "password_reset" drop constraint "password_reset_user_id_foreign", add constraint "password_reset_user_id_foreign"
        foreign key ("user_id") references "app_user" ("id");`,
    );
    this.addSql(
      `alter table "invitation" drop constraint "invitation_invited_by_id_foreign", add constraint "invitation_invited_by_id_foreign"
        foreign key ("invited_by_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "table_layout" drop constraint "table_layout_user_id_foreign", add constraint "table_layout_user_id_foreign" foreign
        key ("user_id") references "app_user" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "field_definition" drop constraint "field_definition_created_by_id_foreign", add constraint
        "field_definition_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "field_value" drop constraint "field_value_field_id_foreign", add constraint "field_value_field_id_foreign" foreign
        key ("field_id") references "field_definition" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "contact" drop constraint "contact_created_by_id_foreign", add constraint "contact_created_by_id_foreign" foreign key
        ("created_by_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "contact" drop constraint "contact_owner_id_foreign", add constraint "contact_owner_id_foreign" foreign key
        ("owner_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "company" drop constraint "company_created_by_id_foreign", add constraint "company_created_by_id_foreign" foreign key
        ("created_by_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "company" drop constraint "company_owner_id_foreign", add constraint "company_owner_id_foreign" foreign key
        ("owner_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "company_contact" drop constraint "company_contact_company_id_foreign", add constraint
        "company_contact_company_id_foreign" foreign key ("company_id") references "company" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "company_contact" drop constraint "company_contact_contact_id_foreign", add constraint
        "company_contact_contact_id_foreign" foreign key ("contact_id") references "contact" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "notification" drop constraint "notification_user_id_foreign", add constraint "notification_user_id_foreign" foreign
        key ("user_id") references "app_user" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "execution" drop constraint "execution_created_by_id_foreign", add constraint "execution_created_by_id_foreign"
        foreign key ("created_by_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "activity" drop constraint "activity_company_id_foreign", add constraint "activity_company_id_foreign" foreign key
        ("company_id") references "company" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "activity" drop constraint "activity_contact_id_foreign", add constraint "activity_contact_id_foreign" foreign key
        ("contact_id") references "contact" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "activity" drop constraint "activity_created_by_id_foreign", add constraint "activity_created_by_id_foreign" foreign
        key ("created_by_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "integration" drop constraint "integration_created_by_id_foreign", add constraint "integration_created_by_id_foreign"
        foreign key ("created_by_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "integration" drop constraint "integration_user_id_foreign", add constraint "integration_user_id_foreign" foreign key
        ("user_id") references "app_user" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "enrichment" drop constraint "enrichment_created_by_id_foreign", add constraint "enrichment_created_by_id_foreign"
        foreign key ("created_by_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "enrichment" drop constraint "enrichment_field_id_foreign", add constraint "enrichment_field_id_foreign" foreign key
        ("field_id") references "field_definition" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "enrichment_result" drop constraint "enrichment_result_enrichment_id_foreign", add constraint
        "enrichment_result_enrichment_id_foreign" foreign key ("enrichment_id") references "enrichment" ("id") on delete cascade;`,
    );
    this.addSql(`alter table "app_user" drop constraint "app_user_organization_id_id_unique";`);
    this.addSql(`alter table "company" drop constraint "company_organization_id_id_unique";`);
    this.addSql(`alter table "contact" drop constraint "contact_organization_id_id_unique";`);
    this.addSql(`alter table "field_definition" drop constraint "field_definition_organization_id_id_unique";`);
    this.addSql(`alter table "enrichment" drop constraint "enrichment_organization_id_id_unique";`);
  }
}
