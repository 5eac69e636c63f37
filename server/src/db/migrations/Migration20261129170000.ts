import { Migration } from '@mikro-orm/migrations';

// Realtime sequence numbers are taken at commit instead of at publish. publish() writes its events
// as one realtime_pending row; a deferred constraint trigger on it runs just before the transaction
// commits, takes the organization's next numbers from realtime_sequence (locking that row until the
// commit ends, as before: numbers follow commit order, a rollback leaves no gap), moves the events
// into realtime_event (whose statement trigger sends the NOTIFY) and deletes the pending row.
// Before, the lock was taken where publish() was called and held through everything the
// transaction did after it, so one long transaction (starting a 10,000-row run) stalled every
// write of its organization that published; now it is held only for the commit itself.
// Safe while the previous release still runs: its publish() still writes realtime_event directly,
// under the same row lock, so numbers stay unique, ordered and gap-free across both.
const FN = 'realtime_pending_realtime_pending_sequence_fn';

export class Migration20261129170000 extends Migration {
  override up(): void | Promise<void> {
    this.addSql(
      `create table "realtime_pending" ("id" uuid not null, "organization_id" uuid not null, "events" jsonb not null, ` +
        `"created_at" timestamptz not null, constraint "realtime_pending_pkey" primary key ("organization_id", "id"));`,
    );
    this.addSql(
      `alter table "realtime_pending" add constraint "realtime_pending_organization_id_foreign" ` +
        `foreign key ("organization_id") references "organization" ("id");`,
    );
    this.addSql(`create or replace function "${FN}"() returns trigger language plpgsql set jit = off as $$
declare
  n int := jsonb_array_length(new.events);
  last bigint;
begin
  delete from realtime_pending where id = new.id and organization_id = new.organization_id;
  if n = 0 then
    return null;
  end if;
  insert into realtime_sequence (organization_id, last_seq) values (new.organization_id, n)
    on conflict (organization_id) do update set last_seq = realtime_sequence.last_seq + excluded.last_seq
    returning last_seq into last;
  insert into realtime_event (id, organization_id, seq, path, kind, key, data, created_at)
    select gen_random_uuid(), new.organization_id, last - n + e.ord, e.item->>'path', e.item->>'kind', e.item->>'key',
           e.item->'data', new.created_at
      from jsonb_array_elements(new.events) with ordinality as e(item, ord)
     order by e.ord;
  return null;
end $$;`);
    this.addSql(
      `create constraint trigger "realtime_pending_sequence" after insert on "realtime_pending" ` +
        `deferrable initially deferred for each row execute function "${FN}"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "realtime_pending_sequence" on "realtime_pending";`);
    this.addSql(`drop function if exists "${FN}"();`);
    this.addSql(`drop table if exists "realtime_pending";`);
  }
}
