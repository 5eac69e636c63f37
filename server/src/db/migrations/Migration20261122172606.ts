import { Migration } from '@mikro-orm/migrations';

// Realtime fan-out, events packed into as few NOTIFYs as fit: the trigger on realtime_event
// becomes a statement trigger over the inserted rows. It sends the events of a statement in order,
// per organization, as many per payload as fit in ~7,700 bytes ({o, m, s, e: [...]}: the range of
// sequence numbers and the events); an event too big for a payload is announced alone without its
// data ({o, m, s}) and the listener reads it from the table. A bulk write of 10,000 events cost
// 10,000 trigger calls and NOTIFY entries; a group commit of 16 executions cost 16.
export class Migration20261122172606 extends Migration {
  override name = 'Migration20261122172606';

  override up(): void | Promise<void> {
    this.addSql(`drop trigger if exists "realtime_event_notify" on "realtime_event";`);
    this.addSql(`create or replace function "realtime_event_realtime_event_notify_fn"() returns trigger language plpgsql as $$
declare
  r record;
  o uuid := null;
  m bigint;
  s bigint;
  body text;
begin
  for r in select e.organization_id, e.seq,
                  json_build_object('s', e.seq, 'p', e.path, 'k', e.kind, 'y', e.key, 'd', e.data, 't', e.created_at)::text as j
             from new_events e order by e.organization_id, e.seq loop
    if o is not null and (r.organization_id <> o or octet_length(body) + octet_length(r.j) > 7700) then
      perform pg_notify('ds_realtime', '{"o":"' || o || '","m":' || m || ',"s":' || s || ',"e":[' || body || ']}');
      o := null;
    end if;
    if octet_length(r.j) > 7700 then
      -- Too big for a payload: announced alone, the listener reads it from the table.
      perform pg_notify('ds_realtime', json_build_object('o', r.organization_id, 'm', r.seq, 's', r.seq)::text);
      continue;
    end if;
    if o is null then
      o := r.organization_id;
      m := r.seq;
      body := r.j;
    else
      body := body || ',' || r.j;
    end if;
    s := r.seq;
  end loop;
  if o is not null then
    perform pg_notify('ds_realtime', '{"o":"' || o || '","m":' || m || ',"s":' || s || ',"e":[' || body || ']}');
  end if;
  return null;
end $$;`);
    this.addSql(
      `create trigger "realtime_event_notify" after insert on "realtime_event" referencing new table as new_events for each statement
        execute function "realtime_event_realtime_event_notify_fn"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "realtime_event_notify" on "realtime_event";`);
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
  }
}
