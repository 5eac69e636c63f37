import { Migration } from '@mikro-orm/migrations';

// An email's activity is found by (organization, source 'email', source_id = the email): every send
// records its outcome on it, Cancel Send & Edit removes it, the reply follower marks it replied. No
// index served that lookup, so each was a scan of the organization's activities — the record of a
// group of sends spent ~175 ms in it with 2,000 activities (docs/benchmarks.md 'Sending email').
export class Migration20261128120000 extends Migration {
  override up(): void | Promise<void> {
    this.addSql(`create index "activity_org_source_index" on "activity" ("organization_id", "source", "source_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "activity_org_source_index";`);
  }
}
