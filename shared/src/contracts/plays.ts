// Play routes (spec 001 §7 every /play route; spec 000 §7 'Activities and email') and the email
// draft routes. Base path /api/v1.
import { z } from 'zod';
import {
  PLAY_TYPES,
  PLAY_STATUSES,
  EMAIL_STATUSES,
  PLAY_MESSAGES,
  EMAIL_MESSAGES,
  USER_SETTABLE_EMAIL_STATUSES,
  MISSING_INFO,
} from '../domain/plays';
import { PromptNodeSchema } from './enrichments';

/** Text without NUL bytes or lone surrogates (PostgreSQL cannot store the first; the second is not text). */
export function cleanString(max: number, message = 'Invalid text') {
  return z
    .string()
    .max(max)
    .refine((s) => !s.includes('\u0000') && !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s), { message });
}

export const PlayTypeSchema = z.enum(PLAY_TYPES);
export const PlayStatusSchema = z.enum(PLAY_STATUSES);
export const EmailStatusSchema = z.enum(EMAIL_STATUSES);
export const InstructionsSchema = z.array(PromptNodeSchema).max(500);

const UserRef = z.object({ id: z.string(), firstName: z.string(), lastName: z.string() });

export const PlayDto = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Plain-text view of the instructions (the table's subtext when there is no description). */
  template: z.string(),
  instructions: z.array(z.any()),
  subject: z.string(),
  subjectPrompt: z.string(),
  playType: PlayTypeSchema,
  llmModelId: z.string(),
  status: PlayStatusSchema,
  useCount: z.number(),
  version: z.number(),
  enrichmentsIncluded: z.array(z.object({ id: z.string(), name: z.string() })),
  isProvidedByProduct: z.boolean(),
  createdBy: UserRef.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  templates: z.array(z.object({ template: z.string(), title: z.string(), llmEngine: PlayTypeSchema })),
});
export type PlayDto = z.infer<typeof PlayDto>;

const ddmmyyyy = z.string().regex(/^\d{2}\/\d{2}\/\d{4}$/, 'Dates are DD/MM/YYYY');

// POST /api/v1/play/playbook — the playbook table
export const PlaybookBody = z.object({
  text: cleanString(200).default(''),
  /** Ai (openai) and/or Non-Ai (non_ai). */
  playType: z.array(PlayTypeSchema).max(2).default([]),
  /** Creators; a flagged entry stands for the plays provided by the product. */
  createdBy: z
    .array(z.object({ id: z.string().max(64), originalId: z.string().max(64).optional(), isProvidedByProduct: z.boolean().default(false) }))
    .max(200)
    .default([]),
  /** [from, to] inclusive, DD/MM/YYYY. */
  createdAt: z.array(ddmmyyyy).max(2).default([]),
  pageIndex: z.number().int().min(0).default(0),
  sortKey: z.enum(['name', 'playType', 'enrichmentsIncluded', 'useCount', 'createdBy', 'createdAt']).nullable().optional(),
  sortOrder: z.enum(['asc', 'desc']).nullable().optional(),
});
export type PlaybookBody = z.input<typeof PlaybookBody>;
export const PlaybookResponse = z.object({
  success: z.literal(true),
  playbooks: z.array(PlayDto),
  totalRecords: z.number(),
  totalPages: z.number(),
  hasRecords: z.boolean(),
  pageIndex: z.number(),
  pageSize: z.number(),
});
export type PlaybookResponse = z.infer<typeof PlaybookResponse>;

// GET /api/v1/play — the published plays (Run Play)
export const PlayListResponse = z.object({ success: z.literal(true), plays: z.array(PlayDto) });
// GET /api/v1/play/playbook-users — the Created By filter
export const PlaybookUsersResponse = z.object({
  success: z.literal(true),
  users: z.array(
    z.object({ id: z.string(), originalId: z.string(), firstName: z.string(), lastName: z.string(), isProvidedByProduct: z.boolean() }),
  ),
});

export const PlayResponse = z.object({ success: z.literal(true), message: z.string().optional(), play: PlayDto });
export type PlayResponse = z.infer<typeof PlayResponse>;

// POST /api/v1/play — save (create or update; status draft or published)
export const SavePlayBody = z.object({
  id: z.uuid({ message: PLAY_MESSAGES.invalid }).nullable().optional(),
  name: cleanString(200).default(''),
  description: cleanString(1000).default(''),
  instructions: InstructionsSchema.default([]),
  status: PlayStatusSchema.default('draft'),
  llmProvider: PlayTypeSchema.default('openai'),
  /** The subject line (a template: field boxes in it are filled per target). */
  title: cleanString(500).default(''),
  subjectPrompt: cleanString(2000).default(''),
  llmModelId: cleanString(200).default('default'),
});
export type SavePlayBody = z.input<typeof SavePlayBody>;

// Draft per provider: GET /play/draft/{provider}, PUT /play/draft/{provider}, DELETE /play/draft
export const PlayDraftParams = z.object({ provider: PlayTypeSchema });
export const PlayDraftDto = z.object({
  provider: PlayTypeSchema,
  name: z.string(),
  description: z.string(),
  instructions: z.array(z.any()),
  title: z.string(),
  subjectPrompt: z.string(),
  targetContactId: z.string().nullable(),
  updatedAt: z.string(),
});
export const PlayDraftBody = z.object({
  name: cleanString(200).default(''),
  description: cleanString(1000).default(''),
  instructions: InstructionsSchema.default([]),
  title: cleanString(500).default(''),
  subjectPrompt: cleanString(2000).default(''),
  targetContactId: z.uuid().nullable().optional(),
});
export const PlayDraftResponse = z.object({ success: z.literal(true), message: z.string().optional(), draft: PlayDraftDto.nullable() });
export const DeletePlayDraftQuery = z.object({ provider: PlayTypeSchema.optional() });

// POST /api/v1/play/preview — the email a play would write for one contact (not stored)
export const PlayPreviewBody = z.object({
  playId: z.uuid().nullable().optional(),
  name: cleanString(200).default(''),
  instructions: InstructionsSchema.default([]),
  llmProvider: PlayTypeSchema.default('openai'),
  title: cleanString(500).default(''),
  subjectPrompt: cleanString(2000).default(''),
  llmModelId: cleanString(200).default('default'),
  contactId: z.uuid({ message: PLAY_MESSAGES.selectContact }).nullable().optional(),
});
export const PlayPreviewResponse = z.object({
  success: z.literal(true),
  subject: z.string(),
  body: z.string(),
  model: z.string().nullable(),
  renderedPrompt: z.string(),
  values: z.array(z.object({ box: z.string(), kind: z.enum(['field', 'enrichment']), label: z.string(), value: z.string() })),
});

export type PlayPreviewResponse = z.infer<typeof PlayPreviewResponse>;

// POST /api/v1/play/execute
export const PlayExecuteBody = z.object({
  playId: z.uuid({ message: PLAY_MESSAGES.invalidSelection }).nullable().optional(),
  targetIds: z
    .array(z.uuid({ message: PLAY_MESSAGES.invalidSelection }))
    .max(10_000)
    .default([]),
  entityType: z.enum(['contact', 'company'], { message: PLAY_MESSAGES.invalidSelection }),
  /** The client's id of this run (a retried request with the same id starts nothing twice). */
  executionId: z.string().max(100).nullable().optional(),
});
export type PlayExecuteBody = z.input<typeof PlayExecuteBody>;
export const PlayExecuteItem = z.object({
  success: z.boolean(),
  playExecutionId: z.string().nullable(),
  entityId: z.string(),
  message: z.string().optional(),
});
export type PlayExecuteItem = z.infer<typeof PlayExecuteItem>;
/**
 * A target a run skipped for missing information: who it is, what it lacks, and the record to fix
 * (`fix`: the target itself, or — for a company whose key contact has no address — that contact;
 * `action` 'edit' opens its edit dialog, 'open' its drawer, where links are made).
 */
export const PlaySkippedTarget = z.object({
  entityId: z.string(),
  entityType: z.enum(['contact', 'company']),
  name: z.string(),
  missing: z.array(z.enum(MISSING_INFO)),
  message: z.string(),
  fix: z.object({ entityType: z.enum(['contact', 'company']), id: z.string(), action: z.enum(['edit', 'open']) }),
});
export type PlaySkippedTarget = z.infer<typeof PlaySkippedTarget>;
export const PlayExecuteResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  missing: z.number(),
  items: z.array(PlayExecuteItem),
  /** The targets skipped for missing information (the first SKIPPED_LIST_MAX; `missing` counts them all). */
  skipped: z.array(PlaySkippedTarget).default([]),
  /** The run of the executions started over several targets (its progress: POST /execution/progress). */
  runId: z.string().nullable().optional(),
});
export type PlayExecuteResponse = z.infer<typeof PlayExecuteResponse>;

// POST /api/v1/play/execution/cancel
export const PlayCancelBody = z.object({ executionId: z.uuid({ message: 'Invalid id' }) });

// POST /api/v1/play/estimate — what a run will take before it starts
export const PlayEstimateBody = z.object({
  playId: z.uuid({ message: PLAY_MESSAGES.invalidSelection }),
  count: z.number().int().min(0).max(100_000),
});
export const PlayEstimateResponse = z.object({
  success: z.literal(true),
  modelCalls: z.number(),
  creditsRemaining: z.number().nullable(),
  creditsTotal: z.number().nullable(),
  exceedsCredits: z.boolean(),
  concurrency: z.number(),
  expectedSeconds: z.number(),
  message: z.string(),
});

// ---------- email drafts ----------

export const EmailDraftDto = z.object({
  channelEmailId: z.string(),
  title: z.string(),
  from: z.string(),
  to: z.string(),
  cc: z.array(z.string()),
  subject: z.string(),
  emailBody: z.string(),
  contact: z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() }).nullable(),
  companyId: z.string().nullable(),
  play: z.object({ id: z.string(), name: z.string(), version: z.number().nullable() }).nullable(),
  executionId: z.string().nullable(),
  isAiEmailGenerated: z.boolean(),
  status: EmailStatusSchema,
  statusMessage: z.string().nullable(),
  /** The Cc row is shown (spec 000 §3 'showToFromCC'). */
  showToFromCC: z.boolean(),
  /** A reply to a received message (its subject stays 'Re: …'); messageId: that message's Graph id, when known. */
  reply: z.object({ messageId: z.string().nullable() }).nullable().optional(),
  /** 'Why this email': what made it. */
  provenance: z
    .object({
      model: z.string().nullable(),
      renderedPrompt: z.string(),
      values: z.array(z.object({ box: z.string(), kind: z.enum(['field', 'enrichment']), label: z.string(), value: z.string() })),
      playVersion: z.number().nullable(),
    })
    .nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EmailDraftDto = z.infer<typeof EmailDraftDto>;

export const PendingEmailsResponse = z.object({ success: z.literal(true), emails: z.array(EmailDraftDto) });
export type PendingEmailsResponse = z.infer<typeof PendingEmailsResponse>;
export const EmailResponse = z.object({ success: z.literal(true), message: z.string(), email: EmailDraftDto });
export type EmailResponse = z.infer<typeof EmailResponse>;

const emailList = z.array(z.email({ message: EMAIL_MESSAGES.invalidEmailInfo }).max(254)).max(50);

// POST /api/v1/email/draft — a new empty draft to a contact ('Draft Email to {name}', 'create email with defaults')
export const CreateDraftBody = z.object({
  contactId: z.uuid({ message: EMAIL_MESSAGES.invalidEntity }).nullable().optional(),
  companyId: z.uuid({ message: EMAIL_MESSAGES.invalidEntity }).nullable().optional(),
  /**
   * A reply to the message being read (the Outlook pane's read mode): its subject (the draft's becomes
   * 'Re: <subject>', which a play does not change) and its Graph id (sending answers it, in its thread).
   */
  replyTo: z
    .object({
      subject: cleanString(998, EMAIL_MESSAGES.invalidEmailInfo),
      messageId: z
        .string()
        .min(1)
        .max(1024)
        .regex(/^[A-Za-z0-9+/=_-]+$/, { message: EMAIL_MESSAGES.invalidEmailInfo })
        .nullable()
        .optional(),
    })
    .optional(),
});
// PUT /api/v1/email/draft/{id} — save on change
export const SaveDraftBody = z.object({
  to: z.union([z.literal(''), z.email({ message: EMAIL_MESSAGES.invalidEmailInfo }).max(254)]).optional(),
  cc: emailList.optional(),
  subject: cleanString(998, EMAIL_MESSAGES.invalidEmailInfo).optional(),
  body: cleanString(200_000, EMAIL_MESSAGES.invalidEmailInfo).optional(),
  showToFromCC: z.boolean().optional(),
});
// POST /api/v1/email/update-email-status
export const UpdateEmailStatusBody = z.object({
  id: z.uuid({ message: EMAIL_MESSAGES.invalidChannelEmail }),
  status: z.enum(USER_SETTABLE_EMAIL_STATUSES, { message: EMAIL_MESSAGES.updateStatusFailed }),
});
export const UpdateEmailStatusResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  id: z.string(),
  companyId: z.string().nullable(),
  cc: z.array(z.string()),
  subject: z.string(),
  body: z.string(),
  executionId: z.string().nullable(),
  status: EmailStatusSchema,
});
// POST /api/v1/email/generate — (re)generate a draft with a play
export const GenerateEmailBody = z.object({
  channelEmailId: z.uuid({ message: EMAIL_MESSAGES.invalidChannelEmail }),
  playId: z.uuid({ message: PLAY_MESSAGES.invalidSelection }),
});
// POST /api/v1/entity/check-valid-entity
export const CheckValidEntityBody = z.object({
  contactId: z.uuid({ message: EMAIL_MESSAGES.invalidEntity }).nullable().optional(),
  companyId: z.uuid({ message: EMAIL_MESSAGES.invalidEntity }).nullable().optional(),
  playId: z.uuid({ message: PLAY_MESSAGES.invalid }).nullable().optional(),
});
export const CheckValidEntityResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  contact: z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() }),
  company: z.object({ id: z.string(), name: z.string(), website: z.string() }),
});
// POST /api/v1/entity/check-ai-generated
export const CheckAiGeneratedBody = z.object({
  executionId: z.uuid({ message: EMAIL_MESSAGES.invalidEmailInfo }),
  channelEmailId: z.uuid({ message: EMAIL_MESSAGES.invalidChannelEmail }),
  contactId: z.uuid({ message: EMAIL_MESSAGES.invalidEntity }).nullable().optional(),
});
