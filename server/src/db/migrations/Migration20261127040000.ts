import { Migration } from '@mikro-orm/migrations';

// Lists of ideas at a million rows (docs/benchmarks.md 'Lists of ideas'):
// - No trigram GIN index on idea.search_text. It was most of the cost of a large import (every idea
//   adds ~30 trigram entries) and of every non-HOT idea update; the ideas table's search now walks
//   the list's own paging index and tests search_text on the rows (lists.service.ts ideaPage).
// - No partial index `where short_listed`: a column in an index predicate makes every shortlist
//   update non-HOT (a new entry in every index of the row). With short_listed in no index and
//   free room on each page (fillfactor 60), shortlisting is a HOT update: the heap row only.
export class Migration20261127040000 extends Migration {
  override name = 'Migration20261127040000';

  override up(): void | Promise<void> {
    this.addSql(`drop index if exists "idea_search_trgm";`);
    this.addSql(`drop index if exists "idea_org_list_shortlisted_index";`);
    this.addSql(`alter table "idea" set (fillfactor = 60);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "idea" reset (fillfactor);`);
    this.addSql(
      `create index "idea_org_list_shortlisted_index" on "idea" ("organization_id", "list_id", "created_at", "id") where "short_listed";`,
    );
    this.addSql(`create index "idea_search_trgm" on "idea" using gin ("search_text" gin_trgm_ops);`);
  }
}
