import { Migration } from '@mikro-orm/migrations';

// idea_score written for less again (a score run writes a row per idea: docs/benchmarks.md 'Scoring'):
// - No foreign key to scoring_model: its check ran a query per written row (RI_FKey_check, about a tenth of a run's
//   backend CPU). What it guaranteed holds as the idea's reference does since Migration20261130060000. A result is
//   written only by a statement that reads its model within the same organization and list (sql-score.ts,
//   scoring.service.ts writeScores), under the shared advisory lock of that list (SCORE_LIST_LOCK); deleting models,
//   through any path (a list's cascade too), runs the statement trigger idea_score_cascade on scoring_model, which
//   takes each of their lists' lock exclusively — waiting for the writers in flight to commit — and then deletes the
//   models' results. A writer that starts later takes its lock after the delete commits and no longer finds the model.
//   The organization of a result is proven by the pair (tenancy.test.ts, hand-written.ts HAND_WRITTEN_TRIGGER_REFERENCES).
// - The id column is no longer written (left null): nothing looked a result up by it; the API's result id is derived
//   from (model, idea) when read (lists.service.ts), as stable as the stored one was (a run replaces a result in
//   place). Saves gen_random_uuid() and 16 bytes per row. Nullable here and dropped by a later release: the previous
//   release still writes and reads it (a result this release wrote shows it a null id).
// - One index: the primary key (organization_id, idea_id, model_id) serves the run's conflict, the score sort's lookup
//   (all three columns), an idea's results and the idea trigger (its prefix); the (organization_id, idea_id) index goes.
//   A model's delete reads the organization's results (no index leads with the model; a model is deleted rarely).
// The previous release keeps working on this schema: its writers name the id and conflict on the same three columns
// (any order), its readers look results up by (organization, model, idea) or (organization, idea). Its writers take
// the lock but do not read the model: a model deleted while one of them writes may leave results of no model, which
// only the ideas' DTO would list (the list page shows a result under its model) until the down step or a re-delete.
export class Migration20261130090000 extends Migration {
  override name = 'Migration20261130090000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "idea_score" drop constraint "idea_score_model_id_foreign";`);
    this.addSql(`alter table "idea_score" alter column "id" drop not null;`);
    this.addSql(`alter table "idea_score" drop constraint "idea_score_pkey";`);
    this.addSql(`alter table "idea_score" add constraint "idea_score_pkey" primary key ("organization_id", "idea_id", "model_id");`);
    this.addSql(`drop index "idea_score_org_idea_index";`);
    // The function name follows MikroORM's trigger convention ({table}_{trigger}_fn); the lock key is SCORE_LIST_LOCK's.
    this.addSql(
      `create or replace function "scoring_model_idea_score_cascade_fn"() returns trigger language plpgsql set jit = off as $$
        begin
          perform pg_advisory_xact_lock(hashtextextended('idea-score:' || l.list_id::text, 0)) from (select distinct list_id from old_rows order by 1) l;
          delete from idea_score s using old_rows m where s.organization_id = m.organization_id and s.model_id = m.id;
          return null;
        end $$;`,
    );
    this.addSql(
      `create trigger "idea_score_cascade" after delete on "scoring_model" referencing old table as old_rows for each statement
        execute function "scoring_model_idea_score_cascade_fn"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "idea_score_cascade" on "scoring_model";`);
    this.addSql(`drop function if exists "scoring_model_idea_score_cascade_fn"();`);
    this.addSql(
      `delete from "idea_score" s where not exists (select 1 from "scoring_model" m where m.organization_id = s.organization_id and m.id = s.model_id);`,
    );
    this.addSql(`create index "idea_score_org_idea_index" on "idea_score" ("organization_id", "idea_id");`);
    this.addSql(`alter table "idea_score" drop constraint "idea_score_pkey";`);
    this.addSql(`alter table "idea_score" add constraint "idea_score_pkey" primary key ("organization_id", "model_id", "idea_id");`);
    this.addSql(`update "idea_score" set "id" = gen_random_uuid() where "id" is null;`);
    this.addSql(`alter table "idea_score" alter column "id" set not null;`);
    this.addSql(
      `alter table "idea_score" add constraint "idea_score_model_id_foreign" foreign key ("organization_id", "model_id") references
        "scoring_model" ("organization_id", "id") on delete cascade;`,
    );
  }
}
