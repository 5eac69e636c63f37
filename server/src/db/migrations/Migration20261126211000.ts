import { Migration } from '@mikro-orm/migrations';

// The rejected rows of list uploads: the downloadable report, per source.
export class Migration20261126211000 extends Migration {
  override name = 'Migration20261126211000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "list_source_rejection" ("id" bigserial primary key, "organization_id" uuid not null, "source_id" uuid not null,
        "line" int not null, "reason" text not null, "name" text null, "website" text null);`,
    );
    this.addSql(
      `create index "list_source_rejection_org_source_index" on "list_source_rejection" ("organization_id", "source_id", "line");`,
    );
    this.addSql(
      `alter table "list_source_rejection" add constraint "list_source_rejection_organization_id_foreign" foreign key
        ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "list_source_rejection" add constraint "list_source_rejection_source_id_foreign" foreign key ("organization_id",
        "source_id") references "list_source" ("organization_id", "id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "list_source_rejection" cascade;`);
  }
}
