import { Migration } from '@mikro-orm/migrations';

// Scoring models of a list and the scope of each score run (spec 002 §3 'Scoring model').
// References carry the organization (server/test/tenancy.test.ts).
export class Migration20261126220000 extends Migration {
  override name = 'Migration20261126220000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "scoring_model" ("id" uuid not null, "organization_id" uuid not null, "list_id" uuid not null, "name" varchar(255)
        not null, "description" text not null default '', "rule_sets" jsonb not null, "created_by_id" uuid null, "created_at"
        timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "scoring_model_org_list_index" on "scoring_model" ("organization_id", "list_id");`);
    this.addSql(`alter table "scoring_model" add constraint "scoring_model_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(
      `alter table "scoring_model" add constraint "scoring_model_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "scoring_model" add constraint "scoring_model_list_id_foreign" foreign key ("organization_id", "list_id") references
        "list_company" ("organization_id", "id") on delete cascade;`,
    );
    this.addSql(
      `alter table "scoring_model" add constraint "scoring_model_created_by_id_foreign" foreign key ("organization_id", "created_by_id")
        references "app_user" ("organization_id", "id") on delete set null ("created_by_id");`,
    );

    this.addSql(
      `create table "score_run" ("id" uuid not null, "organization_id" uuid not null, "model_id" uuid not null, "list_id" uuid not null,
        "idea_ids" text[] null, "filters" jsonb null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "score_run" add constraint "score_run_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(
      `alter table "score_run" add constraint "score_run_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "score_run" add constraint "score_run_model_id_foreign" foreign key ("organization_id", "model_id") references
        "scoring_model" ("organization_id", "id") on delete cascade;`,
    );
    this.addSql(
      `alter table "score_run" add constraint "score_run_list_id_foreign" foreign key ("organization_id", "list_id") references
        "list_company" ("organization_id", "id") on delete cascade;`,
    );

    // An idea's results live in idea_score (one row per idea and model), not in a JSON column of the idea.
    this.addSql(`alter table "idea" drop column "scoring_results";`);
    this.addSql(
      `create table "idea_score" ("id" uuid not null, "organization_id" uuid not null, "model_id" uuid not null, "idea_id" uuid not
        null, "execution_id" uuid null, "status" varchar(20) not null default 'completed', "status_message" text null, "total_score"
        double precision null, "details" jsonb not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "idea_score_org_idea_index" on "idea_score" ("organization_id", "idea_id");`);
    this.addSql(`alter table "idea_score" add constraint "idea_score_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(
      `alter table "idea_score" add constraint "idea_score_org_model_idea_unique" unique ("organization_id", "model_id", "idea_id");`,
    );
    this.addSql(
      `alter table "idea_score" add constraint "idea_score_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "idea_score" add constraint "idea_score_model_id_foreign" foreign key ("organization_id", "model_id") references
        "scoring_model" ("organization_id", "id") on delete cascade;`,
    );
    this.addSql(
      `alter table "idea_score" add constraint "idea_score_idea_id_foreign" foreign key ("organization_id", "idea_id") references "idea"
        ("organization_id", "id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "idea_score" cascade;`);
    this.addSql(`alter table "idea" add column "scoring_results" jsonb not null default '[]';`);
    this.addSql(`drop table if exists "score_run" cascade;`);
    this.addSql(`drop table if exists "scoring_model" cascade;`);
  }
}
