// Activities (spec 000 §2 'Activities tab', 'Mini drawer' Log Activity, §3 Activity, §5 'Activity
// save', §6, §8 'Activities', §9): types and labels, the save rule and its messages, grouping,
// preview, filter label and the row date format.

export const ACTIVITY_TYPES = ['email', 'f2f', 'text', 'call', 'chat', 'video', 'other', 'crm'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const ACTIVITY_TYPE_LABELS: Record<ActivityType, string> = {
  email: 'Email',
  f2f: 'F2F',
  text: 'Note',
  call: 'Phone',
  chat: 'SMS',
  video: 'Video',
  other: 'Other',
  crm: 'CRM',
};

/** The seven checkboxes of the Activities tab's filters popover, in order. */
export const ACTIVITY_FILTER_TYPES = ['email', 'f2f', 'text', 'call', 'chat', 'video', 'other'] as const satisfies readonly ActivityType[];

/** The Log Activity dropdown (mini drawer). */
export const LOG_ACTIVITY_OPTIONS = [
  { type: 'f2f', label: 'F2F Meeting' },
  { type: 'text', label: 'Note' },
  { type: 'call', label: 'Phone Call' },
  { type: 'chat', label: 'SMS / Text Message' },
  { type: 'video', label: 'Zoom / Video Call' },
] as const satisfies readonly { type: ActivityType; label: string }[];

/** Types a user may log by hand (email and CRM activities come from sending and syncing). */
export const MANUAL_ACTIVITY_TYPES = ['f2f', 'text', 'call', 'chat', 'video', 'other'] as const satisfies readonly ActivityType[];
export type ManualActivityType = (typeof MANUAL_ACTIVITY_TYPES)[number];

export const ACTIVITY_STATUSES = ['scheduled', 'error'] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];

/** Where an activity came from; only 'manual' ones can be edited or deleted. */
export const ACTIVITY_SOURCES = ['manual', 'email', 'play', 'crm'] as const;
export type ActivitySource = (typeof ACTIVITY_SOURCES)[number];

export const ACTIVITY_MESSAGES = {
  notFound: 'No activity found.',
  alreadyCompleted: 'Activity has already been completed.',
  pastDate: 'Please select today or a future date for scheduling.',
  noParticipant: 'No participant found.',
  deleteFailed: 'Unable to delete the activity.',
  unknownError: 'An unknown error occurred. Please try again.',
  saveFailed: 'Error to save activity.',
  invalidTab: 'Invalid tab selected',
  invalidParticipant: 'Invalid activity participant.',
  deleted: 'Participants deleted successfully.',
  noneMatching: 'No activities found matching the selected filters.',
  // Success texts of save are ours (the spec says only that the answer holds success and message).
  created: 'Activity saved successfully.',
  updated: 'Activity updated successfully.',
  provideValid: (items: readonly string[]) => `Please provide valid ${items.join(', ')}`,
} as const;

/** The items the save rule names, in the spec's order. */
export const ACTIVITY_SAVE_ITEMS = ['activity', 'company', 'contact', 'date', 'value'] as const;
export type ActivitySaveItem = (typeof ACTIVITY_SAVE_ITEMS)[number];

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** The date (YYYY-MM-DD) it is now in an IANA time zone; null for an unknown zone. */
export function todayIn(timeZone: string, now: Date | number = Date.now()): string | null {
  try {
    const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(
      new Date(now),
    );
    const get = (t: string) => parts.find((p) => p.type === t)?.value;
    return `${get('year')}-${get('month')}-${get('day')}`;
  } catch {
    return null;
  }
}

/**
 * The earliest 'today' anywhere (UTC−12): when the server does not know the user's time zone it
 * compares against this, so nobody is refused their own today.
 */
export function earliestToday(now: Date | number = Date.now()): string {
  return todayIn('Etc/GMT+12', now)!;
}

export interface ActivityDraft {
  type?: string | null;
  companyId?: string | null;
  contactId?: string | null;
  date?: string | null;
  content?: string | null;
}

/** The items of the save rule that are missing or invalid (activity = the type, value = the content). */
export function missingActivityItems(d: ActivityDraft): ActivitySaveItem[] {
  const missing: ActivitySaveItem[] = [];
  if (!d.type || !(MANUAL_ACTIVITY_TYPES as readonly string[]).includes(d.type)) missing.push('activity');
  if (!d.companyId) missing.push('company');
  if (!d.contactId) missing.push('contact');
  if (!isIsoDate(d.date)) missing.push('date');
  if (!d.content || !d.content.trim()) missing.push('value');
  return missing;
}

/**
 * The save rule (spec 000 §5): activity, company, contact, date and content are required —
 * 'Please provide valid …, …' names the missing ones; then the date must be today or later.
 * `today` is YYYY-MM-DD in the user's time zone; `checkDate: false` skips the date rule (an edit
 * that keeps the stored date).
 */
export function activitySaveProblem(d: ActivityDraft, today: string, opts: { checkDate?: boolean } = {}): string | null {
  const missing = missingActivityItems(d);
  if (missing.length > 0) return ACTIVITY_MESSAGES.provideValid(missing);
  if (opts.checkDate !== false && (d.date as string) < today) return ACTIVITY_MESSAGES.pastDate;
  return null;
}

/** Only manually created activities can be edited or deleted. */
export function canEditActivity(a: { source: string }): boolean {
  return a.source === 'manual';
}

// ---------- display ----------

export const ACTIVITY_PREVIEW_LENGTH = 70;
/** Activities dated within this many days before today are 'Recent'. */
export const RECENT_ACTIVITY_DAYS = 30;

/** The row preview: the text cut at 70 characters with an ellipsis. */
export function activityPreview(text: string | null | undefined): string {
  const t = (text ?? '').replace(/\s+/g, ' ').trim();
  return t.length > ACTIVITY_PREVIEW_LENGTH ? `${t.slice(0, ACTIVITY_PREVIEW_LENGTH)}…` : t;
}

/** The selected filters as a comma list of up to two names plus '+N more'. */
export function activityFilterLabel(types: readonly ActivityType[]): string {
  const names = types.map((t) => ACTIVITY_TYPE_LABELS[t]);
  if (names.length <= 2) return names.join(', ');
  return `${names.slice(0, 2).join(', ')} +${names.length - 2} more`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function dayNumber(isoDate: string): number {
  const [y, m, d] = isoDate.split('-').map(Number);
  return Date.UTC(y, m - 1, d) / 86_400_000;
}

export const UPCOMING_GROUP = 'Upcoming';
export const RECENT_GROUP = 'Recent';

/**
 * The group label of an activity: 'Upcoming' (scheduled, or dated after today), 'Recent' (dated
 * within the last 30 days), otherwise its month ('January 2026').
 */
export function activityGroup(a: { date: string; status?: string | null }, today: string): string {
  if (a.status === 'scheduled' || a.date > today) return UPCOMING_GROUP;
  if (dayNumber(today) - dayNumber(a.date) <= RECENT_ACTIVITY_DAYS) return RECENT_GROUP;
  const [y, m] = a.date.split('-').map(Number);
  return `${MONTHS[m - 1]} ${y}`;
}

/** Groups in display order: 'Upcoming' first (soonest first), then 'Recent', then the months (newest first). */
export function groupActivities<T extends { date: string; status?: string | null; createdAt?: string }>(
  list: readonly T[],
  today: string,
): { label: string; activities: T[] }[] {
  const groups = new Map<string, T[]>();
  const newestFirst = [...list].sort((a, b) => b.date.localeCompare(a.date) || (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  for (const a of newestFirst) {
    const label = activityGroup(a, today);
    const g = groups.get(label);
    if (g) g.push(a);
    else groups.set(label, [a]);
  }
  const out: { label: string; activities: T[] }[] = [];
  const upcoming = groups.get(UPCOMING_GROUP);
  if (upcoming) out.push({ label: UPCOMING_GROUP, activities: upcoming.reverse() });
  const recent = groups.get(RECENT_GROUP);
  if (recent) out.push({ label: RECENT_GROUP, activities: recent });
  for (const [label, activities] of groups) if (label !== UPCOMING_GROUP && label !== RECENT_GROUP) out.push({ label, activities });
  return out;
}

/** '{n} Activity' under each group heading. */
export function activityCountLabel(n: number): string {
  return `${n} Activity`;
}

/** The row date: 'Tue, Jan 5 03:00 pm' (in the time zone of the Date's local time). */
export function formatActivityDate(date: Date): string {
  const h = date.getHours();
  const hh = String(h % 12 === 0 ? 12 : h % 12).padStart(2, '0');
  const mm = String(date.getMinutes()).padStart(2, '0');
  return `${DAYS[date.getDay()]}, ${MONTHS[date.getMonth()].slice(0, 3)} ${date.getDate()} ${hh}:${mm} ${h < 12 ? 'am' : 'pm'}`;
}
