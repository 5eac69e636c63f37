import { Migration } from '@mikro-orm/migrations';

// Scoring: what a run's model brings to every entry of the breakdown (rule set id, label,
// field path, weight), written once per run; idea_score.details keeps only each idea's part
// (modules/scoring/breakdown.ts).
export class Migration20261127140000 extends Migration {
  override name = 'Migration20261127140000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "score_run" add column "fields" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "score_run" drop column "fields";`);
  }
}
