import { Migration } from '@mikro-orm/migrations';

// The tables of the side panel (crm_link) and of plays (play, play_draft, channel_email) were
// written beside Migration20261125230500: their references to other tenant tables now carry the
// organization too, and crm_link's lookup indexes lead with it (server/test/tenancy.test.ts).
export class Migration20261126000000 extends Migration {
  override name = 'Migration20261126000000';

  override up(): void | Promise<void> {
    const fk = (table: string, column: string, target: string, onDelete: string) =>
      this.addSql(
        `alter table "${table}" drop constraint "${table}_${column}_foreign", add constraint "${table}_${column}_foreign" foreign key
          ("organization_id", "${column}") references "${target}" ("organization_id", "id") on delete ${onDelete};`,
      );
    fk('crm_link', 'company_id', 'company', 'cascade');
    fk('crm_link', 'contact_id', 'contact', 'cascade');
    fk('play_draft', 'user_id', 'app_user', 'cascade');
    fk('play', 'created_by_id', 'app_user', 'set null ("created_by_id")');
    fk('channel_email', 'owner_id', 'app_user', 'cascade');
    this.addSql(`drop index if exists "crm_link_company_id_index";`);
    this.addSql(`drop index if exists "crm_link_contact_id_index";`);
    this.addSql(`create index "crm_link_organization_id_company_id_index" on "crm_link" ("organization_id", "company_id");`);
    this.addSql(`create index "crm_link_organization_id_contact_id_index" on "crm_link" ("organization_id", "contact_id");`);
  }

  override down(): void | Promise<void> {
    const fk = (table: string, column: string, target: string, onDelete: string) =>
      this.addSql(
        `alter table "${table}" drop constraint "${table}_${column}_foreign", add constraint "${table}_${column}_foreign" foreign key
          ("${column}") references "${target}" ("id") on delete ${onDelete};`,
      );
    fk('crm_link', 'company_id', 'company', 'cascade');
    fk('crm_link', 'contact_id', 'contact', 'cascade');
    fk('play_draft', 'user_id', 'app_user', 'cascade');
    fk('play', 'created_by_id', 'app_user', 'set null');
    fk('channel_email', 'owner_id', 'app_user', 'cascade');
    this.addSql(`drop index if exists "crm_link_organization_id_company_id_index";`);
    this.addSql(`drop index if exists "crm_link_organization_id_contact_id_index";`);
    this.addSql(`create index "crm_link_company_id_index" on "crm_link" ("company_id");`);
    this.addSql(`create index "crm_link_contact_id_index" on "crm_link" ("contact_id");`);
  }
}
