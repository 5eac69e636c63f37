import { Migration } from '@mikro-orm/migrations';

// Replies: the outbox learns each sent message's conversation, when it was answered and
// which received message a reply answers (Graph's createReply); the activity carries repliedAt;
// mailbox_sync keeps each connected mailbox's Inbox delta query state (nextLink mid-round, else the
// deltaLink of the next round).
export class Migration20261127020000 extends Migration {
  override name = 'Migration20261127020000';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "email_outbox" add column "conversation_id" text null, add column "replied_at" timestamptz null, add column
        "reply_to_message_id" text null;`,
    );
    this.addSql(
      `create index "email_outbox_org_owner_conversation_index" on "email_outbox" ("organization_id", "owner_id", "conversation_id");`,
    );
    this.addSql(`alter table "activity" add column "replied_at" timestamptz null;`);
    this.addSql(
      `create table "mailbox_sync" ("id" uuid not null, "organization_id" uuid not null, "integration_id" uuid not null, "owner_id" uuid
        not null, "next_link" text null, "delta_link" text null, "round_started_at" timestamptz null, "synced_at" timestamptz null,
        "replies" int not null default 0, "error" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
        primary key ("id"));`,
    );
    this.addSql(`create unique index "mailbox_sync_org_integration_unique" on "mailbox_sync" ("organization_id", "integration_id");`);
    this.addSql(
      `alter table "mailbox_sync" add constraint "mailbox_sync_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "mailbox_sync" cascade;`);
    this.addSql(`alter table "activity" drop column if exists "replied_at";`);
    this.addSql(`drop index if exists "email_outbox_org_owner_conversation_index";`);
    this.addSql(
      `alter table "email_outbox" drop column if exists "conversation_id", drop column if exists "replied_at", drop column if exists "reply_to_message_id";`,
    );
  }
}
