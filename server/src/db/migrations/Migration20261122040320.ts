import { Migration } from '@mikro-orm/migrations';

export class Migration20261122040320 extends Migration {
  override name = 'Migration20261122040320';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "realtime_event" ("id" uuid not null, "organization_id" uuid not null, "seq" bigint not null, "path" varchar(300)
        not null, "kind" varchar(60) not null, "key" varchar(200) null, "data" jsonb not null, "created_at" timestamptz not null,
        primary key ("id"));`,
    );
    this.addSql(`create index "realtime_event_created_at_index" on "realtime_event" ("created_at");`);
    this.addSql(`alter table "realtime_event" add constraint "realtime_event_org_seq_unique" unique ("organization_id", "seq");`);

    this.addSql(
      `create table "realtime_sequence" ("organization_id" uuid not null, "last_seq" bigint not null default '0', primary key ("organization_id"));`,
    );

    this.addSql(
      `create table "notification" ("id" uuid not null, "organization_id" uuid not null, "user_id" uuid not null, "level" varchar(10)
        not null, "unique_key" varchar(200) null, "read" boolean not null default false, "href" varchar(500) null, "message" text not
        null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "notification_user_id_index" on "notification" ("user_id");`);
    this.addSql(`create index "notification_org_user_created_index" on "notification" ("organization_id", "user_id", "created_at");`);
    this.addSql(
      `alter table "notification" add constraint "notification_org_user_key_unique" unique ("organization_id", "user_id", "unique_key");`,
    );

    this.addSql(
      `create table "execution" ("id" uuid not null, "organization_id" uuid not null, "type" varchar(20) not null, "type_id" uuid null,
        "entity_type" varchar(20) not null, "entity_id" uuid null, "status" varchar(20) not null, "status_message" text null,
        "idempotency_key" varchar(200) null, "attempt" int not null default 0, "processed" int not null default 0, "total" int null,
        "result" jsonb null, "created_by_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
        "started_at" timestamptz null, "completed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "execution_org_type_status_index" on "execution" ("organization_id", "type", "status");`);
    this.addSql(`create index "execution_org_entity_index" on "execution" ("organization_id", "entity_id");`);

    this.addSql(
      `create table "activity" ("id" uuid not null, "organization_id" uuid not null, "type" varchar(10) not null, "title" varchar(255)
        null, "date" date not null, "due_date" timestamptz null, "status" varchar(20) null, "source" varchar(20) not null default
        'manual', "source_id" varchar(255) null, "content" text not null, "subject" varchar(500) null, "to" varchar(1000) null, "others"
        jsonb not null default '[]', "by" varchar(255) null, "follow_up" boolean not null default false, "error_message" text null,
        "company_id" uuid null, "contact_id" uuid null, "created_by_id" uuid null, "created_at" timestamptz not null, "updated_at"
        timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "activity_org_company_date_index" on "activity" ("organization_id", "company_id", "date");`);
    this.addSql(`create index "activity_org_contact_date_index" on "activity" ("organization_id", "contact_id", "date");`);

    this.addSql(
      `alter table "realtime_event" add constraint "realtime_event_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );

    this.addSql(
      `alter table "realtime_sequence" add constraint "realtime_sequence_organization_id_foreign" foreign key ("organization_id")
        references "organization" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "notification" add constraint "notification_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "notification" add constraint "notification_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "execution" add constraint "execution_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "execution" add constraint "execution_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "activity" add constraint "activity_organization_id_foreign" foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(
      `alter table "activity" add constraint "activity_company_id_foreign" foreign key ("company_id") references "company" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "activity" add constraint "activity_contact_id_foreign" foreign key ("contact_id") references "contact" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "activity" add constraint "activity_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on delete set null;`,
    );

    // Written by hand (see server/src/db/hand-written.ts): one active execution per idempotency key.
    this.addSql(
      `create unique index "execution_org_idempotency_active_unique" on "execution" ("organization_id", "idempotency_key") where
        "idempotency_key" is not null and "status" in ('draft', 'scheduled', 'processing');`,
    );

    // Realtime fan-out: every event row is announced to every API process (NOTIFY is delivered at
    // commit, in commit order). Events too big for a NOTIFY payload (8000 bytes) are announced
    // without their data and read from the table by the listener.
    this.addSql(`create or replace function "realtime_event_realtime_event_notify_fn"() returns trigger language plpgsql as $$
declare
  payload text;
begin
  payload := json_build_object('o', new.organization_id, 's', new.seq, 'p', new.path, 'k', new.kind, 'y', new.key, 'd', new.data, 't', new.created_at)::text;
  if octet_length(payload) > 7900 then
    payload := json_build_object('o', new.organization_id, 's', new.seq, 'f', true)::text;
  end if;
  perform pg_notify('ds_realtime', payload);
  return null;
end $$;`);
    this.addSql(
      `create trigger "realtime_event_notify" after insert on "realtime_event" for each row execute function "realtime_event_realtime_event_notify_fn"();`,
    );

    // Function names follow MikroORM's trigger convention ({table}_{trigger}_fn), so the schema
    // diff names them exactly (server/src/db/hand-written.ts).
    // Sockets of a user who logs out, is disabled or deleted are closed: session revocation and
    // user status changes are announced to the API processes, whatever code path made them.
    this.addSql(`create or replace function "session_session_revoked_notify_fn"() returns trigger language plpgsql as $$
begin
  perform pg_notify('ds_realtime_auth', json_build_object('sid', new.id)::text);
  return null;
end $$;`);
    this.addSql(`create or replace function "session_session_deleted_notify_fn"() returns trigger language plpgsql as $$
begin
  perform pg_notify('ds_realtime_auth', json_build_object('sid', old.id)::text);
  return null;
end $$;`);
    this.addSql(
      `create trigger "session_revoked_notify" after update of "revoked_at" on "session" for each row when (new."revoked_at" is not null
        and old."revoked_at" is null) execute function "session_session_revoked_notify_fn"();`,
    );
    this.addSql(
      `create trigger "session_deleted_notify" after delete on "session" for each row execute function "session_session_deleted_notify_fn"();`,
    );
    this.addSql(`create or replace function "app_user_app_user_disabled_notify_fn"() returns trigger language plpgsql as $$
begin
  perform pg_notify('ds_realtime_auth', json_build_object('uid', new.id)::text);
  return null;
end $$;`);
    this.addSql(
      `create trigger "app_user_disabled_notify" after update of "status", "deleted" on "app_user" for each row when (new."status" <>
        'active' or new."deleted") execute function "app_user_app_user_disabled_notify_fn"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "app_user_disabled_notify" on "app_user";`);
    this.addSql(`drop trigger if exists "session_deleted_notify" on "session";`);
    this.addSql(`drop trigger if exists "session_revoked_notify" on "session";`);
    this.addSql(`drop function if exists "app_user_app_user_disabled_notify_fn"();`);
    this.addSql(`drop function if exists "session_session_deleted_notify_fn"();`);
    this.addSql(`drop function if exists "session_session_revoked_notify_fn"();`);
    this.addSql(`drop table if exists "realtime_event" cascade;`);
    this.addSql(`drop function if exists "realtime_event_realtime_event_notify_fn"();`);
    this.addSql(`drop table if exists "realtime_sequence" cascade;`);
    this.addSql(`drop table if exists "notification" cascade;`);
    this.addSql(`drop table if exists "execution" cascade;`);
    this.addSql(`drop table if exists "activity" cascade;`);
  }
}
