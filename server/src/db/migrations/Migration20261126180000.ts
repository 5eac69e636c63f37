import { Migration } from '@mikro-orm/migrations';

// Sending email from the user's Office 365 mailbox: the outbox, one row per send of a
// channel email (docs/ARCHITECTURE.md 'Sending email'). At most one active send per email.
export class Migration20261126180000 extends Migration {
  override name = 'Migration20261126180000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "email_outbox" ("id" uuid not null, "organization_id" uuid not null, "channel_email_id" uuid not null, "owner_id"
        uuid not null, "state" varchar(20) not null, "send_after" timestamptz not null, "requested_at" timestamptz null, "attempt" int
        not null default 0, "lease_until" timestamptz null, "claimed_at" timestamptz null, "graph_message_id" text null,
        "send_attempted_at" timestamptz null, "sent_at" timestamptz null, "recipients" int not null default 1, "error" text null,
        "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "email_outbox_org_email_index" on "email_outbox" ("organization_id", "channel_email_id");`);
    this.addSql(
      `create index "email_outbox_org_owner_state_index" on "email_outbox" ("organization_id", "owner_id", "state", "claimed_at");`,
    );
    this.addSql(
      `create unique index "email_outbox_org_email_active_unique" on "email_outbox" ("organization_id", "channel_email_id") where state
        in ('queued', 'sending');`,
    );
    this.addSql(
      `alter table "email_outbox" add constraint "email_outbox_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "email_outbox" cascade;`);
  }
}
