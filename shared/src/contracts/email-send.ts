// Sending from the user's own Office 365 mailbox (spec 000 §7 'Activities and email',
// spec 001 §7 POST /user/o365-integration, DELETE /user/integration/{id}). Base path /api/v1.
import { z } from 'zod';
import { EMAIL_MESSAGES } from '../domain/plays';
import { cleanString, EmailDraftDto } from './plays';

const email = z.email({ message: EMAIL_MESSAGES.invalidEmailInfo }).max(254);

// POST /api/v1/user/o365-integration — starts connecting (or re-authenticating) the caller's mailbox:
// the answer is Microsoft's consent page address (authorization code flow with PKCE); Microsoft
// sends the browser back to GET /api/v1/user/o365-integration/callback, which stores the mailbox.
export const O365ConnectBody = z.object({
  /** Where the callback sends the browser afterwards: a path of this app (default /account/profile). */
  returnTo: z
    .string()
    .max(500)
    .regex(/^\/(?!\/)[^\s\\]*$/, 'Invalid return path')
    .optional(),
});
export type O365ConnectBody = z.infer<typeof O365ConnectBody>;
export const O365ConnectResponse = z.object({ success: z.literal(true), authorizeUrl: z.string() });
export type O365ConnectResponse = z.infer<typeof O365ConnectResponse>;
export const O365CallbackQuery = z.object({
  code: z.string().max(4000).optional(),
  state: z.string().max(4000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
});

export const WorkingHoursDto = z.object({
  daysOfWeek: z.array(z.enum(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'])),
  startTime: z.string().regex(/^\d{2}:\d{2}/),
  endTime: z.string().regex(/^\d{2}:\d{2}/),
  timeZone: z.string().max(100),
});
export type WorkingHoursDto = z.infer<typeof WorkingHoursDto>;

// GET /api/v1/email/service-status — the caller's email service, as drafts show it (spec 000 §4:
// warning under 7 days, error when expired or not found), and the send window.
export const EmailServiceStatusResponse = z.object({
  success: z.literal(true),
  configured: z.boolean(),
  integration: z.object({ id: z.string(), account: z.string(), expiresAt: z.string().nullable(), active: z.boolean() }).nullable(),
  banner: z.object({ level: z.enum(['warning', 'error']), message: z.string() }).nullable(),
  workingHours: WorkingHoursDto,
  /** 'mailbox' (from Graph's mailboxSettings), 'profile' (the user's override) or 'default'. */
  workingHoursSource: z.enum(['mailbox', 'profile', 'default']),
  /** Emails of the caller waiting to leave. */
  queued: z.number().int(),
  /** Set when the mailbox's time zone is one the product cannot read: which zone the send window follows instead. */
  zoneNotice: z.string().nullable().optional(),
});
export type EmailServiceStatusResponse = z.infer<typeof EmailServiceStatusResponse>;

// POST /api/v1/email/send-time — when an email scheduled for `scheduledAt` will actually leave:
// the mailbox's first free send slot (pacing) inside the sender's working hours. `moved`:
// the working hours moved it; `queued`: the emails already waiting in the mailbox (its 30 a minute) did.
export const SendTimeBody = z.object({
  scheduledAt: z.iso.datetime({ offset: true, message: 'Please select a valid date and time.' }).nullable().optional(),
});
export const SendTimeResponse = z.object({
  success: z.literal(true),
  sendAt: z.string(),
  moved: z.boolean(),
  queued: z.boolean().optional(),
});
export type SendTimeResponse = z.infer<typeof SendTimeResponse>;

// POST /api/v1/email/send-to-email — send now (no scheduledAt) or schedule.
export const SendToEmailBody = z.object({
  id: z.uuid({ message: EMAIL_MESSAGES.invalidChannelEmail }),
  contactId: z.uuid({ message: EMAIL_MESSAGES.invalidEntity }).nullable().optional(),
  companyId: z.uuid({ message: EMAIL_MESSAGES.invalidEntity }).nullable().optional(),
  type: z.string().max(40).optional(),
  status: z.enum(['sent', 'scheduled']).optional(),
  to: z.string().max(254),
  cc: z.array(email).max(50).default([]),
  subject: cleanString(998, EMAIL_MESSAGES.invalidEmailInfo),
  body: cleanString(200_000, EMAIL_MESSAGES.invalidEmailInfo),
  scheduledAt: z.iso.datetime({ offset: true, message: 'Please select a valid date and time.' }).nullable().optional(),
  /** A reply to a message the user received: its Graph (REST, immutable) id; it leaves through createReply, in that thread. */
  replyToMessageId: z
    .string()
    .min(1)
    .max(1024)
    .regex(/^[A-Za-z0-9+/=_-]+$/, { message: EMAIL_MESSAGES.invalidEmailInfo })
    .nullable()
    .optional(),
});
export type SendToEmailBody = z.input<typeof SendToEmailBody>;
export const SendToEmailResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  email: EmailDraftDto,
  /** When it leaves (or left). */
  sendAt: z.string(),
  sent: z.boolean(),
});
export type SendToEmailResponse = z.infer<typeof SendToEmailResponse>;

// POST /api/v1/email/send-email-to-my-self — a test of the draft to the caller's own mailbox.
export const SendToMyselfBody = z.object({
  id: z.uuid({ message: EMAIL_MESSAGES.invalidChannelEmail }).optional(),
  subject: cleanString(998, EMAIL_MESSAGES.invalidEmailInfo),
  body: cleanString(200_000, EMAIL_MESSAGES.invalidEmailInfo),
});
export type SendToMyselfBody = z.infer<typeof SendToMyselfBody>;

// PUT /api/v1/email/send-window — the caller's own working hours for scheduled emails (the
// profile's override of the mailbox's); `null` goes back to the mailbox's.
export const SEND_WINDOW_MESSAGES = {
  invalid: 'Please enter a valid send window: days, a start before the end, and a time zone.',
  saved: 'Send window saved.',
  unknownZone: (mailboxZone: string, used: string) =>
    `Your mailbox's time zone (${mailboxZone}) is not one we know: scheduled emails follow ${used} until you set your own send window.`,
} as const;
export const SendWindowBody = z.object({
  window: z
    .object({
      daysOfWeek: z
        .array(z.enum(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']), {
          message: SEND_WINDOW_MESSAGES.invalid,
        })
        .min(1, SEND_WINDOW_MESSAGES.invalid)
        .max(7),
      startTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, SEND_WINDOW_MESSAGES.invalid),
      endTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, SEND_WINDOW_MESSAGES.invalid),
      timeZone: z.string().min(1, SEND_WINDOW_MESSAGES.invalid).max(100),
    })
    .refine((w) => w.startTime < w.endTime, { message: SEND_WINDOW_MESSAGES.invalid })
    .nullable(),
});
export type SendWindowBody = z.infer<typeof SendWindowBody>;
