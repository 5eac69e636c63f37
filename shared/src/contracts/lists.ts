// Lists, list sources and ideas (spec 002 §7 'Ideas', 'Lists and sources').
import { z } from 'zod';
import { LIST_STATUSES, LIST_SOURCE_STATUSES, LIST_MESSAGES, LIST_NAME_MAX } from '../domain/lists';
import { MAX_PAGE_SIZE } from '../domain/records';
import { EnrichmentDto, EnrichmentResultDto } from './enrichments';
import { IdeaFilters, IdeaStatusSchema } from './idea-filters';

export { IdeaFilters, IdeaStatusSchema };

export const ListStatusSchema = z.enum(LIST_STATUSES);
export const ListSourceStatusSchema = z.enum(LIST_SOURCE_STATUSES);

const UserRef = z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() });

export const ListSourceDto = z.object({
  id: z.string(),
  listCompanyId: z.string(),
  type: z.string(),
  status: ListSourceStatusSchema,
  reason: z.string().nullable(),
  statusSeverity: z.string().nullable(),
  statusReason: z.string().nullable(),
  parameters: z.record(z.string(), z.unknown()),
  shortlisted: z.number(),
  total: z.number(),
  createdAt: z.string(),
});
export type ListSourceDto = z.infer<typeof ListSourceDto>;

export const ListDto = z.object({
  id: z.string(),
  name: z.string(),
  status: ListStatusSchema,
  sources: z.array(ListSourceDto),
  totalSources: z.number(),
  totalShortListedIdeas: z.number(),
  totalIdeas: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: UserRef.nullable(),
});
export type ListDto = z.infer<typeof ListDto>;

/** An idea's scoring result (spec 002 §3; written by scoring). */
export const IdeaScoringResult = z.object({
  id: z.string(),
  scoringModelId: z.string(),
  status: z.string(),
  entityId: z.string(),
  statusMessage: z.string().nullable().optional(),
  details: z.unknown().optional(),
  executionId: z.string().nullable().optional(),
  totalScore: z.number().nullable().optional(),
});

export const IdeaDto = z.object({
  id: z.string(),
  listCompanyId: z.string(),
  name: z.string(),
  website: z.string(),
  domain: z.string(),
  shortListed: z.boolean(),
  status: IdeaStatusSchema,
  sourceIds: z.array(z.string()),
  /** The source row's other columns (a CSV's extra columns). */
  data: z.record(z.string(), z.unknown()),
  enrichmentResults: z.array(EnrichmentResultDto.extend({ entityType: z.string() })),
  scoringResults: z.array(IdeaScoringResult),
  executions: z.array(
    z.object({ id: z.string(), type: z.string(), typeId: z.string().nullable(), status: z.string(), statusMessage: z.string().nullable() }),
  ),
  company: z.object({ id: z.string(), name: z.string(), domain: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type IdeaDto = z.infer<typeof IdeaDto>;

// POST /api/v1/list-company/idea/list
export const IdeaListBody = z.object({
  listCompanyId: z.uuid({ message: LIST_MESSAGES.listNotFound }),
  text: z.string().max(200).default(''),
  inShortlist: z.boolean().nullable().optional(),
  recordStatus: z
    .union([IdeaStatusSchema, z.array(IdeaStatusSchema).max(3)])
    .nullable()
    .optional(),
  listSourceIds: z.array(z.uuid()).max(200).default([]),
  pageIndex: z.number().int().min(0).default(0),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
  /** createdAt (default) | name | website | domain | status | shortListed */
  sortKey: z.string().max(100).nullable().optional(),
  sortOrder: z.enum(['asc', 'desc']).nullable().optional(),
});
export type IdeaListBody = z.input<typeof IdeaListBody>;
export const IdeaListResponse = z.object({
  success: z.literal(true),
  listCompanyIdeas: z.array(IdeaDto),
  hasRecords: z.boolean(),
  totalPages: z.number(),
  totalRecords: z.number(),
  totalIsEstimate: z.boolean().optional().describe('true: totalRecords is an estimate (more than 10,000 matches)'),
  pageIndex: z.number(),
  pageSize: z.number(),
});
export type IdeaListResponse = z.infer<typeof IdeaListResponse>;

// PUT /api/v1/list-company/idea/shortlist — ideaIds, or ideaFilters for 'all selected'
export const ShortlistBody = z.object({
  listId: z.uuid({ message: LIST_MESSAGES.listNotFound }),
  ideaIds: z.array(z.uuid()).max(10_000).optional(),
  status: z.boolean(),
  ideaFilters: IdeaFilters.nullable().optional(),
});
export type ShortlistBody = z.input<typeof ShortlistBody>;

// POST /api/v1/list-company/idea/delete
export const IdeaDeleteBody = z.object({
  listCompanyId: z.uuid({ message: LIST_MESSAGES.listNotFound }),
  listCompanyIdeaIds: z.array(z.uuid()).max(10_000).optional(),
  ideaFilters: IdeaFilters.nullable().optional(),
});
export type IdeaDeleteBody = z.input<typeof IdeaDeleteBody>;

// POST /api/v1/list-company/idea/export
export const IdeaExportBody = z.object({
  listCompanyId: z.uuid({ message: LIST_MESSAGES.listNotFound }),
  ideaIds: z.array(z.uuid()).max(10_000).optional(),
  ideaFilters: IdeaFilters.nullable().optional(),
});
export type IdeaExportBody = z.input<typeof IdeaExportBody>;

export const CountResponse = z.object({ success: z.literal(true), message: z.string(), count: z.number() });
export type CountResponse = z.infer<typeof CountResponse>;

// POST /api/v1/list-company/idea — a manual idea (id: the list)
export const ManualIdeaBody = z.object({
  id: z.uuid({ message: LIST_MESSAGES.listNotFound }),
  companyName: z.string().optional().nullable(),
  website: z.string().optional().nullable(),
});
export type ManualIdeaBody = z.input<typeof ManualIdeaBody>;
export const IdeaResponse = z.object({ success: z.literal(true), message: z.string(), idea: IdeaDto });

// POST /api/v1/list-company/idea/memberships — the lists that hold a company (by its website's
// domain): each with the idea (its shortlist flag, status, scores and enrichment results), the
// list's scoring models and its enrichments (the columns the list shows). Our route (the side panel).
export const IdeaMembershipsBody = z.object({
  website: z.string().trim().min(1, 'Company website is required').max(255, 'URL must be at most 255 characters long'),
});
export type IdeaMembershipsBody = z.input<typeof IdeaMembershipsBody>;
export const IdeaMembershipDto = z.object({
  list: z.object({ id: z.string(), name: z.string(), status: ListStatusSchema }),
  idea: IdeaDto,
  scoringModels: z.array(z.object({ id: z.string(), name: z.string() })),
  enrichments: z.array(EnrichmentDto),
});
export type IdeaMembershipDto = z.infer<typeof IdeaMembershipDto>;
export const IdeaMembershipsResponse = z.object({ success: z.literal(true), domain: z.string(), memberships: z.array(IdeaMembershipDto) });
export type IdeaMembershipsResponse = z.infer<typeof IdeaMembershipsResponse>;

const listName = z.string().trim().min(1, LIST_MESSAGES.listNameRequired).max(LIST_NAME_MAX, LIST_MESSAGES.listNameMax);

// POST /api/v1/list-company — a new, empty list
export const CreateListBody = z.object({ name: listName });
export const ListResponse = z.object({ success: z.literal(true), message: z.string(), list: ListDto });
export type ListResponse = z.infer<typeof ListResponse>;

// PATCH /api/v1/list-company/name
export const RenameListBody = z.object({ listId: z.uuid({ message: LIST_MESSAGES.listNotFound }), name: listName });

// POST /api/v1/list-company/list
export const ListsQuery = z.object({
  text: z.string().max(200).default(''),
  status: z
    .union([ListStatusSchema, z.array(ListStatusSchema).max(2)])
    .nullable()
    .optional(),
  /** Creator user ids. */
  createdBy: z.array(z.uuid()).max(200).default([]),
  pageIndex: z.number().int().min(0).default(0),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
  /** createdAt (default) | updatedAt | name | status | totalIdeas | totalShortListedIdeas | createdBy */
  sortKey: z.string().max(100).nullable().optional(),
  sortOrder: z.enum(['asc', 'desc']).nullable().optional(),
});
export type ListsQuery = z.input<typeof ListsQuery>;
export const ListsPage = z.object({
  success: z.literal(true),
  lists: z.array(ListDto),
  hasRecords: z.boolean(),
  totalPages: z.number(),
  totalRecords: z.number(),
  pageIndex: z.number(),
  pageSize: z.number(),
});
export type ListsPage = z.infer<typeof ListsPage>;

// GET /api/v1/list-company/users — the users who created lists (the Created by filter)
export const ListUsersResponse = z.object({ success: z.literal(true), users: z.array(UserRef) });

// GET /api/v1/list-company/{id}/complete-confirmation
export const CompleteConfirmationResponse = z.object({
  success: z.literal(true),
  /** Shortlisted ideas the completion takes in. */
  total: z.number(),
  /** Of them, those whose domain is already a company (linked, not duplicated). */
  existing: z.number(),
  /** Of them, those that become new companies. */
  candidate: z.number(),
});
export type CompleteConfirmationResponse = z.infer<typeof CompleteConfirmationResponse>;
// POST /api/v1/list-company/{id}/complete
export const CompleteResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  created: z.number(),
  linked: z.number(),
  list: ListDto,
});
export type CompleteResponse = z.infer<typeof CompleteResponse>;

// GET /api/v1/list-company/intentions
export const IntentionsResponse = z.object({
  success: z.literal(true),
  intentions: z.array(z.object({ id: z.string(), name: z.string(), description: z.string() })),
});

// POST /api/v1/list-company/source (multipart) — a CSV upload's outcome
export const SourceUploadResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  sourceId: z.string(),
  /** Data rows read (the header not counted). */
  rows: z.number(),
  /** New ideas. */
  inserted: z.number(),
  /** Rows whose domain was already in the list (the idea gained this source). */
  merged: z.number(),
  /** Rows that did not become ideas (GET /list-company/source/{id}/rejected lists them with their reasons). */
  rejected: z.number(),
  ms: z.number(),
  list: ListDto,
});
export type SourceUploadResponse = z.infer<typeof SourceUploadResponse>;
