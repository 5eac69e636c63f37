import { Migration } from '@mikro-orm/migrations';

// Plays, the play editor's drafts and channel emails (drafts written by hand or by play
// executions). Every table carries organization_id (NOT NULL) and its indexes lead with
// it. A channel email is unique per (organization, execution): a retried play job updates its draft
// instead of adding a second. The plays provided by the product are created for every existing
// organization (new ones get them in bootstrap.ts).
// The provided plays as they were when this migration was written (server/src/modules/plays/provided.ts).
const PROVIDED_PLAYS_AT_MIGRATION = [
  {
    key: 'founder-first-note',
    name: 'First note to a founder or owner',
    description: 'A short, personal first email to the founder or owner of a company we would like to acquire or partner with.',
    subject: '',
    instructions: [
      {
        type: 'text',
        text:
          'Write a short first email (under 120 words) to the founder or owner of the company. Show that we know what ' +
          'the company does, say in one sentence why we are interested in a conversation about a partnership or an ' +
          'acquisition, and ask for a 20-minute call. Warm and direct; no flattery, no buzzwords.',
      },
    ],
  },
  {
    key: 'follow-up',
    name: 'Follow-up after no reply',
    description: 'A polite follow-up to a first note that got no answer.',
    subject: '',
    instructions: [
      {
        type: 'text',
        text:
          'Write a brief follow-up (under 80 words) to an earlier note that got no reply. Restate the reason for ' +
          'reaching out in one line, add one new, specific reason the conversation could be worth their time, and make it ' +
          'easy to say no. Friendly, not pushy.',
      },
    ],
  },
  {
    key: 'meeting-request',
    name: 'Meeting request',
    description: 'Ask for a meeting with a clear agenda and two time options.',
    subject: '',
    instructions: [
      {
        type: 'text',
        text:
          'Write an email asking for a 30-minute meeting. Give a clear three-point agenda relevant to the company, ' +
          'suggest two time windows next week, and offer to adapt to their calendar. Under 120 words.',
      },
    ],
  },
  {
    key: 'after-event',
    name: 'Note after an event',
    description: 'A note after meeting someone at a conference or industry event.',
    subject: '',
    instructions: [
      {
        type: 'text',
        text:
          'Write a short note to someone we met at a recent industry event. Thank them for the conversation, recall one ' +
          'topic relevant to their company, and propose a next step (a call or a coffee). Under 100 words, personal and ' +
          'specific.',
      },
    ],
  },
];

export class Migration20261125231721 extends Migration {
  override name = 'Migration20261125231721';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "play_draft" ("id" uuid not null, "organization_id" uuid not null, "user_id" uuid not null, "provider" varchar(20)
        not null, "data" jsonb not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "play_draft" add constraint "play_draft_org_user_provider_unique" unique ("organization_id", "user_id", "provider");`,
    );

    this.addSql(
      `create table "play" ("id" uuid not null, "organization_id" uuid not null, "name" varchar(200) not null, "description" text not
        null default '', "instructions" jsonb not null, "subject" text not null default '', "subject_prompt" text not null default '',
        "play_type" varchar(20) not null, "llm_model_id" varchar(200) not null default 'default', "status" varchar(20) not null,
        "use_count" int not null default 0, "enrichments_included" jsonb not null, "is_provided_by_product" boolean not null default
        false, "product_key" varchar(64) null, "version" int not null default 1, "created_by_id" uuid null, "created_at" timestamptz not
        null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "play_org_created_index" on "play" ("organization_id", "created_at");`);
    this.addSql(`create index "play_org_status_index" on "play" ("organization_id", "status");`);
    this.addSql(`alter table "play" add constraint "play_org_product_key_unique" unique ("organization_id", "product_key");`);

    this.addSql(
      `create table "channel_email" ("id" uuid not null, "organization_id" uuid not null, "owner_id" uuid not null, "title" varchar(300)
        not null default '', "from_address" varchar(254) not null default '', "to_address" varchar(254) not null default '', "cc" jsonb
        not null, "subject" text not null default '', "body" text not null default '', "contact_id" uuid null, "company_id" uuid null,
        "play_id" uuid null, "play_name" varchar(200) null, "play_version" int null, "execution_id" uuid null, "is_ai_email_generated"
        boolean not null default false, "status" varchar(20) not null, "status_message" text null, "show_to_from_cc" boolean not null
        default false, "provenance" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key
        ("id"));`,
    );
    this.addSql(`create index "channel_email_org_owner_status_index" on "channel_email" ("organization_id", "owner_id", "status");`);
    this.addSql(
      `alter table "channel_email" add constraint "channel_email_org_execution_unique" unique ("organization_id", "execution_id");`,
    );

    this.addSql(
      `alter table "play_draft" add constraint "play_draft_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "play_draft" add constraint "play_draft_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "play" add constraint "play_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "play" add constraint "play_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "channel_email" add constraint "channel_email_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "channel_email" add constraint "channel_email_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`,
    );

    const plays = JSON.stringify(PROVIDED_PLAYS_AT_MIGRATION).replace(/'/g, "''");
    this.addSql(`insert into "play" ("id", "organization_id", "name", "description", "instructions", "subject", "subject_prompt",
        "play_type", "llm_model_id", "status", "use_count", "enrichments_included", "is_provided_by_product", "product_key", "version",
        "created_by_id", "created_at", "updated_at")
      select gen_random_uuid(), o.id, p->>'name', p->>'description', p->'instructions', p->>'subject', '', 'openai', 'default',
        'published', 0, '[]'::jsonb, true, p->>'key', 1, null, now(), now()
        from "organization" o, jsonb_array_elements('${plays}'::jsonb) as p;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "channel_email" cascade;`);
    this.addSql(`drop table if exists "play_draft" cascade;`);
    this.addSql(`drop table if exists "play" cascade;`);
  }
}
