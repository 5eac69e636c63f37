import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  normalizeDomain,
  normalizeEmail,
  COMPANY_MESSAGES,
  CONTACT_MESSAGES,
  ENTITY_MESSAGES,
  FIELD_MESSAGES,
  type RecordEntityType,
} from '@dealscout/shared/domain';
import type { CompanyInput, ContactInput, FieldValueDto, MappingDto, Selection } from '@dealscout/shared/contracts';
import { Company, Contact, CompanyContact, type ICompany, type IContact, type ICompanyContact } from './records.entity';
import { FieldDefinition } from '../fields/field.entity';
import { writeFieldValue } from '../fields/field-values';
import { User } from '../users/user.entity';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { loadQueryContext, whereSql, type QueryContext, type Sql } from './table-query';
import { publish } from '../realtime/publish';
import { REALTIME_EVENT_KINDS } from '@dealscout/shared/contracts';
import { realtimePaths } from '@dealscout/shared/domain';
import { tenantSql, unscopedSql } from '../../db/sql';

/** Bulk deletes name their ids up to this many; beyond it, clients refetch everything of the type. */
const DELETED_IDS_MAX = 500;

/**
 * Tells every open table and drawer of the organization (002 §7 'Realtime access', path
 * org/{oid}/entities/{type}) that records changed; in the caller's transaction when there is one.
 */
export async function publishEntityChange(
  em: EntityManager,
  organizationId: string,
  entityType: RecordEntityType,
  kind: 'created' | 'updated',
  ids: readonly string[],
): Promise<void> {
  const k = kind === 'created' ? REALTIME_EVENT_KINDS.entityCreated : REALTIME_EVENT_KINDS.entityUpdated;
  await publish(
    em,
    organizationId,
    [...new Set(ids)].map((id) => ({ path: realtimePaths.entities(organizationId, entityType), kind: k, data: { id } })),
  );
}

function orgIdOf(ref: unknown): string {
  return typeof ref === 'string' ? ref : (ref as { id: string }).id;
}

export interface Actor {
  organizationId: string;
  userId: string;
}

/** A use case's one argument for who and where: the caller and the request's EntityManager. */
export interface RecordContext extends Actor {
  em: EntityManager;
}

/** An account owner must be an active, accepted, non-deleted member of the organization. */
async function ownerRef(em: EntityManager, actor: Actor, ownerId: string | null | undefined): Promise<string | null | undefined> {
  if (ownerId === undefined) return undefined;
  if (ownerId === null) return null;
  const ok = await em.count(User, {
    id: ownerId,
    organization: actor.organizationId,
    status: 'active',
    invitationAccepted: true,
    deleted: false,
  });
  if (!ok) throw badRequest(ENTITY_MESSAGES.ownerInvalid);
  return ownerId;
}

async function flushUnique(em: EntityManager, message: string): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw conflict(message);
    throw err;
  }
}

export async function createCompany(em: EntityManager, actor: Actor, input: CompanyInput): Promise<ICompany> {
  const domain = normalizeDomain(input.website ?? '');
  if (await em.count(Company, { domain })) throw conflict(COMPANY_MESSAGES.duplicateDomain);
  const company = em.create(Company, {
    organization: actor.organizationId,
    name: (input.name ?? '').trim(),
    website: (input.website ?? '').trim(),
    domain,
    owner: (await ownerRef(em, actor, input.accountOwnerId)) ?? null,
    createdBy: actor.userId,
  });
  await flushUnique(em, COMPANY_MESSAGES.duplicateDomain);
  await publishEntityChange(em, actor.organizationId, 'company', 'created', [company.id]);
  return company;
}

export async function updateCompany(
  em: EntityManager,
  actor: Actor,
  id: string,
  input: CompanyInput,
  accountOwnerId?: string | null,
): Promise<ICompany> {
  const company = await em.findOne(Company, { id });
  if (!company) throw notFound(COMPANY_MESSAGES.notFound);
  const domain = normalizeDomain(input.website ?? '');
  if (domain !== company.domain && (await em.count(Company, { domain, id: { $ne: id } }))) throw conflict(COMPANY_MESSAGES.duplicateDomain);
  company.name = (input.name ?? '').trim();
  company.website = (input.website ?? '').trim();
  company.domain = domain;
  const owner = await ownerRef(em, actor, accountOwnerId !== undefined ? accountOwnerId : input.accountOwnerId);
  if (owner !== undefined) company.owner = owner === null ? null : em.getReference(User, owner);
  await flushUnique(em, COMPANY_MESSAGES.duplicateDomain);
  await publishEntityChange(em, actor.organizationId, 'company', 'updated', [company.id]);
  return company;
}

export async function createContact(em: EntityManager, actor: Actor, input: ContactInput): Promise<IContact> {
  const email = normalizeEmail(input.email ?? '');
  if (await em.count(Contact, { email })) throw conflict(CONTACT_MESSAGES.duplicateEmail);
  const contact = em.create(Contact, {
    organization: actor.organizationId,
    firstName: (input.firstName ?? '').trim(),
    lastName: (input.lastName ?? '').trim(),
    email,
    owner: (await ownerRef(em, actor, input.accountOwnerId)) ?? null,
    createdBy: actor.userId,
  });
  await flushUnique(em, CONTACT_MESSAGES.duplicateEmail);
  await publishEntityChange(em, actor.organizationId, 'contact', 'created', [contact.id]);
  return contact;
}

export async function updateContact(
  em: EntityManager,
  actor: Actor,
  id: string,
  input: ContactInput,
  accountOwnerId?: string | null,
): Promise<IContact> {
  const contact = await em.findOne(Contact, { id });
  if (!contact) throw notFound(CONTACT_MESSAGES.notFound);
  const email = normalizeEmail(input.email ?? '');
  if (email !== contact.email && (await em.count(Contact, { email, id: { $ne: id } }))) throw conflict(CONTACT_MESSAGES.duplicateEmail);
  contact.firstName = (input.firstName ?? '').trim();
  contact.lastName = (input.lastName ?? '').trim();
  contact.email = email;
  const owner = await ownerRef(em, actor, accountOwnerId !== undefined ? accountOwnerId : input.accountOwnerId);
  if (owner !== undefined) contact.owner = owner === null ? null : em.getReference(User, owner);
  await flushUnique(em, CONTACT_MESSAGES.duplicateEmail);
  await publishEntityChange(em, actor.organizationId, 'contact', 'updated', [contact.id]);
  return contact;
}

/** A link between a company and a contact changed: both records' drawers and tables follow. */
async function publishLinkChange(em: EntityManager, organizationId: string, companyId: string, contactId: string): Promise<void> {
  await publishEntityChange(em, organizationId, 'company', 'updated', [companyId]);
  await publishEntityChange(em, organizationId, 'contact', 'updated', [contactId]);
}

export function toMappingDto(m: ICompanyContact): MappingDto {
  return {
    companyId: m.company.id,
    contactId: m.contact.id,
    isKey: m.isKey,
    isPrimary: m.isPrimary,
    label: m.label ?? null,
    value: m.value ?? null,
  };
}

/**
 * Links a company and a contact (both must be the caller's: 404 otherwise). The first contact of a
 * company becomes its key contact, the first company of a contact its primary company. Both rows
 * are locked (company first, then contact) so that concurrent links see each other's flags.
 */
export async function linkCompanyContact(
  em: EntityManager,
  actor: Actor,
  companyId: string,
  contactId: string,
  extra: { label?: string | null; value?: string | null } = {},
): Promise<{ mapping: ICompanyContact; created: boolean }> {
  return em.transactional(async (tem) => {
    const company = await tem.findOne(Company, { id: companyId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!company) throw notFound(COMPANY_MESSAGES.notFound);
    const contact = await tem.findOne(Contact, { id: contactId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!contact) throw notFound(CONTACT_MESSAGES.notFound);
    const existing = await tem.findOne(CompanyContact, { company: companyId, contact: contactId });
    if (existing) return { mapping: existing, created: false };
    const [hasKey, hasPrimary] = await Promise.all([
      tem.count(CompanyContact, { company: companyId, isKey: true }),
      tem.count(CompanyContact, { contact: contactId, isPrimary: true }),
    ]);
    const mapping = tem.create(CompanyContact, {
      organization: actor.organizationId,
      company,
      contact,
      isKey: hasKey === 0,
      isPrimary: hasPrimary === 0,
      label: extra.label ?? null,
      value: extra.value ?? null,
    });
    await flushUnique(tem, ENTITY_MESSAGES.alreadyLinked);
    await publishLinkChange(tem, actor.organizationId, companyId, contactId);
    return { mapping, created: true };
  });
}

async function mappingOf(em: EntityManager, companyId: string, contactId: string): Promise<ICompanyContact> {
  const m = await em.findOne(CompanyContact, { company: companyId, contact: contactId });
  if (!m) throw notFound('These records are not linked');
  return m;
}

/** Makes a linked contact the company's key contact (one per company; the company row is locked meanwhile). */
export async function setKeyContact(em: EntityManager, companyId: string, contactId: string): Promise<ICompanyContact> {
  return em.transactional(async (tem) => {
    if (!(await tem.findOne(Company, { id: companyId }, { lockMode: LockMode.PESSIMISTIC_WRITE })))
      throw notFound('These records are not linked');
    const m = await mappingOf(tem, companyId, contactId);
    await tem.nativeUpdate(CompanyContact, { company: companyId, isKey: true, id: { $ne: m.id } }, { isKey: false });
    m.isKey = true;
    await tem.flush();
    await publishLinkChange(tem, orgIdOf(m.organization), companyId, contactId);
    return m;
  });
}

/** Makes a linked company the contact's primary company (one per contact; the contact row is locked meanwhile). */
export async function setPrimaryCompany(em: EntityManager, contactId: string, companyId: string): Promise<ICompanyContact> {
  return em.transactional(async (tem) => {
    if (!(await tem.findOne(Contact, { id: contactId }, { lockMode: LockMode.PESSIMISTIC_WRITE })))
      throw notFound('These records are not linked');
    const m = await mappingOf(tem, companyId, contactId);
    await tem.nativeUpdate(CompanyContact, { contact: contactId, isPrimary: true, id: { $ne: m.id } }, { isPrimary: false });
    m.isPrimary = true;
    await tem.flush();
    await publishLinkChange(tem, orgIdOf(m.organization), companyId, contactId);
    return m;
  });
}

export async function updateMapping(
  em: EntityManager,
  companyId: string,
  contactId: string,
  patch: { label?: string | null; value?: string | null; remove?: boolean },
): Promise<ICompanyContact | null> {
  const m = await mappingOf(em, companyId, contactId);
  if (patch.remove) {
    await em.nativeDelete(CompanyContact, { id: m.id });
    await publishLinkChange(em, orgIdOf(m.organization), companyId, contactId);
    return null;
  }
  if (patch.label !== undefined) m.label = patch.label;
  if (patch.value !== undefined) m.value = patch.value;
  await em.flush();
  await publishLinkChange(em, orgIdOf(m.organization), companyId, contactId);
  return m;
}

/** Deletes records with their links and custom field values; answers how many went. */
export async function deleteRecords(em: EntityManager, actor: Actor, entityType: RecordEntityType, where: Sql): Promise<number> {
  const table = entityType === 'company' ? 'company' : 'contact';
  return em.transactional(async (tem) => {
    const sql = tenantSql(tem, actor.organizationId);
    await sql.run(`create temporary table _del on commit drop as select r.id from ${table} r ${where.text}`, where.params);
    await tenantSql(tem, actor.organizationId).run(
      `delete from field_value v using _del d where v.organization_id = ? and v.entity_id = d.id`,
      [actor.organizationId],
    );
    // Their enrichment results too (no foreign key: one results table serves companies and contacts).
    await tenantSql(tem, actor.organizationId).run(
      `delete from enrichment_result x using _del d where x.organization_id = ? and x.entity_id = d.id`,
      [actor.organizationId],
    );
    const deleted = await sql.run(`delete from ${table} r using _del d where r.organization_id = ? and r.id = d.id`, [
      actor.organizationId,
    ]);
    if (deleted > 0) {
      // _del is this transaction's temporary table, filled above from the organization's rows.
      const ids =
        deleted <= DELETED_IDS_MAX
          ? (await unscopedSql(tem, 'connection').all<{ id: string }>(`select id from _del`)).map((r) => r.id)
          : null;
      await publish(tem, actor.organizationId, {
        path: realtimePaths.entities(actor.organizationId, entityType),
        kind: REALTIME_EVENT_KINDS.entityDeleted,
        data: { ids, count: deleted },
      });
    }
    return deleted;
  });
}

/** Deletes one company or contact with its links and field values (404 when it is not the organization's). */
export async function deleteRecord(ctx: RecordContext, entityType: RecordEntityType, id: string): Promise<void> {
  const qctx = await loadQueryContext(ctx.em, ctx.organizationId, entityType);
  const n = await deleteRecords(ctx.em, ctx, entityType, whereSql(qctx, { ids: [id] }));
  if (n === 0) throw notFound(entityType === 'company' ? COMPANY_MESSAGES.notFound : CONTACT_MESSAGES.notFound);
}

/** Deletes the selected companies or contacts (ids, or all selected across pages by filters); answers how many went. */
export async function deleteSelectedRecords(ctx: RecordContext, entityType: RecordEntityType, selection: Selection): Promise<number> {
  const qctx = await loadQueryContext(ctx.em, ctx.organizationId, entityType);
  return deleteRecords(ctx.em, ctx, entityType, selectionWhere(qctx, selection));
}

/** The records a bulk request means: explicit ids, or every row the filters select (minus exclusions). */
export function selectionWhere(ctx: QueryContext, selection: Selection): Sql {
  if ('ids' in selection) return whereSql(ctx, { ids: selection.ids });
  return whereSql(ctx, { text: selection.text ?? '', filters: selection.filters ?? [], excludeIds: selection.excludeIds ?? [] });
}

/**
 * PUT /entity/company/field and /contact/field: sets (or clears, with an empty value) one custom
 * field value of a record, through writeFieldValue (fields/field-values.ts), which keeps the typed
 * copy on the record row in step.
 */
export async function setFieldValue(
  em: EntityManager,
  actor: Actor,
  entityType: RecordEntityType,
  entityId: string,
  fieldId: string,
  raw: unknown,
): Promise<FieldValueDto | null> {
  const field = await em.findOne(FieldDefinition, { id: fieldId, entityType });
  if (!field) throw notFound(FIELD_MESSAGES.notFound);
  if (field.builtInColumn) throw badRequest(FIELD_MESSAGES.mandatory);
  const value = await writeFieldValue(em, { organizationId: actor.organizationId, entityType, entityId, field, value: raw });
  await publishEntityChange(em, actor.organizationId, entityType, 'updated', [entityId]);
  return value;
}
