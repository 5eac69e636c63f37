// What inserting a generated draft into the message being written does, as pure rules: which
// subject the message gets, and the activity that records it on the contact.
import { htmlText } from '@dealscout/shared/domain';
import type { CreateActivityBody, EmailDraftDto } from '@dealscout/shared/contracts';

/** A reply or forward keeps its thread's subject ('RE: …', 'FW: …' and their common translations). */
const THREAD_PREFIX = /^\s*(re|fw|fwd|aw|wg|sv|vs|tr|rv|antw)\s*:/i;

/** The subject to write into the message: the draft's, unless it has none or the message is a reply or forward. */
export function subjectForInsert(current: string, drafted: string): string | null {
  if (!drafted.trim()) return null;
  if (THREAD_PREFIX.test(current)) return null;
  return drafted;
}

export const INSERTED_ACTIVITY_TITLE = 'Email drafted in Outlook';
/** The activity's text is at most this long (the body's text is cut, never the note before it). */
export const INSERTED_ACTIVITY_MAX = 4000;

/**
 * The activity an inserted draft (or one opened as a reply to the email being read) leaves on the contact: an 'Other' activity (email activities come
 * only from Dealscout's own sending), saying what happened — a play wrote an email that the rep took
 * into Outlook — and not that an email was sent, which the pane cannot know.
 */
export function insertedDraftActivity(
  draft: Pick<EmailDraftDto, 'to' | 'play' | 'contact' | 'companyId'>,
  edit: { subject: string; body: string },
  opts: { companyId: string | null; today: string; timezone?: string; via?: 'insert' | 'reply' },
): CreateActivityBody | null {
  const companyId = draft.companyId ?? opts.companyId;
  if (!draft.contact || !companyId) return null;
  const how =
    opts.via === 'reply'
      ? { played: 'opened', bare: 'Opened', where: 'as a reply in Outlook' }
      : { played: 'inserted', bare: 'Inserted', where: 'into an email being written in Outlook' };
  const note = `${draft.play ? `Written with the play "${draft.play.name}" and ${how.played}` : how.bare} ${how.where} (sent from Outlook, not by Dealscout).`;
  const text = htmlText(edit.body);
  const room = INSERTED_ACTIVITY_MAX - note.length - 2;
  const content = text ? `${note}\n\n${text.length > room ? `${text.slice(0, room - 1)}…` : text}` : note;
  return {
    type: 'other',
    contactId: draft.contact.id,
    companyId,
    date: opts.today,
    title: INSERTED_ACTIVITY_TITLE,
    subject: edit.subject.trim().slice(0, 500) || null,
    to: draft.to || null,
    content,
    ...(opts.timezone ? { timezone: opts.timezone } : {}),
  };
}
