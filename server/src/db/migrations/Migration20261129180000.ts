import { Migration } from '@mikro-orm/migrations';

// A field definition written, changed or deleted, by any process or by hand: announced on
// ds_realtime_auth as {fo: organization} at commit, so every API process's field cache
// (modules/fields/field-cache.ts) drops that organization's fields at once. One row trigger: NOTIFY
// sends identical payloads of one transaction once, so creating an organization's built-in fields
// announces it once. The session cache and the realtime hub ignore {fo}.
export class Migration20261129180000 extends Migration {
  override up(): void | Promise<void> {
    this.addSql(`create or replace function "field_definition_field_definition_changed_fn"() returns trigger language plpgsql as $$
begin
  perform pg_notify('ds_realtime_auth', json_build_object('fo', coalesce(new.organization_id, old.organization_id))::text);
  return null;
end $$;`);
    this.addSql(
      `create trigger "field_definition_changed" after insert or update or delete on "field_definition" ` +
        `for each row execute function "field_definition_field_definition_changed_fn"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "field_definition_changed" on "field_definition";`);
    this.addSql(`drop function if exists "field_definition_field_definition_changed_fn"();`);
  }
}
