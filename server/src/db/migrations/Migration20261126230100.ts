import { Migration } from '@mikro-orm/migrations';

// A user's email signature (profile → Email settings).
export class Migration20261126230100 extends Migration {
  override name = 'Migration20261126230100';

  override up(): void | Promise<void> {
    this.addSql(`alter table "app_user" add column "email_signature" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "app_user" drop column "email_signature";`);
  }
}
