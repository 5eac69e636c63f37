import { z } from 'zod';
import { ROLES, USER_STATUSES } from '../domain/roles';

export const RoleSchema = z.enum(ROLES, { message: 'Role must be selected' });
export const UserStatusSchema = z.enum(USER_STATUSES);

export const UserDto = z.object({
  id: z.string(),
  organizationId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: RoleSchema,
  isAdmin: z.boolean(),
  status: UserStatusSchema,
  settings: z.record(z.string(), z.unknown()),
  calendar: z.record(z.string(), z.unknown()),
});
export type UserDto = z.infer<typeof UserDto>;

// GET /api/v1/user
export const GetUserResponse = z.object({ success: z.literal(true), user: UserDto });
export type GetUserResponse = z.infer<typeof GetUserResponse>;

// PUT /api/v1/user/settings — the user's config (spec 000 §3 'Local drawer config', version 4).
const DetailsGroups = z
  .object({
    contacts: z.boolean().optional(),
    companies: z.boolean().optional(),
    companyFields: z.boolean().optional(),
    contactFields: z.boolean().optional(),
    unassignedEnrichments: z.boolean().optional(),
  })
  .strict();
// Unknown keys are refused at every level (not silently dropped).
const DrawerDetails = z.object({ details: z.object({ showGroups: DetailsGroups }).strict() }).strict();
export const UserSettingsBody = z
  .object({
    version: z.literal(4).optional(),
    navigationExpanded: z.boolean().optional(),
    drawer: z
      .object({
        visibility: z.enum(['NoDrawer', 'Collapsed', 'Visible']).optional(),
        tab: z.enum(['Activities', 'Details']).optional(),
        company: DrawerDetails.optional(),
        contact: DrawerDetails.optional(),
        idea: DrawerDetails.optional(),
      })
      .strict()
      .optional(),
    /** Column widths the user gave a list's ideas table, per list id then column key (px). */
    listColumnWidths: z
      .record(
        z.uuid(),
        z
          .record(z.string().min(1).max(300), z.number().int().min(40).max(2000))
          .refine((r) => Object.keys(r).length <= 300, 'Too many columns'),
      )
      .refine((r) => Object.keys(r).length <= 500, 'Too many lists')
      .optional(),
  })
  .strict();
export type UserSettingsBody = z.infer<typeof UserSettingsBody>;
export const UserSettingsResponse = z.object({ success: z.literal(true), settings: z.record(z.string(), z.unknown()) });

// PUT /api/v1/user/profile
export const UpdateProfileBody = z.object({
  firstName: z.string().trim().min(1, 'First name is required').max(100),
  lastName: z.string().trim().min(1, 'Last name is required').max(100),
});
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;

// ---- Calendar (spec 001 §3 User: calendar meetingLength default 30, timezone, weeklyHours; the
// inner shape of weeklyHours is ours: per weekday a list of periods "HH:MM"–"HH:MM", empty = not
// available that day).
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const DEFAULT_MEETING_LENGTH = 30;
export const MEETING_LENGTHS = [15, 30, 45, 60, 90, 120] as const;
export const CALENDAR_MESSAGES = {
  timezone: 'Time zone is not valid',
  meetingLength: 'Meeting length must be one of 15, 30, 45, 60, 90 or 120 minutes',
  time: 'Times must be written HH:MM',
  order: 'Each period must start before it ends',
  overlap: 'Periods of one day must not overlap',
  saved: 'Calendar settings saved',
} as const;
const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, CALENDAR_MESSAGES.time);
const Period = z
  .object({ start: HHMM, end: HHMM })
  .strict()
  .refine((p) => p.start < p.end, { message: CALENDAR_MESSAGES.order });
const DayPeriods = z
  .array(Period)
  .max(6)
  .refine(
    (ps) => {
      const sorted = [...ps].sort((a, b) => a.start.localeCompare(b.start));
      return sorted.every((p, i) => i === 0 || sorted[i - 1].end <= p.start);
    },
    { message: CALENDAR_MESSAGES.overlap },
  );
export const WeeklyHours = z
  .object(Object.fromEntries(WEEKDAYS.map((d) => [d, DayPeriods])) as Record<Weekday, typeof DayPeriods>)
  .strict();
export type WeeklyHours = z.infer<typeof WeeklyHours>;
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz.length > 0 && tz.length <= 64;
  } catch {
    return false;
  }
}
// PUT /api/v1/user/calendar
export const UpdateCalendarBody = z
  .object({
    timezone: z.string().trim().refine(isTimeZone, { message: CALENDAR_MESSAGES.timezone }),
    meetingLength: z
      .number()
      .int()
      .refine((n) => (MEETING_LENGTHS as readonly number[]).includes(n), { message: CALENDAR_MESSAGES.meetingLength }),
    weeklyHours: WeeklyHours,
  })
  .strict();
export type UpdateCalendarBody = z.infer<typeof UpdateCalendarBody>;
/** Working hours before the user sets any: Monday to Friday, 09:00–17:00. */
export function defaultWeeklyHours(): WeeklyHours {
  return Object.fromEntries(
    WEEKDAYS.map((d) => [d, d === 'saturday' || d === 'sunday' ? [] : [{ start: '09:00', end: '17:00' }]]),
  ) as WeeklyHours;
}
/** The calendar a user has, defaults filled in. */
export function calendarOf(raw: Record<string, unknown> | undefined, fallbackTimezone = 'UTC'): UpdateCalendarBody {
  const parsed = WeeklyHours.safeParse(raw?.weeklyHours);
  const tz = typeof raw?.timezone === 'string' && isTimeZone(raw.timezone) ? raw.timezone : fallbackTimezone;
  const len =
    typeof raw?.meetingLength === 'number' && (MEETING_LENGTHS as readonly number[]).includes(raw.meetingLength)
      ? raw.meetingLength
      : DEFAULT_MEETING_LENGTH;
  return { timezone: tz, meetingLength: len, weeklyHours: parsed.success ? parsed.data : defaultWeeklyHours() };
}

// ---- Email settings (spec 001 §2 /account/profile 'Engage email settings': the email signature and
// the organization's AI summary used in generated emails)
export const EMAIL_SETTINGS_MESSAGES = {
  signatureSaved: 'Email signature saved',
  summarySaved: 'Organization summary saved',
  signatureTooLong: 'The signature is too long (at most 5,000 characters)',
  summaryTooLong: 'The summary is too long (at most 5,000 characters)',
  noWebsite: "Add the organization's website first: the summary is generated from it.",
  websiteUnreadable: (reason: string) => `Could not read the organization's website: ${reason}`,
} as const;
export const EmailSettingsDto = z.object({
  signature: z.string().nullable(),
  aiSummary: z.string().nullable(),
  website: z.string().nullable(),
  /** Admins edit and generate the organization's summary. */
  canEditSummary: z.boolean(),
});
export type EmailSettingsDto = z.infer<typeof EmailSettingsDto>;
// GET /api/v1/user/email-settings
export const EmailSettingsResponse = z.object({ success: z.literal(true), message: z.string().optional(), settings: EmailSettingsDto });
export type EmailSettingsResponse = z.infer<typeof EmailSettingsResponse>;
// PUT /api/v1/user/email-settings
export const UpdateSignatureBody = z.object({ signature: z.string().max(5000, EMAIL_SETTINGS_MESSAGES.signatureTooLong) });
export type UpdateSignatureBody = z.infer<typeof UpdateSignatureBody>;
// PUT /api/v1/organization/ai-summary (admin)
export const UpdateAiSummaryBody = z.object({ aiSummary: z.string().max(5000, EMAIL_SETTINGS_MESSAGES.summaryTooLong) });
export type UpdateAiSummaryBody = z.infer<typeof UpdateAiSummaryBody>;
// POST /api/v1/organization/ai-summary/generate (admin): a draft, not saved
export const GenerateAiSummaryResponse = z.object({ success: z.literal(true), aiSummary: z.string() });
export type GenerateAiSummaryResponse = z.infer<typeof GenerateAiSummaryResponse>;
