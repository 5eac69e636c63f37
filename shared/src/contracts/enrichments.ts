// Enrichment routes (spec 002 §7 'Enrichment and field assignment', spec 001 §7 GET /enrichment/executions)
// and the realtime events of enrichment results. Base path /api/v1.
import { z } from 'zod';
import {
  ENRICHMENT_TYPES,
  ENRICHMENT_ENTITY_TYPES,
  RUNNABLE_ENRICHMENT_ENTITY_TYPES,
  ENRICHMENT_RESULT_STATUSES,
  ENRICHMENT_PROVIDERS,
  ENRICHMENT_MESSAGES,
} from '../domain/enrichments';
import { TableFilterSchema, FieldValueDto } from './records';
import { ExecutionDto } from './executions';
import { IdeaFilters } from './idea-filters';

export const EnrichmentTypeSchema = z.enum(ENRICHMENT_TYPES);
export const EnrichmentEntityTypeSchema = z.enum(ENRICHMENT_ENTITY_TYPES);
export const RunnableEntityTypeSchema = z.enum(RUNNABLE_ENRICHMENT_ENTITY_TYPES);
export const EnrichmentResultStatusSchema = z.enum(ENRICHMENT_RESULT_STATUSES);
/** ENRICHMENT_PROVIDERS' values. */
export const EnrichmentProviderSchema = z.enum([
  'dealscout',
  'mixrank',
] as const satisfies readonly (typeof ENRICHMENT_PROVIDERS)[number]['value'][]);
/** The palette of spec 001 §2. */
export const EnrichmentColorSchema = z.enum(['rose', 'orange', 'amber', 'lime', 'green', 'teal', 'sky', 'indigo', 'violet']);

// ---------- pieces ----------

/** A schema item (spec 001 §3). Problems (name, description, categorical values) are reported by the server with the spec's messages. */
export const SchemaItemSchema = z.object({
  name: z.string().max(64).default(''),
  type: z.enum(['string', 'number', 'boolean', 'categories', 'array']).default('string'),
  description: z.string().max(2000).default(''),
  required: z.boolean().default(false),
  createColumn: z.boolean().default(false),
  enumValues: z.array(z.string().max(200)).max(200).optional(),
  enumType: z.enum(['best', 'all', 'topN']).optional(),
  enumTopN: z.number().int().min(1).optional(),
  expanded: z.boolean().optional(),
  deleteOnUpdate: z.boolean().optional(),
});
export type SchemaItemInput = z.input<typeof SchemaItemSchema>;
export type SchemaItemDto = z.infer<typeof SchemaItemSchema>;

/**
 * Rich prompt nodes (spec 001 §3): a flat list of text, field boxes (a field's value of the entity)
 * and enrich boxes (another enrichment's result at `path`, default '$.result'). A plain string is
 * accepted too (text only).
 */
export const PromptNodeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().max(20_000) }),
  z.object({
    type: z.literal('field-box'),
    id: z.string().max(64),
    fieldId: z.uuid(),
    autorun: z.boolean().default(false),
    required: z.boolean().default(false),
  }),
  z.object({
    type: z.literal('enrich-box'),
    id: z.string().max(64),
    enrichmentId: z.uuid(),
    path: z.string().max(200).default('$.result'),
    autorun: z.boolean().default(false),
    required: z.boolean().default(false),
  }),
]);
export type PromptNodeInput = z.input<typeof PromptNodeSchema>;
export const PromptSchema = z.union([z.string().max(20_000), z.array(PromptNodeSchema).max(500)]);
export type PromptInput = z.input<typeof PromptSchema>;

/**
 * A list column (spec 002 §3). `width` defaults to the spec's 70 (px), which means 'not resized':
 * the ideas table sizes such a column from its content (at least 70 px); any other width is the
 * one the user gave it.
 */
export const ListColumnSchema = z.object({
  id: z.string().max(64),
  path: z.string().max(200),
  keys: z.array(z.string().max(100)).max(50).default([]),
  label: z.string().max(200),
  order: z.number().int().min(0).default(0),
  width: z.number().int().min(20).max(2000).default(70),
  sortOrder: z.enum(['asc', 'desc']).nullable().optional(),
});
export type ListColumn = z.infer<typeof ListColumnSchema>;

// ---------- configs ----------

/** An enrichment config (spec 002 §3): one per type and entity type, the same for every organization. */
export const EnrichmentConfigDto = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  entityType: EnrichmentEntityTypeSchema,
  enrichmentType: EnrichmentTypeSchema,
  /** The type's label ('LLM Prompt', 'AI Agent', 'Deep Research Agent', 'LinkedIn') and name prefix ('Linkedin' for names). */
  label: z.string(),
  namePrefix: z.string(),
  data: z.record(z.string(), z.unknown()),
  provider: EnrichmentProviderSchema,
  llmModelId: z.string().nullable(),
  /** Idea configs: the schema of the answer (LinkedIn: the built-in company info fields). */
  responseSchema: z.array(SchemaItemSchema).nullable(),
  /** Whether the form has a prompt and a schema (the LinkedIn form has a name only). */
  hasPrompt: z.boolean(),
});
export type EnrichmentConfigDto = z.infer<typeof EnrichmentConfigDto>;
// GET /api/v1/enrichment/configs (company and contact), GET /api/v1/enrichment/idea/configs
export const EnrichmentConfigsResponse = z.object({ success: z.literal(true), configs: z.array(EnrichmentConfigDto) });
export type EnrichmentConfigsResponse = z.infer<typeof EnrichmentConfigsResponse>;

// ---------- enrichments ----------

export const EnrichmentDataDto = z.object({
  prompt: PromptSchema.nullable(),
  schema: z.array(SchemaItemSchema),
  /** The strict JSON schema sent to the model (derived from `schema`). */
  jsonSchema: z.record(z.string(), z.unknown()).nullable(),
  listId: z.string().nullable(),
  llmModelId: z.string(),
  color: EnrichmentColorSchema.nullable(),
  fieldIdToAssign: z.string().nullable(),
  isFieldPrimary: z.boolean(),
  scrapeFieldId: z.string().nullable(),
  websiteToScrape: z.string().nullable(),
});
export type EnrichmentDataDto = z.infer<typeof EnrichmentDataDto>;

/** An enrichment (spec 001 §3, spec 002 §3). */
export const EnrichmentDto = z.object({
  id: z.string(),
  name: z.string(),
  entityType: EnrichmentEntityTypeSchema,
  configId: z.string(),
  config: z.object({
    id: z.string(),
    name: z.string(),
    enrichmentType: EnrichmentTypeSchema,
    description: z.string(),
    provider: EnrichmentProviderSchema,
  }),
  provider: EnrichmentProviderSchema,
  /** The field it is assigned to (null = unassigned). */
  entityFieldId: z.string().nullable(),
  field: z.object({ id: z.string(), key: z.string(), label: z.string(), dataType: z.string() }).nullable(),
  isPrimary: z.boolean(),
  llmModelId: z.string(),
  listColumns: z.array(ListColumnSchema),
  listCompanyId: z.string().nullable(),
  color: EnrichmentColorSchema.nullable(),
  createdBy: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  data: EnrichmentDataDto,
});
export type EnrichmentDto = z.infer<typeof EnrichmentDto>;

/**
 * The enrichment form payload (spec 001 §3). The LinkedIn form sends `enrichmentName` instead of
 * `name`. Missing name, prompt or schema and bad schema items answer 400 with the spec's message
 * ('Name is required', 'Prompt is required', 'Schema is required', 'Schema name is required',
 * 'Schema description is required', 'Schema categorical values are required') and `issues` per path
 * (`schema.{i}.name`…). An empty name on create is replaced by a generated one only when
 * `generateName` is true.
 */
export const EnrichmentFormBody = z.object({
  configId: z.string().min(1, ENRICHMENT_MESSAGES.invalid).max(64),
  entityType: EnrichmentEntityTypeSchema.optional(),
  listId: z.uuid().nullable().optional(),
  name: z.string().max(200).optional(),
  enrichmentName: z.string().max(200).optional(),
  generateName: z.boolean().optional(),
  llmModelId: z.string().max(200).default('default'),
  prompt: PromptSchema.nullable().optional(),
  schema: z.array(SchemaItemSchema).max(100).nullable().optional(),
  color: EnrichmentColorSchema.nullable().optional(),
  fieldIdToAssign: z.uuid().nullable().optional(),
  isFieldPrimary: z.boolean().optional(),
  websiteToScrape: z.string().max(2000).nullable().optional(),
  scrapeFieldId: z.uuid().nullable().optional(),
});
export type EnrichmentFormBody = z.input<typeof EnrichmentFormBody>;
// PUT /api/v1/enrichment
export const UpdateEnrichmentBody = EnrichmentFormBody.extend({ id: z.uuid({ message: ENRICHMENT_MESSAGES.notFound }) });
export type UpdateEnrichmentBody = z.input<typeof UpdateEnrichmentBody>;
// POST /api/v1/enrichment → 201 { id, enrichment }; PUT → 200 { id, enrichment }
export const EnrichmentResponse = z.object({ success: z.literal(true), message: z.string(), id: z.string(), enrichment: EnrichmentDto });
export type EnrichmentResponse = z.infer<typeof EnrichmentResponse>;
// GET /api/v1/enrichment/{id}
export const GetEnrichmentResponse = z.object({ success: z.literal(true), enrichment: EnrichmentDto });

// GET /api/v1/enrichment/next-name?configId=… → 'LLM Prompt 3'
export const NextNameQuery = z.object({ configId: z.string().min(1).max(64) });
export const NextNameResponse = z.object({ success: z.literal(true), name: z.string() });

// PUT /api/v1/enrichment/set-color
export const SetColorBody = z.object({
  enrichmentId: z.uuid({ message: ENRICHMENT_MESSAGES.notFound }),
  color: EnrichmentColorSchema.nullable(),
});
export type SetColorBody = z.infer<typeof SetColorBody>;
// PUT /api/v1/enrichment/column
export const SetColumnsBody = z.object({
  enrichmentId: z.uuid({ message: ENRICHMENT_MESSAGES.notFound }),
  listColumns: z.array(ListColumnSchema).max(200),
});
export type SetColumnsBody = z.input<typeof SetColumnsBody>;

// POST /api/v1/enrichment/assign, POST /api/v1/enrichment/unassign, PUT /api/v1/enrichment/set-primary
// (the first enrichment assigned to a field becomes its primary one)
export const AssignBody = z.object({
  fieldId: z.uuid({ message: ENRICHMENT_MESSAGES.fieldNotFound }),
  enrichmentId: z.uuid({ message: ENRICHMENT_MESSAGES.notFound }),
});
export type AssignBody = z.infer<typeof AssignBody>;

// POST /api/v1/enrichment/list
export const EnrichmentListBody = z.object({
  text: z.string().max(200).default(''),
  /** Provider filter: 'dealscout' (our own) and/or 'mixrank'. */
  provider: z.array(EnrichmentProviderSchema).max(2).default([]),
  /** Creator user ids. */
  createdBy: z.array(z.uuid()).max(200).default([]),
  /** Created date range, inclusive, YYYY-MM-DD (either end may be missing). */
  createdAt: z
    .object({
      from: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .nullable()
        .optional(),
      to: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
  entityType: EnrichmentEntityTypeSchema.optional(),
  pageIndex: z.number().int().min(0).default(0),
  /** Rows per page (10 by default); 100 fetches all for pickers (spec: take 100). `take` is an alias. */
  pageSize: z.number().int().min(1).max(100).optional(),
  take: z.number().int().min(1).max(100).optional(),
  /** name | entityType | field | isPrimary | createdBy | createdAt | updatedAt (default createdAt desc). */
  sortKey: z.string().max(50).nullable().optional(),
  sortOrder: z.enum(['asc', 'desc']).nullable().optional(),
});
export type EnrichmentListBody = z.input<typeof EnrichmentListBody>;
export const EnrichmentListResponse = z.object({
  success: z.literal(true),
  enrichments: z.array(EnrichmentDto),
  totalRecords: z.number(),
  totalPages: z.number(),
  hasRecords: z.boolean(),
  pageIndex: z.number(),
  pageSize: z.number(),
});
export type EnrichmentListResponse = z.infer<typeof EnrichmentListResponse>;
// GET /api/v1/enrichment/list/creators — who created enrichments (the Created By filter)
export const EnrichmentCreatorsResponse = z.object({
  success: z.literal(true),
  users: z.array(z.object({ id: z.string(), firstName: z.string(), lastName: z.string() })),
});
// GET /api/v1/enrichment/{listId}/list — the enrichments of a list
export const ListEnrichmentsResponse = z.object({ success: z.literal(true), enrichments: z.array(EnrichmentDto) });

// ---------- running ----------

/** The rows of an all-selected run: the same filters that define the table (see records' Selection). */
export const EntityFiltersSchema = z.object({
  allSelected: z.literal(true),
  text: z.string().max(200).default(''),
  filters: z.array(TableFilterSchema).max(50).default([]),
  excludeIds: z.array(z.uuid()).max(10_000).default([]),
});

/**
 * POST /api/v1/enrichment/execute: `entityIds` (the selected rows) or `entityFilters` (all selected
 * across pages). `options.onlyEmpty`: only rows whose assigned field is empty (or, when the
 * enrichment has no field, rows without a completed result). Messages: no enrichment or one of
 * another entity type → 400 'Invalid Enrichment'; no rows → 400 'Please select a company.' /
 * 'Please select a contact.' / 'Please select an idea.'; only-empty with none empty → 400 'No empty rows to enrich.';
 * unknown id → 404 'Enrichment not found.'.
 */
export const ExecuteEnrichmentBody = z.object({
  enrichmentId: z.uuid({ message: ENRICHMENT_MESSAGES.invalid }),
  entityType: RunnableEntityTypeSchema,
  entityIds: z.array(z.uuid()).max(10_000).optional(),
  entityFilters: EntityFiltersSchema.nullable().optional(),
  /**
   * Ideas all selected across pages (entityType 'idea'): the ideas table's filters of one list
   * (listCompanyId; default the enrichment's list), minus excludeIds.
   */
  ideaFilters: IdeaFilters.extend({ listCompanyId: z.uuid().nullable().optional() }).nullable().optional(),
  /** Ideas: the ideas table's sort, so the rows run in the table's order (default: the table's, newest first). */
  sort: z
    .object({ key: z.string().max(100), order: z.enum(['asc', 'desc']) })
    .nullable()
    .optional(),
  options: z.object({ onlyEmpty: z.boolean().default(false) }).default({ onlyEmpty: false }),
});
export type ExecuteEnrichmentBody = z.input<typeof ExecuteEnrichmentBody>;

export const ExecuteItemDto = z.object({
  entityId: z.string(),
  executionId: z.string().nullable(),
  /** started: queued now; duplicate: already queued or running (its execution id); failed: not a row of the organization. */
  status: z.enum(['started', 'duplicate', 'failed']),
  message: z.string().optional(),
});
export type ExecuteItemDto = z.infer<typeof ExecuteItemDto>;
/**
 * The ids form answers `items` (one per id, in order); the all-selected form answers only counts.
 * `count` = executions started. Message: 'N enrichment execution(s) started'.
 */
export const ExecuteEnrichmentResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  count: z.number(),
  started: z.number(),
  duplicates: z.number(),
  failed: z.number(),
  items: z.array(ExecuteItemDto).optional(),
  /** The run of the executions started (its progress: POST /execution/progress), when any started. */
  runId: z.string().nullable().optional(),
});
export type ExecuteEnrichmentResponse = z.infer<typeof ExecuteEnrichmentResponse>;

// GET /api/v1/enrichment/executions — the organization's active enrichment executions (to restore cell statuses after a reload)
export const EnrichmentExecutionsResponse = z.object({ success: z.literal(true), executions: z.array(ExecutionDto) });

// ---------- results ----------

/**
 * The latest result of one enrichment for one record (spec 001 §3 'Enrichment result'). `status`
 * already follows the running execution (preprocessing while queued — `value` then still holds the
 * previous answer, shown greyed — processing while it runs, error with statusMessage defaulting to
 * 'Error parsing data', complete). `value.result` is the answer object (a plain answer is `{answer}`).
 */
export const EnrichmentResultDto = z.object({
  id: z.string(),
  enrichmentId: z.string(),
  entityType: RunnableEntityTypeSchema,
  entityId: z.string(),
  executionId: z.string().nullable(),
  status: EnrichmentResultStatusSchema,
  statusMessage: z.string().nullable(),
  value: z.object({ result: z.record(z.string(), z.unknown()).nullable() }),
  /** Pages and searches the agents used (empty for llm). */
  sources: z.array(z.object({ url: z.string(), title: z.string().nullable() })),
  updatedAt: z.string(),
});
export type EnrichmentResultDto = z.infer<typeof EnrichmentResultDto>;

// POST /api/v1/enrichment/results — the latest result per enrichment for records (a table page or a drawer)
export const EnrichmentResultsBody = z.object({
  entityType: RunnableEntityTypeSchema,
  entityIds: z.array(z.uuid()).min(1).max(1000),
  enrichmentIds: z.array(z.uuid()).max(500).optional(),
});
export type EnrichmentResultsBody = z.input<typeof EnrichmentResultsBody>;
export const EnrichmentResultsResponse = z.object({ success: z.literal(true), results: z.array(EnrichmentResultDto) });
export type EnrichmentResultsResponse = z.infer<typeof EnrichmentResultsResponse>;

// ---------- realtime ----------

/**
 * Realtime events of enrichment runs, all on `org/{oid}/executions/enrichment/{entityType}`
 * (realtimePaths.executions(oid, 'enrichment', entityType)):
 *  - kind 'execution.updated' (ExecutionDto; typeId = enrichment id, entityId = the record): scheduled
 *    → processing → completed | error | cancelled. Map with resultStatusOfExecution().
 *  - kind 'enrichment.result' (EnrichmentResultDto), key `enrichment-result:{enrichmentId}:{entityId}`:
 *    preprocessing when queued, complete or error with the value when done.
 * And on `org/{oid}/entities/{entityType}`:
 *  - kind 'field.value' (FieldValueEvent), key `field:{fieldId}:{entityId}`: a field value written back
 *    by a primary assigned enrichment.
 */
export { ENRICHMENT_EVENT_KINDS } from '../domain/realtime';
export const EnrichmentResultEvent = EnrichmentResultDto;
export const FieldValueEvent = z.object({
  entityType: RunnableEntityTypeSchema,
  entityId: z.string(),
  fieldId: z.string(),
  value: FieldValueDto.nullable(),
});
export type FieldValueEvent = z.infer<typeof FieldValueEvent>;

// POST /api/v1/enrichment/estimate — what a run over N rows will take before it starts
// ('Cost before a run'): model calls (a ceiling for agents: upTo), AI credits, expected time.
export const EnrichmentEstimateBody = z.object({
  enrichmentId: z.uuid({ message: 'Invalid enrichment' }),
  count: z.number().int().min(0).max(1_000_000),
});
export type EnrichmentEstimateBody = z.infer<typeof EnrichmentEstimateBody>;
export const EnrichmentEstimateResponse = z.object({
  success: z.literal(true),
  modelCalls: z.number(),
  upTo: z.boolean(),
  creditsRemaining: z.number().nullable(),
  creditsTotal: z.number().nullable(),
  exceedsCredits: z.boolean(),
  concurrency: z.number(),
  expectedSeconds: z.number(),
  message: z.string(),
});
export type EnrichmentEstimateResponse = z.infer<typeof EnrichmentEstimateResponse>;
