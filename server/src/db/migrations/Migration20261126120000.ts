import { Migration } from '@mikro-orm/migrations';

// The link-sort triggers (Migration20261122220100) name the organization in their lookups of
// company_contact. Since Migration20261125230000 its indexes lead with organization_id
// (company_contact_one_key (organization_id, company_id) where is_key, company_contact_one_primary
// (organization_id, contact_id) where is_primary, company_contact_organization_id_contact_id_index),
// so a lookup by company_id or contact_id alone scanned the whole table: 37–39 ms per changed link
// or renamed contact at 120,000 links on the bench data set, for every row of a bulk statement.
// Same functions otherwise; the triggers stay as they are.
const KEY_TEXT = `lower(c.first_name || ' ' || c.last_name)`;
const PRIMARY_TEXT = `lower(co.name)`;

const refreshCompany = (row: 'old' | 'new') => `update company r set key_contact_sort = s.v
  from (select (select ${KEY_TEXT} from company_contact m join contact c on c.organization_id = m.organization_id and c.id = m.contact_id
                 where m.organization_id = ${row}.organization_id and m.company_id = ${row}.company_id and m.is_key) as v) s
  where r.organization_id = ${row}.organization_id and r.id = ${row}.company_id and r.key_contact_sort is distinct from s.v;`;
const refreshContact = (row: 'old' | 'new') => `update contact r set primary_company_sort = s.v
  from (select (select ${PRIMARY_TEXT} from company_contact m join company co on co.organization_id = m.organization_id and co.id = m.company_id
                 where m.organization_id = ${row}.organization_id and m.contact_id = ${row}.contact_id and m.is_primary) as v) s
  where r.organization_id = ${row}.organization_id and r.id = ${row}.contact_id and r.primary_company_sort is distinct from s.v;`;

export class Migration20261126120000 extends Migration {
  override name = 'Migration20261126120000';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function "company_contact_company_contact_sort_fn"() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          if old.is_key then ${refreshCompany('old')} end if;
          if old.is_primary then ${refreshContact('old')} end if;
        end if;
        if tg_op <> 'DELETE' then
          if new.is_key then ${refreshCompany('new')} end if;
          if new.is_primary then ${refreshContact('new')} end if;
        end if;
        return null;
      end $$;`);
    this.addSql(`create or replace function "contact_contact_key_sort_fn"() returns trigger language plpgsql as $$
      begin
        update company r set key_contact_sort = lower(new.first_name || ' ' || new.last_name)
          from company_contact m
         where m.organization_id = new.organization_id and m.contact_id = new.id and m.is_key
           and r.organization_id = m.organization_id and r.id = m.company_id
           and r.key_contact_sort is distinct from lower(new.first_name || ' ' || new.last_name);
        return null;
      end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create or replace function "contact_contact_key_sort_fn"() returns trigger language plpgsql as $$
      begin
        update company r set key_contact_sort = lower(new.first_name || ' ' || new.last_name)
          from company_contact m
         where m.contact_id = new.id and m.is_key and r.id = m.company_id
           and r.key_contact_sort is distinct from lower(new.first_name || ' ' || new.last_name);
        return null;
      end $$;`);
    const oldCompany = (id: string) => `update company r set key_contact_sort = s.v
  from (select (select ${KEY_TEXT} from company_contact m join contact c on c.id = m.contact_id where m.company_id = ${id} and m.is_key) as v) s
  where r.id = ${id} and r.key_contact_sort is distinct from s.v;`;
    const oldContact = (id: string) => `update contact r set primary_company_sort = s.v
  from (select (select ${PRIMARY_TEXT} from company_contact m join company co on co.id = m.company_id where m.contact_id = ${id} and m.is_primary) as v) s
  where r.id = ${id} and r.primary_company_sort is distinct from s.v;`;
    this.addSql(`create or replace function "company_contact_company_contact_sort_fn"() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          if old.is_key then ${oldCompany('old.company_id')} end if;
          if old.is_primary then ${oldContact('old.contact_id')} end if;
        end if;
        if tg_op <> 'DELETE' then
          if new.is_key then ${oldCompany('new.company_id')} end if;
          if new.is_primary then ${oldContact('new.contact_id')} end if;
        end if;
        return null;
      end $$;`);
  }
}
