import { Migration } from '@mikro-orm/migrations';

// Sorting the companies table by its key contact and the contacts table by their primary company
// (docs/ARCHITECTURE.md 'Records'): the sort text is denormalized onto the record row, so a sort
// walks an index of the record's own table instead of joining every record with its link.
// - company.key_contact_sort = lower(first_name || ' ' || last_name) of the key contact (the
//   owner sort's text), contact.primary_company_sort = lower(name) of the primary company (the
//   name sort's text); null without one.
// - Kept by triggers, so every write path (API, bulk statements, imports, deletes) keeps them:
//   on company_contact (a link made, removed, or its is_key / is_primary flag changed: the
//   company's or the contact's text is recomputed), on contact first/last name updates and on
//   company name updates (the linked rows follow). Deleting a contact or company removes its links
//   by cascade, which fires the link trigger.
// - One index per table serves both parts of the order (records/table-query.ts slotSortedPage):
//   the rows with a text by (text, default order, id), then the rows without one — `text is null`,
//   one range of the same index — in the table's default order. INCLUDE carries the name columns,
//   so the walks are index-only.
// The backfill updates a tenth of a large table's rows (every page's visibility bit is cleared):
// the start-up path vacuums both tables after it (VACUUM_AFTER in server/src/db/database.ts).
// Listed in server/src/db/hand-written.ts.
const KEY_TEXT = `lower(c.first_name || ' ' || c.last_name)`;
const PRIMARY_TEXT = `lower(co.name)`;

const refreshCompany = (id: string) => `update company r set key_contact_sort = s.v
  from (select (select ${KEY_TEXT} from company_contact m join contact c on c.id = m.contact_id where m.company_id = ${id} and m.is_key) as v) s
  where r.id = ${id} and r.key_contact_sort is distinct from s.v;`;
const refreshContact = (id: string) => `update contact r set primary_company_sort = s.v
  from (select (select ${PRIMARY_TEXT} from company_contact m join company co on co.id = m.company_id where m.contact_id = ${id} and m.is_primary) as v) s
  where r.id = ${id} and r.primary_company_sort is distinct from s.v;`;

export class Migration20261122220100 extends Migration {
  override name = 'Migration20261122220100';

  override up(): void | Promise<void> {
    this.addSql(`alter table "company" add column "key_contact_sort" text null;`);
    this.addSql(`alter table "contact" add column "primary_company_sort" text null;`);

    // Function names follow MikroORM's trigger convention ({table}_{trigger}_fn).
    this.addSql(`create or replace function "company_contact_company_contact_sort_fn"() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          if old.is_key then ${refreshCompany('old.company_id')} end if;
          if old.is_primary then ${refreshContact('old.contact_id')} end if;
        end if;
        if tg_op <> 'DELETE' then
          if new.is_key then ${refreshCompany('new.company_id')} end if;
          if new.is_primary then ${refreshContact('new.contact_id')} end if;
        end if;
        return null;
      end $$;`);
    this.addSql(
      `create trigger "company_contact_sort" after insert or delete or update of "is_key", "is_primary", "company_id", "contact_id" on
        "company_contact" for each row execute function "company_contact_company_contact_sort_fn"();`,
    );

    this.addSql(`create or replace function "contact_contact_key_sort_fn"() returns trigger language plpgsql as $$
      begin
        update company r set key_contact_sort = lower(new.first_name || ' ' || new.last_name)
          from company_contact m
         where m.contact_id = new.id and m.is_key and r.id = m.company_id
           and r.key_contact_sort is distinct from lower(new.first_name || ' ' || new.last_name);
        return null;
      end $$;`);
    this.addSql(
      `create trigger "contact_key_sort" after update of "first_name", "last_name" on "contact" for each row when (old."first_name" is
        distinct from new."first_name" or old."last_name" is distinct from new."last_name") execute function
        "contact_contact_key_sort_fn"();`,
    );

    this.addSql(`create or replace function "company_company_primary_sort_fn"() returns trigger language plpgsql as $$
      begin
        update contact r set primary_company_sort = lower(new.name)
          from company_contact m
         where m.organization_id = new.organization_id and m.company_id = new.id and m.is_primary and r.id = m.contact_id
           and r.primary_company_sort is distinct from lower(new.name);
        return null;
      end $$;`);
    this.addSql(
      `create trigger "company_primary_sort" after update of "name" on "company" for each row when (old."name" is distinct from
        new."name") execute function "company_company_primary_sort_fn"();`,
    );

    // Backfill (the triggers hold the tables' locks until this migration commits: no write slips in between).
    this.addSql(
      `update company r set key_contact_sort = ${KEY_TEXT} from company_contact m join contact c on c.id = m.contact_id where m.is_key
        and r.id = m.company_id;`,
    );
    this.addSql(
      `update contact r set primary_company_sort = ${PRIMARY_TEXT} from company_contact m join company co on co.id = m.company_id where
        m.is_primary and r.id = m.contact_id;`,
    );

    this.addSql(
      `create index "company_org_key_contact_sort_index" on "company" ("organization_id", "key_contact_sort", lower("name"), "id") include ("name");`,
    );
    this.addSql(
      `create index "contact_org_primary_company_sort_index" on "contact" ("organization_id", "primary_company_sort",
        lower("last_name"), lower("first_name"), "id") include ("last_name", "first_name");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "company_primary_sort" on "company";`);
    this.addSql(`drop function if exists "company_company_primary_sort_fn"();`);
    this.addSql(`drop trigger if exists "contact_key_sort" on "contact";`);
    this.addSql(`drop function if exists "contact_contact_key_sort_fn"();`);
    this.addSql(`drop trigger if exists "company_contact_sort" on "company_contact";`);
    this.addSql(`drop function if exists "company_contact_company_contact_sort_fn"();`);
    this.addSql(`drop index if exists "contact_org_primary_company_sort_index";`);
    this.addSql(`drop index if exists "company_org_key_contact_sort_index";`);
    this.addSql(`alter table "contact" drop column "primary_company_sort";`);
    this.addSql(`alter table "company" drop column "key_contact_sort";`);
  }
}
