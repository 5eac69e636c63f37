import { Migration } from '@mikro-orm/migrations';

// A draft written as a reply to a received message: it keeps the reply's subject ('Re: …', set when
// the draft is made; a play writes its body only) and the message it answers (its Graph id), so
// sending it from any client goes through Graph's createReply, in the thread.
export class Migration20261129020000 extends Migration {
  override up(): void | Promise<void> {
    this.addSql(
      `alter table "channel_email" add column "is_reply" boolean not null default false, add column "reply_to_message_id" text null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "channel_email" drop column if exists "reply_to_message_id", drop column if exists "is_reply";`);
  }
}
