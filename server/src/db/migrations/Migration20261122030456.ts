import { Migration } from '@mikro-orm/migrations';

export class Migration20261122030456 extends Migration {
  override name = 'Migration20261122030456';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "login_throttle" ("key" varchar(400) not null, "failures" int not null default 0, "window_start" timestamptz not
        null, primary key ("key"));`,
    );

    this.addSql(
      `create table "organization" ("id" uuid not null, "name" varchar(200) not null, "website" varchar(500) null, "status" varchar(20)
        not null default 'active', "type" varchar(40) null, "ai_summary" text null, "settings" jsonb not null default '{}',
        "membership_type" varchar(40) not null default 'standard', "max_user" int not null default 10, "started_at" timestamptz not
        null, "ends_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );

    this.addSql(
      `create table "system_mail" ("id" uuid not null, "organization_id" uuid not null, "to" varchar(320) not null, "subject"
        varchar(300) not null, "text" text not null, "kind" varchar(40) not null, "status" varchar(20) not null default 'stored',
        "error" text null, "created_at" timestamptz not null, "sent_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "system_mail_organization_id_index" on "system_mail" ("organization_id");`);

    this.addSql(
      `create table "app_user" ("id" uuid not null, "organization_id" uuid not null, "email" varchar(320) not null, "first_name"
        varchar(100) not null default '', "last_name" varchar(100) not null default '', "role" varchar(20) not null default 'User',
        "status" varchar(20) not null default 'active', "deleted" boolean not null default false, "invitation_accepted" boolean not null
        default true, "password_hash" varchar(300) null, "settings" jsonb not null default '{}', "calendar" jsonb not null default
        '{"meetingLength":30}', "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "app_user_organization_id_index" on "app_user" ("organization_id");`);
    this.addSql(`create index "app_user_email_index" on "app_user" ("email");`);
    this.addSql(`create unique index "app_user_email_live_unique" on "app_user" ("email") where "deleted" = false;`);

    this.addSql(
      `create table "session" ("id" uuid not null, "organization_id" uuid not null, "user_id" uuid not null, "kind" varchar(10) not
        null, "token_hash" varchar(64) not null, "csrf_token" varchar(64) null, "label" varchar(200) null, "user_agent" varchar(500)
        null, "ip" varchar(64) null, "created_at" timestamptz not null, "last_seen_at" timestamptz not null, "expires_at" timestamptz
        not null, "revoked_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "session_organization_id_index" on "session" ("organization_id");`);
    this.addSql(`create index "session_user_id_index" on "session" ("user_id");`);
    this.addSql(`alter table "session" add constraint "session_token_hash_unique" unique ("token_hash");`);

    this.addSql(
      `create table "password_reset" ("id" uuid not null, "organization_id" uuid not null, "user_id" uuid not null, "token_hash"
        varchar(64) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null, primary
        key ("id"));`,
    );
    this.addSql(`create index "password_reset_organization_id_index" on "password_reset" ("organization_id");`);
    this.addSql(`create index "password_reset_user_id_index" on "password_reset" ("user_id");`);
    this.addSql(`alter table "password_reset" add constraint "password_reset_token_hash_unique" unique ("token_hash");`);

    this.addSql(
      `create table "invitation" ("id" uuid not null, "organization_id" uuid not null, "email" varchar(320) not null, "role" varchar(20)
        not null, "token_hash" varchar(64) not null, "invited_by_id" uuid null, "status" varchar(20) not null default 'pending',
        "expires_at" timestamptz not null, "accepted_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "invitation_organization_id_index" on "invitation" ("organization_id");`);
    this.addSql(`alter table "invitation" add constraint "invitation_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "invitation_invited_by_id_index" on "invitation" ("invited_by_id");`);
    this.addSql(`create index "invitation_org_email_index" on "invitation" ("organization_id", "email") where "status" = 'pending';`);

    this.addSql(
      `alter table "system_mail" add constraint "system_mail_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );

    this.addSql(
      `alter table "app_user" add constraint "app_user_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );

    this.addSql(
      `alter table "session" add constraint "session_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(`alter table "session" add constraint "session_user_id_foreign" foreign key ("user_id") references "app_user" ("id");`);

    this.addSql(
      `alter table "password_reset" add constraint "password_reset_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "password_reset" add constraint "password_reset_user_id_foreign" foreign key ("user_id") references "app_user" ("id");`,
    );

    this.addSql(
      `alter table "invitation" add constraint "invitation_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "invitation" add constraint "invitation_invited_by_id_foreign" foreign key ("invited_by_id") references "app_user"
        ("id") on delete set null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "system_mail" drop constraint "system_mail_organization_id_foreign";`);
    this.addSql(`alter table "app_user" drop constraint "app_user_organization_id_foreign";`);
    this.addSql(`alter table "session" drop constraint "session_organization_id_foreign";`);
    this.addSql(`alter table "password_reset" drop constraint "password_reset_organization_id_foreign";`);
    this.addSql(`alter table "invitation" drop constraint "invitation_organization_id_foreign";`);
    this.addSql(`alter table "session" drop constraint "session_user_id_foreign";`);
    this.addSql(`alter table "password_reset" drop constraint "password_reset_user_id_foreign";`);
    this.addSql(`alter table "invitation" drop constraint "invitation_invited_by_id_foreign";`);

    this.addSql(`drop table if exists "login_throttle" cascade;`);
    this.addSql(`drop table if exists "organization" cascade;`);
    this.addSql(`drop table if exists "system_mail" cascade;`);
    this.addSql(`drop table if exists "app_user" cascade;`);
    this.addSql(`drop table if exists "session" cascade;`);
    this.addSql(`drop table if exists "password_reset" cascade;`);
    this.addSql(`drop table if exists "invitation" cascade;`);
  }
}
