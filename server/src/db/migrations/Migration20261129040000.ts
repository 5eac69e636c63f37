import { Migration } from '@mikro-orm/migrations';

// A run: the executions started together over many rows (an enrichment or a play over a
// selection, a whole list…). Its row keeps how many rows it took and whether it was cancelled; its
// executions point at it (execution.run_id), and its progress (done / failed / cancelled of total)
// is counted from them.
export class Migration20261129040000 extends Migration {
  override up(): void | Promise<void> {
    this.addSql(
      `create table "execution_run" ("id" uuid not null, "organization_id" uuid not null, "type" varchar(20) not null, "type_id" uuid
        null, "entity_type" varchar(20) not null, "total" int not null default 0, "status" varchar(20) not null, "created_by_id" uuid
        null, "created_at" timestamptz not null, "cancelled_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "execution_run_org_user_created_index" on "execution_run" ("organization_id", "created_by_id", "created_at");`,
    );
    this.addSql(
      `alter table "execution_run" add constraint "execution_run_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(`alter table "execution" add column "run_id" uuid null;`);
    this.addSql(`create index "execution_org_run_index" on "execution" ("organization_id", "run_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "execution_org_run_index";`);
    this.addSql(`alter table "execution" drop column if exists "run_id";`);
    this.addSql(`drop table if exists "execution_run" cascade;`);
  }
}
