import { z } from 'zod';
import { ACTIVITY_TYPES, ACTIVITY_STATUSES, ACTIVITY_SOURCES, ACTIVITY_MESSAGES, missingActivityItems } from '../domain/activities';

export const ActivityTypeSchema = z.enum(ACTIVITY_TYPES);

/** An activity (spec 000 §3). `group` is computed ('Upcoming', 'Recent' or the month); `editable` = manual. */
export const ActivityDto = z.object({
  id: z.string(),
  type: ActivityTypeSchema,
  group: z.string(),
  title: z.string().nullable(),
  /** YYYY-MM-DD */
  date: z.string(),
  dueDate: z.string().nullable(),
  status: z.enum(ACTIVITY_STATUSES).nullable(),
  source: z.enum(ACTIVITY_SOURCES),
  sourceId: z.string().nullable(),
  content: z.string(),
  subject: z.string().nullable(),
  to: z.string().nullable(),
  others: z.array(z.string()),
  by: z.string().nullable(),
  followUp: z.boolean(),
  errorMessage: z.string().nullable(),
  /** A sent email that was answered (the reply follower): when the first reply arrived. */
  repliedAt: z.string().nullable().optional(),
  companyId: z.string().nullable(),
  contactId: z.string().nullable(),
  createdById: z.string().nullable(),
  editable: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ActivityDto = z.infer<typeof ActivityDto>;

// Loose on purpose: a missing or malformed required item becomes the spec's single message
// 'Please provide valid …' instead of one type error per field.
const loose = z.string().nullish().catch(undefined);
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An id; anything that is not a uuid counts as missing. */
const uuidOrNull = z
  .string()
  .nullish()
  .catch(undefined)
  .transform((v) => (v && UUID_RE.test(v) ? v : null));

const activityFields = {
  type: loose,
  companyId: uuidOrNull,
  contactId: uuidOrNull,
  /** YYYY-MM-DD, today or later in the user's time zone. */
  date: loose,
  content: loose,
  title: z.string().trim().max(255).nullish(),
  subject: z.string().trim().max(500).nullish(),
  to: z.string().trim().max(1000).nullish(),
  others: z.array(z.string().max(320)).max(100).optional(),
  by: z.string().trim().max(255).nullish(),
  followUp: z.boolean().optional(),
  /** ISO date-time when the activity is due (a scheduled call, meeting…). */
  dueDate: z.iso.datetime({ offset: true }).nullish(),
  status: z.enum(ACTIVITY_STATUSES).nullish(),
  /** Only manual activities are written through the API. */
  source: z.literal('manual').optional(),
  /** The user's IANA time zone, for 'today' (defaults to the profile's, else the earliest today anywhere). */
  timezone: z.string().max(64).optional(),
};

function requireItems(
  a: { type?: string | null; companyId?: string | null; contactId?: string | null; date?: string | null; content?: string | null },
  ctx: z.RefinementCtx,
) {
  const missing = missingActivityItems(a);
  if (missing.length > 0) ctx.addIssue({ code: 'custom', message: ACTIVITY_MESSAGES.provideValid(missing), path: [] });
}

// POST /api/v1/activity
export const CreateActivityBody = z.object(activityFields).superRefine(requireItems);
export type CreateActivityBody = z.input<typeof CreateActivityBody>;

// PUT /api/v1/activity
export const UpdateActivityBody = z
  .object({ id: z.uuid({ message: ACTIVITY_MESSAGES.notFound }), ...activityFields })
  .superRefine(requireItems);
export type UpdateActivityBody = z.input<typeof UpdateActivityBody>;

export const ActivityResponse = z.object({ success: z.literal(true), message: z.string(), activity: ActivityDto });
export type ActivityResponse = z.infer<typeof ActivityResponse>;

// GET /api/v1/activity/participant/{id} — an activity with its company and contact, for editing.
export const ActivityParticipantResponse = z.object({
  success: z.literal(true),
  activity: ActivityDto,
  company: z.object({ id: z.string(), name: z.string(), website: z.string() }).nullable(),
  contact: z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() }).nullable(),
});
export type ActivityParticipantResponse = z.infer<typeof ActivityParticipantResponse>;

// GET /api/v1/activity/company/{id}, /activity/contact/{id}?types=call,text&limit=200 — newest first.
export const ActivitiesQuery = z.object({
  types: z
    .string()
    .max(200)
    .optional()
    .transform((s, ctx) => {
      if (!s) return undefined;
      const list = s
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      for (const t of list)
        if (!(ACTIVITY_TYPES as readonly string[]).includes(t)) ctx.addIssue({ code: 'custom', message: `Unknown activity type: ${t}` });
      return list as (typeof ACTIVITY_TYPES)[number][];
    }),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});
export const ActivitiesResponse = z.object({ success: z.literal(true), activities: z.array(ActivityDto) });
export type ActivitiesResponse = z.infer<typeof ActivitiesResponse>;
