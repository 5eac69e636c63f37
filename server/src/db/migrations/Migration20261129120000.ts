import { Migration } from '@mikro-orm/migrations';

// A user's row changed (name, email, role, settings, calendar, signature, invitation), by any
// process or by hand: announced on ds_realtime_auth as {cu}, so every API process's session cache
// (auth/session-cache.ts) drops that user's entries at once; a demoted admin has no cached role
// left anywhere. The realtime hub closes sockets only for {sid} and {uid}, not for {cu}.
export class Migration20261129120000 extends Migration {
  override up(): void | Promise<void> {
    this.addSql(`create or replace function "app_user_app_user_changed_notify_fn"() returns trigger language plpgsql as $$
begin
  perform pg_notify('ds_realtime_auth', json_build_object('cu', new.id)::text);
  return null;
end $$;`);
    this.addSql(
      `create trigger "app_user_changed_notify" after update of "email", "first_name", "last_name", "role", "settings", "calendar",
        "email_signature", "invitation_accepted" on "app_user" for each row when (old is distinct from new) execute function
        "app_user_app_user_changed_notify_fn"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "app_user_changed_notify" on "app_user";`);
    this.addSql(`drop function if exists "app_user_app_user_changed_notify_fn"();`);
  }
}
