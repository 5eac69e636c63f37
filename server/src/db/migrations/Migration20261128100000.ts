import { Migration } from '@mikro-orm/migrations';

// The link-sort texts (company.key_contact_sort, contact.primary_company_sort, Migration20261122220100)
// are kept by statement-level triggers on company_contact instead of a row trigger: one per event
// (a trigger with transition tables takes one event), each refreshing in one UPDATE the texts of the
// distinct (organization, company) with a key link and (organization, contact) with a primary link
// among the statement's rows — before and after, for an update. Same texts as before, same guard
// (`is distinct from`: nothing is written when the text is already right).
//
// Why: the row trigger ran one UPDATE of contact (or company) per primary (key) link, and each of
// those fired the contact's statement triggers (slot counts, link counts) once more. A CRM sync
// page of 2,000 contacts spent 0.5–1.5 s in its company_contact insert (84 of 100 samples of the
// full first sync, docs/benchmarks.md 'CRM sync (Salesforce)'); set-based it is one UPDATE of 2,000
// rows and one firing of the contact's statement triggers. CSV imports and cascaded deletes (a
// company deleted with thousands of contacts) benefit the same way.
//
// The refreshes go through EXECUTE: a static statement over transition tables is planned once per
// connection with the first call's row counts (Migration20261122223000), and a plan costed for 1
// row is not the one for 2,000 — or the other way around. Planning per firing costs well under a
// millisecond; the check `exists (… where is_key)` skips a refresh no row of the statement needs
// (a sync's links are never key links). No JIT (see Migration20261122220200).
// The UPDATE trigger cannot name columns (transition tables): it fires on every update of a link
// and recomputes the texts of the key / primary links among its rows, which writes only when a
// text moved. Listed in server/src/hand-written.ts.
const KEY_TEXT = `lower(c.first_name || ' ' || c.last_name)`;
const PRIMARY_TEXT = `lower(co.name)`;

type Rows = 'new_rows' | 'old_rows';
const from = (tables: readonly Rows[], column: 'company_id' | 'contact_id', flag: 'is_key' | 'is_primary') =>
  tables.map((t) => `select distinct organization_id, ${column} from ${t} where ${flag}`).join(' union ');
const anyRow = (tables: readonly Rows[], flag: 'is_key' | 'is_primary') =>
  tables.map((t) => `exists (select 1 from ${t} where ${flag})`).join(' or ');

// `distinct` / `union` (not `union all`): each company / contact once.
const refreshCompanies = (tables: readonly Rows[]) => `update company r set key_contact_sort = s.v
      from (select d.organization_id, d.company_id, k.v from (${from(tables, 'company_id', 'is_key')}) d
              left join lateral (select ${KEY_TEXT} as v from company_contact m join contact c on c.organization_id = m.organization_id and c.id = m.contact_id
                                  where m.organization_id = d.organization_id and m.company_id = d.company_id and m.is_key) k on true) s
     where r.organization_id = s.organization_id and r.id = s.company_id and r.key_contact_sort is distinct from s.v`;
const refreshContacts = (tables: readonly Rows[]) => `update contact r set primary_company_sort = s.v
      from (select d.organization_id, d.contact_id, p.v from (${from(tables, 'contact_id', 'is_primary')}) d
              left join lateral (select ${PRIMARY_TEXT} as v from company_contact m join company co on co.organization_id =
                m.organization_id and co.id = m.company_id
                                  where m.organization_id = d.organization_id and m.contact_id = d.contact_id and m.is_primary) p on true) s
     where r.organization_id = s.organization_id and r.id = s.contact_id and r.primary_company_sort is distinct from s.v`;

const body = (tables: readonly Rows[]) => `
      begin
        if ${anyRow(tables, 'is_key')} then
          execute $q$${refreshCompanies(tables)}$q$;
        end if;
        if ${anyRow(tables, 'is_primary')} then
          execute $q$${refreshContacts(tables)}$q$;
        end if;
        return null;
      end`;

const EVENTS = [
  { event: 'insert', tables: ['new_rows'], referencing: 'new table as new_rows' },
  { event: 'delete', tables: ['old_rows'], referencing: 'old table as old_rows' },
  { event: 'update', tables: ['old_rows', 'new_rows'], referencing: 'old table as old_rows new table as new_rows' },
] as const;

// The row trigger's function as Migration20261126120000 left it (for down).
const oldCompany = (row: 'old' | 'new') => `update company r set key_contact_sort = s.v
  from (select (select ${KEY_TEXT} from company_contact m join contact c on c.organization_id = m.organization_id and c.id = m.contact_id
                 where m.organization_id = ${row}.organization_id and m.company_id = ${row}.company_id and m.is_key) as v) s
  where r.organization_id = ${row}.organization_id and r.id = ${row}.company_id and r.key_contact_sort is distinct from s.v;`;
const oldContact = (row: 'old' | 'new') => `update contact r set primary_company_sort = s.v
  from (select (select ${PRIMARY_TEXT} from company_contact m join company co on co.organization_id = m.organization_id and co.id = m.company_id
                 where m.organization_id = ${row}.organization_id and m.contact_id = ${row}.contact_id and m.is_primary) as v) s
  where r.organization_id = ${row}.organization_id and r.id = ${row}.contact_id and r.primary_company_sort is distinct from s.v;`;

export class Migration20261128100000 extends Migration {
  override name = 'Migration20261128100000';

  override up(): void | Promise<void> {
    this.addSql(`drop trigger if exists "company_contact_sort" on "company_contact";`);
    this.addSql(`drop function if exists "company_contact_company_contact_sort_fn"();`);
    for (const { event, tables, referencing } of EVENTS) {
      // Function names follow MikroORM's trigger convention ({table}_{trigger}_fn).
      this.addSql(
        `create or replace function "company_contact_company_contact_sort_${event}_fn"() returns trigger language plpgsql set jit = off
          as $$${body(tables)} $$;`,
      );
      this.addSql(
        `create trigger "company_contact_sort_${event}" after ${event} on "company_contact" referencing ${referencing} for each
          statement execute function "company_contact_company_contact_sort_${event}_fn"();`,
      );
    }
  }

  override down(): void | Promise<void> {
    for (const { event } of EVENTS) {
      this.addSql(`drop trigger if exists "company_contact_sort_${event}" on "company_contact";`);
      this.addSql(`drop function if exists "company_contact_company_contact_sort_${event}_fn"();`);
    }
    this.addSql(`create or replace function "company_contact_company_contact_sort_fn"() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          if old.is_key then ${oldCompany('old')} end if;
          if old.is_primary then ${oldContact('old')} end if;
        end if;
        if tg_op <> 'DELETE' then
          if new.is_key then ${oldCompany('new')} end if;
          if new.is_primary then ${oldContact('new')} end if;
        end if;
        return null;
      end $$;`);
    this.addSql(
      `create trigger "company_contact_sort" after insert or delete or update of "is_key", "is_primary", "company_id", "contact_id" on
        "company_contact" for each row execute function "company_contact_company_contact_sort_fn"();`,
    );
  }
}
