// Loads the rows of a page (or one record) with their owner, key contact / primary company,
// link counts and custom field values, in a fixed number of queries whatever the page size.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CompanyDto, ContactDto, FieldValueDto, CompanyDetails, ContactDetails } from '@dealscout/shared/contracts';
import { tenantSql } from '../../db/sql';

type Row = Record<string, unknown>;
const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : new Date(String(d)).toISOString());
const list = (n: number) => Array.from({ length: n }, () => '?').join(', ');

function owner(r: Row) {
  return r.owner_id
    ? { id: String(r.owner_id), firstName: String(r.o_first ?? ''), lastName: String(r.o_last ?? ''), email: String(r.o_email ?? '') }
    : null;
}

/**
 * The statements run on the EntityManager's transaction when it has one (the export, which holds a
 * connection for its cursor, must not wait for another one), else on pooled connections.
 */
export async function fieldValuesFor(
  em: EntityManager,
  organizationId: string,
  ids: readonly string[],
): Promise<Map<string, Record<string, FieldValueDto>>> {
  const out = new Map<string, Record<string, FieldValueDto>>();
  if (ids.length === 0) return out;
  const rows = await tenantSql(em, organizationId).all<Row>(
    `select v.entity_id, v.field_id, v.value, v.info_value, v.status, v.status_message, v.details, v.updated_at
       from field_value v where v.organization_id = ? and v.entity_id in (${list(ids.length)})`,
    [organizationId, ...ids],
  );
  for (const r of rows) {
    const id = String(r.entity_id);
    const m = out.get(id) ?? {};
    m[String(r.field_id)] = {
      fieldId: String(r.field_id),
      value: r.value ?? null,
      infoValue: r.info_value ?? null,
      status: (r.status as string | null) ?? null,
      statusMessage: (r.status_message as string | null) ?? null,
      details: r.details ?? null,
      updatedAt: iso(r.updated_at),
    };
    out.set(id, m);
  }
  return out;
}

export async function companyRows(em: EntityManager, organizationId: string, ids: readonly string[]): Promise<CompanyDto[]> {
  if (ids.length === 0) return [];
  // The record rows and their custom values, at the same time (two connections; one after the other in a transaction).
  const [rows, values] = await Promise.all([
    tenantSql(em, organizationId).all<Row>(
      `select r.id, r.name, r.website, r.domain, r.owner_id, r.created_at, r.updated_at,
            o.first_name as o_first, o.last_name as o_last, o.email as o_email,
            k.id as k_id, k.first_name as k_first, k.last_name as k_last, k.email as k_email,
            (select count(*)::int from company_contact c where c.organization_id = r.organization_id and c.company_id = r.id) as contact_count
       from company r
       left join app_user o on o.organization_id = r.organization_id and o.id = r.owner_id
       -- A lookup per row (company_contact_one_key, which leads with the organization: without it in
       -- the condition the planner hash-joined every key link with every contact, 500 ms a page at
       -- 1,000,000 companies; a plain join let it scan every link of every organization too). The
       -- 'limit 1' (one key contact at most: that index is unique) keeps it a lookup: without it the
       -- planner may pull the subquery up into a join of all the organization's key links and
       -- contacts (9 ms instead of 0.5 ms for a page of an organization of 300 companies).
       left join lateral (select k.id, k.first_name, k.last_name, k.email from company_contact km join contact k on k.organization_id =
         km.organization_id and k.id = km.contact_id
                           where km.organization_id = r.organization_id and km.company_id = r.id and km.is_key limit 1) k on true
      where r.organization_id = ? and r.id in (${list(ids.length)})`,
      [organizationId, ...ids],
    ),
    fieldValuesFor(em, organizationId, ids),
  ]);
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  return ids
    .filter((id) => byId.has(id))
    .map((id) => {
      const r = byId.get(id)!;
      return {
        id,
        name: String(r.name),
        website: String(r.website),
        domain: String(r.domain),
        owner: owner(r),
        createdAt: iso(r.created_at),
        updatedAt: iso(r.updated_at),
        keyContact: r.k_id
          ? { id: String(r.k_id), firstName: String(r.k_first), lastName: String(r.k_last), email: String(r.k_email) }
          : null,
        contactCount: Number(r.contact_count),
        fields: values.get(id) ?? {},
      };
    });
}

export async function contactRows(em: EntityManager, organizationId: string, ids: readonly string[]): Promise<ContactDto[]> {
  if (ids.length === 0) return [];
  const [rows, values] = await Promise.all([
    tenantSql(em, organizationId).all<Row>(
      `select r.id, r.first_name, r.last_name, r.email, r.owner_id, r.created_at, r.updated_at,
            o.first_name as o_first, o.last_name as o_last, o.email as o_email,
            p.id as p_id, p.name as p_name, p.website as p_website, p.domain as p_domain,
            (select count(*)::int from company_contact c where c.organization_id = r.organization_id and c.contact_id = r.id) as company_count
       from contact r
       left join app_user o on o.organization_id = r.organization_id and o.id = r.owner_id
       -- A lookup per row (company_contact_one_primary, organization first), as for the key contact of companies.
       left join lateral (select p.id, p.name, p.website, p.domain from company_contact pm join company p on p.organization_id =
         pm.organization_id and p.id = pm.company_id
                           where pm.organization_id = r.organization_id and pm.contact_id = r.id and pm.is_primary limit 1) p on true
      where r.organization_id = ? and r.id in (${list(ids.length)})`,
      [organizationId, ...ids],
    ),
    fieldValuesFor(em, organizationId, ids),
  ]);
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  return ids
    .filter((id) => byId.has(id))
    .map((id) => {
      const r = byId.get(id)!;
      return {
        id,
        firstName: String(r.first_name),
        lastName: String(r.last_name),
        email: String(r.email),
        owner: owner(r),
        createdAt: iso(r.created_at),
        updatedAt: iso(r.updated_at),
        primaryCompany: r.p_id
          ? { id: String(r.p_id), name: String(r.p_name), website: String(r.p_website), domain: String(r.p_domain) }
          : null,
        companyCount: Number(r.company_count),
        fields: values.get(id) ?? {},
      };
    });
}

export async function companyDetails(em: EntityManager, organizationId: string, id: string): Promise<CompanyDetails | null> {
  const [company] = await companyRows(em, organizationId, [id]);
  if (!company) return null;
  const links = await tenantSql(em, organizationId).all<Row>(
    `select m.company_id, m.contact_id, m.is_key, m.is_primary, m.label, m.value, c.first_name, c.last_name, c.email
       from company_contact m join contact c on c.organization_id = m.organization_id and c.id = m.contact_id
      where m.organization_id = ? and m.company_id = ?
      order by m.is_key desc, lower(coalesce(m.label, '')) asc, lower(c.last_name), lower(c.first_name), c.id`,
    [organizationId, id],
  );
  return {
    ...company,
    entityMapping: links.map((l) => ({
      companyId: String(l.company_id),
      contactId: String(l.contact_id),
      isKey: Boolean(l.is_key),
      isPrimary: Boolean(l.is_primary),
      label: (l.label as string | null) ?? null,
      value: (l.value as string | null) ?? null,
      firstName: String(l.first_name),
      lastName: String(l.last_name),
      email: String(l.email),
    })),
  };
}

export async function contactDetails(em: EntityManager, organizationId: string, id: string): Promise<ContactDetails | null> {
  const [contact] = await contactRows(em, organizationId, [id]);
  if (!contact) return null;
  const links = await tenantSql(em, organizationId).all<Row>(
    `select m.company_id, m.contact_id, m.is_key, m.is_primary, m.label, m.value, c.name, c.website
       from company_contact m join company c on c.organization_id = m.organization_id and c.id = m.company_id
      where m.organization_id = ? and m.contact_id = ?
      order by m.is_primary desc, lower(c.name), c.id`,
    [organizationId, id],
  );
  return {
    ...contact,
    entityMapping: links.map((l) => ({
      companyId: String(l.company_id),
      contactId: String(l.contact_id),
      isKey: Boolean(l.is_key),
      isPrimary: Boolean(l.is_primary),
      label: (l.label as string | null) ?? null,
      value: (l.value as string | null) ?? null,
      name: String(l.name),
      website: String(l.website),
    })),
  };
}
