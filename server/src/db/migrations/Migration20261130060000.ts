import { Migration } from '@mikro-orm/migrations';

// idea_score written for less (a score run writes a row per idea: docs/benchmarks.md 'Scoring'):
// - The primary key is (organization_id, model_id, idea_id), the key a run conflicts on, the score
//   sort reads and a model's cascade deletes by. It replaces the unique on those columns, the primary
//   key (id, organization_id) and the unique (organization_id, id): two indexes of a random uuid that
//   took an entry in a random page per scored idea, though nothing looks a result up by its id (the
//   API still shows it). The (organization_id, idea_id) index stays: an idea's results and the trigger below.
// - No foreign key to idea: its check cost a lookup and a row lock (FOR KEY SHARE, a write to the
//   idea's page) per scored idea, about 18 µs of the 65 µs a run spent per idea. What it guaranteed
//   holds as follows. A result is written only by a statement that read its idea within the same
//   organization (sql-score.ts), under the shared advisory lock of the idea's list (SCORE_LIST_LOCK);
//   deleting ideas, through any path (a list's cascade too), runs the statement trigger
//   idea_score_cascade, which takes each of their lists' lock exclusively — waiting for the writers in
//   flight to commit — and then deletes the ideas' results. A writer that starts later takes its lock
//   after the delete commits and reads the ideas without the deleted ones. The key to scoring_model
//   (organization_id, model_id) stays: it proves the organization and deletes a model's results.
// The previous release's writers take no lock: a delete racing one of them may leave a result that no
// reader reaches (readers start from the organization's ideas).
export class Migration20261130060000 extends Migration {
  override name = 'Migration20261130060000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "idea_score" drop constraint "idea_score_idea_id_foreign";`);
    this.addSql(`alter table "idea_score" drop constraint "idea_score_organization_id_id_unique";`);
    this.addSql(`alter table "idea_score" drop constraint "idea_score_pkey";`);
    this.addSql(`alter table "idea_score" drop constraint "idea_score_org_model_idea_unique";`);
    this.addSql(`alter table "idea_score" add constraint "idea_score_pkey" primary key ("organization_id", "model_id", "idea_id");`);
    // Function names follow MikroORM's trigger convention ({table}_{trigger}_fn). PL/pgSQL keeps one plan
    // per connection, costed with the first call's rows (trigger-functions.test.ts): without hash or merge
    // joins, it is a lookup in (organization_id, idea_id) per deleted idea whatever the first call deleted,
    // never a scan of every organization's results.
    this.addSql(
      `create or replace function "idea_idea_score_cascade_fn"() returns trigger language plpgsql
        set jit = off set enable_hashjoin = off set enable_mergejoin = off set enable_seqscan = off as $$
        begin
          perform pg_advisory_xact_lock(hashtextextended('idea-score:' || l.list_id::text, 0)) from (select distinct list_id from old_rows order by 1) l;
          delete from idea_score s using old_rows o where s.organization_id = o.organization_id and s.idea_id = o.id;
          return null;
        end $$;`,
    );
    this.addSql(
      `create trigger "idea_score_cascade" after delete on "idea" referencing old table as old_rows for each statement
        execute function "idea_idea_score_cascade_fn"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "idea_score_cascade" on "idea";`);
    this.addSql(`drop function if exists "idea_idea_score_cascade_fn"();`);
    this.addSql(
      `delete from "idea_score" s where not exists (select 1 from "idea" i where i.organization_id = s.organization_id and i.id = s.idea_id);`,
    );
    this.addSql(`alter table "idea_score" drop constraint "idea_score_pkey";`);
    this.addSql(`alter table "idea_score" add constraint "idea_score_pkey" primary key ("id", "organization_id");`);
    this.addSql(`alter table "idea_score" add constraint "idea_score_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(
      `alter table "idea_score" add constraint "idea_score_org_model_idea_unique" unique ("organization_id", "model_id", "idea_id");`,
    );
    this.addSql(
      `alter table "idea_score" add constraint "idea_score_idea_id_foreign" foreign key ("organization_id", "idea_id") references "idea"
        ("organization_id", "id") on delete cascade;`,
    );
  }
}
