import { Migration } from '@mikro-orm/migrations';

// Send pacing (modules/email/send/slots.ts): each outbox row holds its mailbox's send
// slot, handed out at schedule time under the mailbox's lock; no two rows of one mailbox that are
// waiting, leaving or sent share a slot. Rows from before keep no slot (their claim time counts).
export class Migration20261127100000 extends Migration {
  override name = 'Migration20261127100000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "email_outbox" add column "slot_at" timestamptz null;`);
    this.addSql(
      `create unique index "email_outbox_org_owner_slot_unique" on "email_outbox" ("organization_id", "owner_id", "slot_at") where
        slot_at is not null and state in ('queued', 'sending', 'sent');`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "email_outbox_org_owner_slot_unique";`);
    this.addSql(`alter table "email_outbox" drop column if exists "slot_at";`);
  }
}
