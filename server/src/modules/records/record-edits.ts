// The record edits' use cases (routes in records.routes.ts): creating and updating companies and
// contacts (with a linked record in the same transaction), and their links (label, value, key
// contact, primary company, removal). Each receives one RecordContext: the request's EntityManager
// and the caller; the building blocks are in records.service.ts.
import type { z } from 'zod';
import type {
  CompanyDetails,
  ContactDetails,
  CreateCompanyBody,
  CreateContactBody,
  CreateEntityPairBody,
  GenericCreateBody,
  GenericUpdateBody,
  LinkBody,
  MappingCompanyBody,
  MappingContactBody,
  PairBody,
  UpdateCompanyBody,
  UpdateContactBody,
} from '@dealscout/shared/contracts';
import type { RecordEntityType } from '@dealscout/shared/domain';
import type { ICompanyContact } from './records.entity';
import {
  createCompany,
  createContact,
  linkCompanyContact,
  setKeyContact,
  setPrimaryCompany,
  updateCompany,
  updateContact,
  updateMapping,
  type RecordContext,
} from './records.service';
import { companyDetailsOf, contactDetailsOf } from './record-reads';

/** A company, optionally with a new linked contact or linking an existing one; answers the company's details. */
export async function createCompanyWithContact(ctx: RecordContext, input: z.output<typeof CreateCompanyBody>): Promise<CompanyDetails> {
  const id = await ctx.em.transactional(async (em) => {
    const company = await createCompany(em, ctx, input.company);
    if (input.contact) {
      const contact = await createContact(em, ctx, input.contact);
      await linkCompanyContact(em, ctx, company.id, contact.id);
    } else if (input.assignContactId) {
      await linkCompanyContact(em, ctx, company.id, input.assignContactId);
    }
    return company.id;
  });
  return companyDetailsOf(ctx, id);
}

/** A contact, optionally with a new linked company or linking an existing one; answers the contact's details. */
export async function createContactWithCompany(ctx: RecordContext, input: z.output<typeof CreateContactBody>): Promise<ContactDetails> {
  const id = await ctx.em.transactional(async (em) => {
    const contact = await createContact(em, ctx, input.contact);
    if (input.company) {
      const company = await createCompany(em, ctx, input.company);
      await linkCompanyContact(em, ctx, company.id, contact.id);
    } else if (input.assignCompanyId) {
      await linkCompanyContact(em, ctx, input.assignCompanyId, contact.id);
    }
    return contact.id;
  });
  return contactDetailsOf(ctx, id);
}

/** A company and a contact together, linked (so the contact is the key contact, the company the primary company). */
export async function createCompanyAndContact(
  ctx: RecordContext,
  input: z.output<typeof CreateEntityPairBody>,
): Promise<{ companyId: string; contactId: string }> {
  return ctx.em.transactional(async (em) => {
    const company = await createCompany(em, ctx, input.company);
    const contact = await createContact(em, ctx, input.contact);
    await linkCompanyContact(em, ctx, company.id, contact.id);
    return { companyId: company.id, contactId: contact.id };
  });
}

/** Updates a company (and its owner), optionally linking a contact; answers the company's details. */
export async function updateCompanyWithContact(ctx: RecordContext, input: z.output<typeof UpdateCompanyBody>): Promise<CompanyDetails> {
  await ctx.em.transactional(async (em) => {
    await updateCompany(em, ctx, input.id, input.company, input.accountOwnerId);
    if (input.assignContactId) await linkCompanyContact(em, ctx, input.id, input.assignContactId);
  });
  return companyDetailsOf(ctx, input.id);
}

/** Updates a contact (and its owner), optionally linking a company; answers the contact's details. */
export async function updateContactWithCompany(ctx: RecordContext, input: z.output<typeof UpdateContactBody>): Promise<ContactDetails> {
  await ctx.em.transactional(async (em) => {
    await updateContact(em, ctx, input.id, input.contact, input.accountOwnerId);
    if (input.assignCompanyId) await linkCompanyContact(em, ctx, input.assignCompanyId, input.id);
  });
  return contactDetailsOf(ctx, input.id);
}

/** A company or a contact (POST /entity/create); answers its id. */
export async function createRecord(
  ctx: RecordContext,
  input: z.output<typeof GenericCreateBody>,
): Promise<{ entityType: RecordEntityType; id: string }> {
  const record =
    input.entityType === 'company' ? await createCompany(ctx.em, ctx, input.data) : await createContact(ctx.em, ctx, input.data);
  return { entityType: input.entityType, id: record.id };
}

/** Updates a company or a contact (PUT /entity/update). */
export async function updateRecord(ctx: RecordContext, input: z.output<typeof GenericUpdateBody>): Promise<void> {
  if (input.entityType === 'company') await updateCompany(ctx.em, ctx, input.id, input.data);
  else await updateContact(ctx.em, ctx, input.id, input.data);
}

/** Links a contact to a company, with the link's label and value. */
export async function linkRecords(ctx: RecordContext, input: z.output<typeof LinkBody>): Promise<ICompanyContact> {
  const { mapping } = await linkCompanyContact(ctx.em, ctx, input.companyId, input.contactId, input);
  return mapping;
}

/** A company's link to a contact: label, value, key flag, or removal (null). */
export async function editCompanyLink(ctx: RecordContext, input: z.output<typeof MappingContactBody>): Promise<ICompanyContact | null> {
  const m = await updateMapping(ctx.em, input.companyId, input.contactId, input);
  return m && input.isKey ? setKeyContact(ctx.em, input.companyId, input.contactId) : m;
}

/** A contact's link to a company: label, value, primary flag, or removal (null). */
export async function editContactLink(ctx: RecordContext, input: z.output<typeof MappingCompanyBody>): Promise<ICompanyContact | null> {
  const m = await updateMapping(ctx.em, input.companyId, input.contactId, input);
  return m && input.isPrimary ? setPrimaryCompany(ctx.em, input.contactId, input.companyId) : m;
}

/** Makes a linked contact the company's key contact. */
export async function makeKeyContact(ctx: RecordContext, pair: z.output<typeof PairBody>): Promise<ICompanyContact> {
  return setKeyContact(ctx.em, pair.companyId, pair.contactId);
}

/** Makes a linked company the contact's primary company. */
export async function makePrimaryCompany(ctx: RecordContext, pair: z.output<typeof PairBody>): Promise<ICompanyContact> {
  return setPrimaryCompany(ctx.em, pair.contactId, pair.companyId);
}
