import { z } from 'zod';
import {
  FIELD_DATA_TYPES,
  OFFERED_FIELD_TYPES,
  FIELD_NAMESPACES,
  REFRESH_SCHEDULES,
  RECONCILIATIONS,
  RECORD_ENTITY_TYPES,
  FIELD_MESSAGES,
  fieldNameProblem,
} from '../domain/fields';
import { FILTER_CONDITIONS } from '../domain/filters';
import { companyProblems, contactProblems, MAX_PAGE_SIZE, COMPANY_MESSAGES, CONTACT_MESSAGES } from '../domain/records';
import { isCurrencyCode } from '../domain/format';

// ---------- shared pieces ----------

export const EntityTypeSchema = z.enum(RECORD_ENTITY_TYPES);
export const FieldDataTypeSchema = z.enum(FIELD_DATA_TYPES);
const offered = OFFERED_FIELD_TYPES.map((t) => t.dataType) as [string, ...string[]];
export const OfferedDataTypeSchema = z.enum(
  offered as [(typeof OFFERED_FIELD_TYPES)[number]['dataType'], ...(typeof OFFERED_FIELD_TYPES)[number]['dataType'][]],
  { message: 'Please pick a data type' },
);

export const OwnerRef = z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() });
export type OwnerRef = z.infer<typeof OwnerRef>;

/** A currency field's own currency (ISO 4217); null or absent: the organization's default. */
const CurrencyOverride = z.string().refine(isCurrencyCode, { message: 'Please choose a valid currency' }).nullable();
export const FieldConfig = z.object({
  reconciliation: z.enum(RECONCILIATIONS).default('use_latest'),
  refreshSchedule: z.enum(REFRESH_SCHEDULES).default('never'),
  currency: CurrencyOverride.optional(),
});
export type FieldConfig = z.infer<typeof FieldConfig>;
/** A change to a field's config: only the keys sent (no defaults, which would reset the others). */
export const FieldConfigPatch = z.object({
  reconciliation: z.enum(RECONCILIATIONS).optional(),
  refreshSchedule: z.enum(REFRESH_SCHEDULES).optional(),
  currency: CurrencyOverride.optional(),
});

export const FieldDto = z.object({
  id: z.string(),
  key: z.string(),
  label: z.string(),
  dataType: FieldDataTypeSchema,
  entityType: EntityTypeSchema,
  namespace: z.enum(FIELD_NAMESPACES),
  isMandatory: z.boolean(),
  isPseudo: z.boolean(),
  /** Built-in fields map to a column of the record (name, website…); custom fields do not. */
  builtIn: z.boolean(),
  config: FieldConfig,
  /** A currency field's currency: its own, else the organization's default (null for other types). */
  currency: z.string().nullable().optional(),
  assignedEnrichments: z.array(z.object({ id: z.string(), name: z.string(), isPrimary: z.boolean() })),
});
export type FieldDto = z.infer<typeof FieldDto>;

export const FieldValueDto = z.object({
  fieldId: z.string(),
  value: z.unknown(),
  // Any JSON value, null included (`.nullable()` on unknown would add nothing but an `anyOf` with an empty schema).
  infoValue: z.unknown(),
  status: z.string().nullable(),
  statusMessage: z.string().nullable(),
  details: z.unknown(),
  updatedAt: z.string(),
});
export type FieldValueDto = z.infer<typeof FieldValueDto>;

// ---------- fields ----------

export const EntityTypeQuery = z.object({ entityType: EntityTypeSchema.optional() });

// GET /api/v1/entity/fields
export const GetFieldsResponse = z.object({ success: z.literal(true), fields: z.array(FieldDto) });

export const FilterFieldDto = z.object({
  key: z.string(),
  label: z.string(),
  dataType: FieldDataTypeSchema,
  entityType: EntityTypeSchema,
  conditions: z.array(z.enum(FILTER_CONDITIONS)),
});
export type FilterFieldDto = z.infer<typeof FilterFieldDto>;
// GET /api/v1/entity/filters-fields
export const GetFilterFieldsResponse = z.object({ success: z.literal(true), fields: z.array(FilterFieldDto) });

const fieldLabel = z.string({ message: FIELD_MESSAGES.nameMin }).superRefine((v, ctx) => {
  const p = fieldNameProblem(v);
  if (p) ctx.addIssue({ code: 'custom', message: p });
});
// POST /api/v1/entity/field
export const CreateFieldBody = z.object({
  label: fieldLabel,
  dataType: OfferedDataTypeSchema,
  entityType: EntityTypeSchema,
  config: FieldConfigPatch.optional(),
});
export type CreateFieldBody = z.infer<typeof CreateFieldBody>;
export const FieldResponse = z.object({ success: z.literal(true), message: z.string(), field: FieldDto });

// PUT /api/v1/entity/set-config
export const SetFieldConfigBody = z.object({ fieldId: z.uuid(), config: FieldConfigPatch });
export type SetFieldConfigBody = z.infer<typeof SetFieldConfigBody>;

// PUT /api/v1/entity/company/field and /contact/field
export const SetFieldValueBody = z.object({
  entityType: EntityTypeSchema.optional(),
  entityId: z.uuid(),
  fieldId: z.uuid(),
  value: z.unknown(),
});
export type SetFieldValueBody = z.infer<typeof SetFieldValueBody>;
export const SetFieldValueResponse = z.object({ success: z.literal(true), message: z.string(), value: FieldValueDto.nullable() });

// ---------- companies and contacts ----------

const ownerId = z.uuid().nullable().optional();

export const CompanyInput = z
  .object({
    name: z.string().optional().nullable(),
    website: z.string().optional().nullable(),
    accountOwnerId: ownerId,
  })
  .superRefine((c, ctx) => {
    for (const [path, message] of Object.entries(companyProblems(c))) ctx.addIssue({ code: 'custom', path: [path], message });
  });
export type CompanyInput = z.infer<typeof CompanyInput>;

export const ContactInput = z
  .object({
    firstName: z.string().optional().nullable(),
    lastName: z.string().optional().nullable(),
    email: z.string().optional().nullable(),
    accountOwnerId: ownerId,
  })
  .superRefine((c, ctx) => {
    for (const [path, message] of Object.entries(contactProblems(c))) ctx.addIssue({ code: 'custom', path: [path], message });
  });
export type ContactInput = z.infer<typeof ContactInput>;

export const MappingDto = z.object({
  companyId: z.string(),
  contactId: z.string(),
  isKey: z.boolean(),
  isPrimary: z.boolean(),
  label: z.string().nullable(),
  value: z.string().nullable(),
});
export type MappingDto = z.infer<typeof MappingDto>;

export const ContactRef = z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() });
export const CompanyRef = z.object({ id: z.string(), name: z.string(), website: z.string(), domain: z.string() });

export const CompanyDto = z.object({
  id: z.string(),
  name: z.string(),
  website: z.string(),
  domain: z.string(),
  owner: OwnerRef.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  keyContact: ContactRef.nullable(),
  contactCount: z.number(),
  fields: z.record(z.string(), FieldValueDto),
});
export type CompanyDto = z.infer<typeof CompanyDto>;

export const ContactDto = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  owner: OwnerRef.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  primaryCompany: CompanyRef.nullable(),
  companyCount: z.number(),
  fields: z.record(z.string(), FieldValueDto),
});
export type ContactDto = z.infer<typeof ContactDto>;

/** The company drawer: the company, its contacts (key first, then by label) and their links. */
export const CompanyDetails = CompanyDto.extend({
  entityMapping: z.array(MappingDto.extend({ firstName: z.string(), lastName: z.string(), email: z.string() })),
});
export type CompanyDetails = z.infer<typeof CompanyDetails>;
export const ContactDetails = ContactDto.extend({
  entityMapping: z.array(MappingDto.extend({ name: z.string(), website: z.string() })),
});
export type ContactDetails = z.infer<typeof ContactDetails>;

// POST /api/v1/entity/company — a company, optionally with a new linked contact or an existing one.
export const CreateCompanyBody = z.object({
  company: CompanyInput,
  contact: ContactInput.optional(),
  assignContactId: z.uuid().optional(),
});
export type CreateCompanyBody = z.infer<typeof CreateCompanyBody>;
export const CompanyResponse = z.object({ success: z.literal(true), message: z.string(), company: CompanyDetails });
export type CompanyResponse = z.infer<typeof CompanyResponse>;

// POST /api/v1/entity/contact — a contact, optionally with a new linked company or an existing one.
export const CreateContactBody = z.object({
  contact: ContactInput,
  company: CompanyInput.optional(),
  assignCompanyId: z.uuid().optional(),
});
export type CreateContactBody = z.infer<typeof CreateContactBody>;
export const ContactResponse = z.object({ success: z.literal(true), message: z.string(), contact: ContactDetails });
export type ContactResponse = z.infer<typeof ContactResponse>;

// POST /api/v1/entity — a company and a contact together, linked (key contact, primary company).
export const CreateEntityPairBody = z.object({ company: CompanyInput, contact: ContactInput });
export const EntityPairResponse = z.object({ success: z.literal(true), message: z.string(), companyId: z.string(), contactId: z.string() });

// PUT /api/v1/entity/company, PUT /api/v1/entity/contact
export const UpdateCompanyBody = z.object({
  id: z.uuid(),
  company: CompanyInput,
  assignContactId: z.uuid().optional(),
  accountOwnerId: ownerId,
});
export type UpdateCompanyBody = z.infer<typeof UpdateCompanyBody>;
export const UpdateContactBody = z.object({
  id: z.uuid(),
  contact: ContactInput,
  assignCompanyId: z.uuid().optional(),
  accountOwnerId: ownerId,
});
export type UpdateContactBody = z.infer<typeof UpdateContactBody>;

// POST /api/v1/entity/create (201 with companyId or contactId), PUT /api/v1/entity/update
export const GenericCreateBody = z.discriminatedUnion('entityType', [
  z.object({ entityType: z.literal('company'), data: CompanyInput }),
  z.object({ entityType: z.literal('contact'), data: ContactInput }),
]);
export const GenericCreateResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  companyId: z.string().optional(),
  contactId: z.string().optional(),
});
export const GenericUpdateBody = z.discriminatedUnion('entityType', [
  z.object({ entityType: z.literal('company'), id: z.uuid(), data: CompanyInput }),
  z.object({ entityType: z.literal('contact'), id: z.uuid(), data: ContactInput }),
]);
export const GenericUpdateResponse = z.object({ success: z.literal(true), message: z.string() });

// Links between companies and contacts.
export const LinkBody = z.object({
  companyId: z.uuid(),
  contactId: z.uuid(),
  label: z.string().trim().max(100).nullable().optional(),
  value: z.string().trim().max(255).nullable().optional(),
});
export type LinkBody = z.infer<typeof LinkBody>;
// PUT /api/v1/entity/mapping-contact (company side: isKey) and /mapping-company (contact side: isPrimary)
export const MappingContactBody = LinkBody.extend({ isKey: z.boolean().optional(), remove: z.boolean().optional() });
export const MappingCompanyBody = LinkBody.extend({ isPrimary: z.boolean().optional(), remove: z.boolean().optional() });
export const MappingResponse = z.object({ success: z.literal(true), message: z.string(), mapping: MappingDto.nullable() });
// PUT /api/v1/company/set-key, PUT /api/v1/contact/set-primary
export const PairBody = z.object({ companyId: z.uuid(), contactId: z.uuid() });

// POST /api/v1/entity/search, /company/search, /contact/search
export const SearchBody = z.object({
  query: z.string().max(200).default(''),
  entityType: EntityTypeSchema.optional(),
  limit: z.number().int().min(1).max(50).default(20),
});
export type SearchBody = z.input<typeof SearchBody>;
export const SearchHit = z.object({ id: z.string(), entityType: EntityTypeSchema, title: z.string(), subtitle: z.string() });
export type SearchHit = z.infer<typeof SearchHit>;
export const SearchResponse = z.object({ success: z.literal(true), results: z.array(SearchHit) });

// GET /api/v1/company/owners-list: active, accepted, not deleted members.
export const OwnerOption = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  active: z.boolean(),
  invitationAccepted: z.boolean(),
  deleted: z.boolean(),
});
export const OwnersResponse = z.object({ success: z.literal(true), owners: z.array(OwnerOption) });

// ---------- tables ----------

export const FilterItemSchema = z.object({ id: z.string(), condition: z.enum(FILTER_CONDITIONS), data: z.unknown() });
export const TableFilterSchema = z.object({
  key: z.string().min(1),
  details: z.object({ label: z.string().optional(), dataType: FieldDataTypeSchema.optional(), key: z.string().optional() }).optional(),
  operator: z.enum(['and', 'or']).default('and'),
  items: z.array(FilterItemSchema).min(1, 'Please fill in all condition values before saving.'),
});

export const TableQuery = z.object({
  pageIndex: z.number().int().min(0).default(0),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
  sortKey: z.string().max(100).nullable().optional(),
  sortOrder: z.enum(['asc', 'desc']).nullable().optional(),
  text: z.string().max(200).default(''),
  valueStats: z.tuple([z.number(), z.number()]).default([0, 10]),
  filters: z.array(TableFilterSchema).max(50).default([]),
  lists: z.array(z.uuid()).default([]),
  // Next / Previous on an estimated set (more than 10,000 matches): the last (first) row of the
  // page shown, so the next (previous) page starts right after (before) it. Ignored for exact sets.
  afterId: z.uuid().optional(),
  beforeId: z.uuid().optional(),
});
export type TableQuery = z.input<typeof TableQuery>;

// POST /api/v1/company/get-companies, /contact/get-contacts. Above EXACT_TOTAL_MAX (10,000)
// matches `totalRecords` (and `totalPages` from it) may be an estimate, and then
// `totalIsEstimate` is true ('about 37,700 records'); up to 10,000 it is always exact. Bulk
// actions on 'all selected' act on the exact set whatever the estimate said.
const totalIsEstimate = z
  .boolean()
  .optional()
  .describe('true: totalRecords is an estimate (more than 10,000 matches); absent or false: exact');
export const CompaniesPage = z.object({
  success: z.literal(true),
  rows: z.array(CompanyDto),
  totalRecords: z.number(),
  totalIsEstimate,
  totalPages: z.number(),
  hasRecords: z.boolean(),
  pageIndex: z.number(),
  pageSize: z.number(),
});
export type CompaniesPage = z.infer<typeof CompaniesPage>;
export const ContactsPage = z.object({
  success: z.literal(true),
  rows: z.array(ContactDto),
  totalRecords: z.number(),
  totalIsEstimate,
  totalPages: z.number(),
  hasRecords: z.boolean(),
  pageIndex: z.number(),
  pageSize: z.number(),
});
export type ContactsPage = z.infer<typeof ContactsPage>;

// POST /api/v1/company/count-companies, /contact/count-contacts: the exact number of records a
// search and filters match — the figure that follows an estimated total without blocking the page.
export const TableTotalQuery = TableQuery.pick({ text: true, filters: true });
export type TableTotalQuery = z.input<typeof TableTotalQuery>;
export const TableTotal = z.object({ success: z.literal(true), totalRecords: z.number().int() });
export type TableTotal = z.infer<typeof TableTotal>;

/** Bulk requests: explicit ids, or 'all selected across pages' given by the filters that define the set. */
export const Selection = z.union([
  z.object({ ids: z.array(z.uuid()).min(1).max(10_000) }),
  z.object({
    allSelected: z.literal(true),
    text: z.string().max(200).default(''),
    filters: z.array(TableFilterSchema).max(50).default([]),
    excludeIds: z.array(z.uuid()).max(10_000).default([]),
  }),
]);
export type Selection = z.input<typeof Selection>;

// POST /api/v1/company/export, /contact/export → text/csv attachment
export const ExportBody = z.object({
  selection: Selection,
  columns: z.array(z.string()).max(200).optional(),
  sortKey: z.string().nullable().optional(),
  sortOrder: z.enum(['asc', 'desc']).nullable().optional(),
});
export type ExportBody = z.input<typeof ExportBody>;

// POST /api/v1/company/bulk-delete, /contact/bulk-delete
export const BulkDeleteBody = z.object({ selection: Selection });
export const BulkResponse = z.object({ success: z.literal(true), message: z.string(), count: z.number() });

// GET /api/v1/company/details/{id}, /contact/details/{id}
export const CompanyDetailsResponse = z.object({ success: z.literal(true), company: CompanyDetails });
export const ContactDetailsResponse = z.object({ success: z.literal(true), contact: ContactDetails });

// ---------- per-user table layouts ----------

export const LayoutColumn = z.object({
  key: z.string().min(1).max(100),
  order: z.number().int().min(0),
  width: z.number().int().min(40).max(2000).default(150),
  visible: z.boolean().default(true),
});
export const TableLayoutDto = z.object({
  id: z.string(),
  entityType: EntityTypeSchema,
  name: z.string(),
  columns: z.array(LayoutColumn),
  updatedAt: z.string(),
});
export type TableLayoutDto = z.infer<typeof TableLayoutDto>;
export const TableLayoutBody = z.object({
  name: z.string().trim().min(1).max(100).default('Default'),
  columns: z.array(LayoutColumn).max(300),
});
export type TableLayoutBody = z.input<typeof TableLayoutBody>;
export const UpdateTableLayoutBody = TableLayoutBody.extend({ id: z.uuid() });
export const TableLayoutsResponse = z.object({ success: z.literal(true), layouts: z.array(TableLayoutDto) });
export const TableLayoutResponse = z.object({ success: z.literal(true), layout: TableLayoutDto });

export const RECORD_MESSAGES = { company: COMPANY_MESSAGES, contact: CONTACT_MESSAGES } as const;
