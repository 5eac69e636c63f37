import { Migration } from '@mikro-orm/migrations';

// Two indexes of idea that every uploaded idea wrote an entry into without need (a CSV upload of a
// million rows wrote six index entries per idea; docs/benchmarks.md 'Lists of ideas'):
// - idea_organization_id_id_unique (organization_id, id) repeated the primary key (id,
//   organization_id). The one foreign key that pointed at it (idea_score → idea (organization_id,
//   id)) is written again and now uses the primary key: a foreign key needs a unique index on its
//   columns in any order. No statement names the unique or conflicts on it.
// - idea_org_company_index (organization_id, company_id) held an entry for every idea, though an
//   idea has a company only once the list is completed: it becomes partial (company_id is not null).
//   It serves the same lookups — an idea of a company (company_id = …, which implies not null) and
//   the ON DELETE SET NULL of idea_company_id_foreign when a company is deleted.
// Both are safe while the previous release still runs (it names neither index).
export class Migration20261129150000 extends Migration {
  override up(): void | Promise<void> {
    this.addSql(`alter table "idea_score" drop constraint "idea_score_idea_id_foreign";`);
    this.addSql(`alter table "idea" drop constraint "idea_organization_id_id_unique";`);
    this.addSql(
      `alter table "idea_score" add constraint "idea_score_idea_id_foreign" foreign key ("organization_id", "idea_id") references "idea"
        ("organization_id", "id") on delete cascade;`,
    );
    this.addSql(`create index "idea_org_company_linked_index" on "idea" ("organization_id", "company_id") where "company_id" is not null;`);
    this.addSql(`drop index "idea_org_company_index";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create index "idea_org_company_index" on "idea" ("organization_id", "company_id");`);
    this.addSql(`drop index "idea_org_company_linked_index";`);
    this.addSql(`alter table "idea_score" drop constraint "idea_score_idea_id_foreign";`);
    this.addSql(`alter table "idea" add constraint "idea_organization_id_id_unique" unique ("organization_id", "id");`);
    this.addSql(
      `alter table "idea_score" add constraint "idea_score_idea_id_foreign" foreign key ("organization_id", "idea_id") references "idea"
        ("organization_id", "id") on delete cascade;`,
    );
  }
}
