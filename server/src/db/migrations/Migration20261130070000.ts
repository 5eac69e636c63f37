import { Migration } from '@mikro-orm/migrations';

// idea_score.details as json instead of jsonb: a score run writes each breakdown as JSON text
// (sql-score.ts) and stores that text as it is (checked, not parsed), where a jsonb column parsed it and converted every
// number again — about a tenth of a run's backend CPU (docs/benchmarks.md 'Scoring') — and the rows are
// smaller. Nothing queries inside a breakdown: readers take it whole (lists.service.ts, export-scores.ts).
// Rewrites the table.
// Second step: nothing the previous release must stop first — its writers send jsonb, which PostgreSQL's assignment cast
// (jsonb → json) stores in the json column, and its readers take json and jsonb alike (node-pg parses both).
export class Migration20261130070000 extends Migration {
  override name = 'Migration20261130070000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "idea_score" alter column "details" type json using "details"::json;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "idea_score" alter column "details" type jsonb using "details"::jsonb;`);
  }
}
