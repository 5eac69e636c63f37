import { z } from 'zod';
import { ROLES, USER_STATUSES } from '../domain/roles';
import { EMAIL_SETTINGS_MESSAGES } from '../domain/email-settings';
import {
  CALENDAR_MESSAGES,
  HHMM_PATTERN,
  MAX_DAY_PERIODS,
  WEEKDAYS,
  isMeetingLength,
  isTimeZone,
  periodsOverlap,
  type Weekday,
} from '../domain/calendar';

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

// ---- Calendar (spec 001 §3 User: calendar meetingLength default 30, timezone, weeklyHours): the rules
// are the domain's (domain/calendar.ts), plain functions the clients use without zod.
export {
  WEEKDAYS,
  type Weekday,
  DEFAULT_MEETING_LENGTH,
  MEETING_LENGTHS,
  CALENDAR_MESSAGES,
  isTimeZone,
  defaultWeeklyHours,
  calendarOf,
} from '../domain/calendar';
const HHMM = z.string().regex(HHMM_PATTERN, CALENDAR_MESSAGES.time);
const Period = z
  .object({ start: HHMM, end: HHMM })
  .strict()
  .refine((p) => p.start < p.end, { message: CALENDAR_MESSAGES.order });
const DayPeriods = z
  .array(Period)
  .max(MAX_DAY_PERIODS)
  .refine((ps) => !periodsOverlap(ps), { message: CALENDAR_MESSAGES.overlap });
export const WeeklyHours = z
  .object(Object.fromEntries(WEEKDAYS.map((d) => [d, DayPeriods])) as Record<Weekday, typeof DayPeriods>)
  .strict();
export type WeeklyHours = z.infer<typeof WeeklyHours>;
// PUT /api/v1/user/calendar
export const UpdateCalendarBody = z
  .object({
    timezone: z.string().trim().refine(isTimeZone, { message: CALENDAR_MESSAGES.timezone }),
    meetingLength: z.number().int().refine(isMeetingLength, { message: CALENDAR_MESSAGES.meetingLength }),
    weeklyHours: WeeklyHours,
  })
  .strict();
export type UpdateCalendarBody = z.infer<typeof UpdateCalendarBody>;

// ---- Email settings (spec 001 §2 /account/profile 'Engage email settings': the email signature and
// the organization's AI summary used in generated emails)
export { EMAIL_SETTINGS_MESSAGES } from '../domain/email-settings';
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
