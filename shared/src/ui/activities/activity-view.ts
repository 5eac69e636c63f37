// Display rules of the Activities tab that depend on the viewer's clock (the pure rules of the
// spec live in shared/src/domain/activities.ts).
import type { ActivityDto, CompanyDetails, ContactDetails } from '../../contracts';
import type { PickedRecord } from '../dialogs/RecordFormFields';

export const ACTIVITIES_EMPTY = (name: string) =>
  `No activities with ${name} yet. Run a Play from the Playbook tab to start the conversation, or log a meeting, call or note.`;
export const DRAFT_EMAIL_TO = (name: string) => `Draft Email to ${name}`;
/** Why 'Draft Email to {name}' is off in a client without draft panels (the Chrome side panel, Outlook's read pane). */
export const EMAIL_DRAFTING_ELSEWHERE = "Emails are drafted in the Dealscout web app, or in Outlook's compose pane.";
/** The mark on a sent email the contact has answered. */
export const ACTIVITY_REPLIED = 'Replied';
export const ACTIVITIES_LOAD_FAILED = 'Could not load the activities.';
export const DELETE_ACTIVITY_TITLE = 'Delete activity';
export const DELETE_ACTIVITY_MESSAGE = 'Delete this activity? This cannot be undone.';
export const NOT_MANUAL_HINT = 'Only activities you logged by hand can be edited or deleted.';

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** YYYY-MM-DD of a moment in the viewer's own time zone. */
export function localDate(d: Date = new Date()): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The viewer's IANA time zone (sent with a save so 'today' is theirs). */
export function localTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The moment a row shows ('Tue, Jan 5 03:00 pm'): the due time when the activity has one; otherwise
 * its calendar date at the time of day it was logged (an activity logged for today shows when it
 * was logged; the form picks a date, not a time).
 */
export function activityMoment(a: Pick<ActivityDto, 'date' | 'dueDate' | 'createdAt'>): Date {
  if (a.dueDate) return new Date(a.dueDate);
  const [y, m, d] = a.date.split('-').map(Number);
  const created = new Date(a.createdAt);
  const ok = !Number.isNaN(created.getTime());
  return new Date(y, m - 1, d, ok ? created.getHours() : 0, ok ? created.getMinutes() : 0);
}

const fullName = (c: { firstName: string; lastName: string; email?: string }) => `${c.firstName} ${c.lastName}`.trim() || c.email || '';

/**
 * Who 'Draft Email to {name}' addresses: the contact, or a company's key contact (a company email
 * goes to its key contact, spec 000 §5); a company without one falls back to its own name.
 */
export function draftEmailName(
  loaded: { entityType: 'company'; record: CompanyDetails } | { entityType: 'contact'; record: ContactDetails },
): string {
  if (loaded.entityType === 'contact') return fullName(loaded.record);
  const key = loaded.record.keyContact;
  return key ? fullName(key) : loaded.record.name;
}

/** Log Activity prefilled from a drawer: the record and its key contact or primary company. */
export function logActivityDefaults(
  loaded: { entityType: 'company'; record: CompanyDetails } | { entityType: 'contact'; record: ContactDetails },
): { company: PickedRecord | null; contact: PickedRecord | null } {
  if (loaded.entityType === 'company') {
    const c = loaded.record;
    const key = c.keyContact;
    return {
      company: { id: c.id, title: c.name, subtitle: c.website },
      contact: key ? { id: key.id, title: fullName(key), subtitle: key.email } : null,
    };
  }
  const c = loaded.record;
  const p = c.primaryCompany;
  return {
    contact: { id: c.id, title: fullName(c), subtitle: c.email },
    company: p ? { id: p.id, title: p.name, subtitle: p.website } : null,
  };
}
