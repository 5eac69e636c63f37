// The floating draft-email panels' rules (spec 000 §2 'Floating draft-email panels', §4 'Email
// status values', 'Generating an AI email', 'Auto-save', §5 Generate / Regenerate, §9 geometry).
// Pure functions: the shared UI (shared/src/ui/drafts) only renders what these decide.
import { DRAFT_PANEL, EMAIL_MESSAGES, HIDDEN_EMAIL_STATUSES, isEmailBusy, isEmailReadOnly, type EmailStatus } from './plays';
import { isValidEmail } from './validation';

/** The error banner's default text (spec 000 §2 'Banners', §8). */
export const DRAFT_DEFAULT_ERROR = EMAIL_MESSAGES.defaultSendError;

export interface DraftBanner {
  level: 'error' | 'warning';
  /** 'Error', 'Send Error' or 'Warning'. */
  heading: 'Error' | 'Send Error' | 'Warning';
  message: string;
}

/**
 * The banners of a panel: the draft's own error ('Error' + its status message, or the default), and
 * the email-service integration's state pushed into every draft ('Send Error' when it is missing or
 * expired, 'Warning' when fewer than 7 days remain).
 */
export function draftBanners(
  draft: { status: EmailStatus | string; statusMessage: string | null },
  integration: { level: 'warning' | 'error'; message: string } | null,
): DraftBanner[] {
  const out: DraftBanner[] = [];
  if (draft.status === 'error') out.push({ level: 'error', heading: 'Error', message: draft.statusMessage || DRAFT_DEFAULT_ERROR });
  if (integration?.level === 'error')
    out.push({ level: 'error', heading: 'Send Error', message: integration.message || DRAFT_DEFAULT_ERROR });
  if (integration?.level === 'warning') out.push({ level: 'warning', heading: 'Warning', message: integration.message });
  return out;
}

/** Panels are shown only for emails that are not cancelled, sent or scheduled. */
export const isDraftShown = (status: string) => !(HIDDEN_EMAIL_STATUSES as readonly string[]).includes(status);
export { isEmailBusy as isDraftBusy, isEmailReadOnly as isDraftReadOnly };

/**
 * Generate is disabled without a play, without a recipient, or when read-only; Regenerate is
 * disabled without a play (spec 000 §5). Regenerate is offered once the draft has a body or was
 * written by a play; Generate before that.
 */
export function generateAction(d: {
  playId: string | null;
  to: string;
  status: string;
  body: string;
  isAiEmailGenerated: boolean;
  hasPlay: boolean;
}): { label: 'Generate' | 'Regenerate'; disabled: boolean } {
  const regenerate = d.isAiEmailGenerated || d.hasPlay || htmlText(d.body).trim() !== '';
  if (regenerate) return { label: 'Regenerate', disabled: !d.playId || isEmailReadOnly(d.status) };
  return { label: 'Generate', disabled: !d.playId || d.to.trim() === '' || isEmailReadOnly(d.status) };
}

/** The visible text of an HTML body (tags dropped, entities of the editor decoded). */
export function htmlText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|blockquote)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Cc entries that are not valid email addresses (an invalid one puts the panel in its error state). */
export const invalidCc = (cc: readonly string[]) => cc.filter((c) => !isValidEmail(c));

/** The fields whose change is saved 500 ms later (spec 000 §4 'Auto-save': to, subject, body; cc and the Cc toggle ride along). */
export interface DraftEdit {
  to: string;
  cc: string[];
  subject: string;
  body: string;
  showToFromCC: boolean;
}

/**
 * A body as the server stores it and as the editor writes it differ only in spelling (the
 * sanitizer writes `font-family:Garamond` and `<br />` for the editor's `font-family: Garamond`
 * and `<br>`): the same body for the panel, so the editor is not reset under the cursor.
 */
export function normalizeBodyHtml(html: string): string {
  return html
    .replace(/style="([^"]*)"/g, (_m, v: string) => `style="${v.replace(/\s+/g, '').replace(/;$/, '')}"`)
    .replace(/<br\s*\/?>/gi, '<br>')
    .replace(/&nbsp;/g, '\u00a0');
}
export const sameBody = (a: string, b: string) => a === b || normalizeBodyHtml(a) === normalizeBodyHtml(b);

/** What changed between the saved draft and the panel's edit (only those fields are sent). */
export function draftChanges(saved: DraftEdit, edit: DraftEdit): Partial<DraftEdit> {
  const out: Partial<DraftEdit> = {};
  if (saved.to !== edit.to) out.to = edit.to;
  if (saved.subject !== edit.subject) out.subject = edit.subject;
  if (!sameBody(saved.body, edit.body)) out.body = edit.body;
  if (saved.showToFromCC !== edit.showToFromCC) out.showToFromCC = edit.showToFromCC;
  if (saved.cc.join('\n') !== edit.cc.join('\n') && invalidCc(edit.cc).length === 0) out.cc = [...edit.cc];
  return out;
}

export interface PanelSlot {
  id: string;
  expanded: boolean;
}

/**
 * Which panels fit side by side from the right edge (spec 000 §2: 600 px expanded, 250 px
 * minimised, 10 px apart), given the width left of the drawer. The rest go behind a '+N' menu.
 * The first of `order` is the rightmost (the last opened).
 */
export function layoutPanels(
  order: readonly PanelSlot[],
  available: number,
  overflowWidth = 56,
): { shown: PanelSlot[]; hidden: PanelSlot[] } {
  const width = (p: PanelSlot) => (p.expanded ? DRAFT_PANEL.width : DRAFT_PANEL.minimisedWidth);
  const shown: PanelSlot[] = [];
  let used = 0;
  for (let i = 0; i < order.length; i++) {
    const p = order[i];
    const w = width(p) + (shown.length > 0 ? DRAFT_PANEL.gap : 0);
    const reserve = i < order.length - 1 ? overflowWidth + DRAFT_PANEL.gap : 0;
    // The first panel always shows (narrow windows shrink it).
    if (shown.length > 0 && used + w + reserve > available) break;
    shown.push(p);
    used += w;
  }
  return { shown, hidden: order.slice(shown.length) };
}

/** Reply prefixes as mail programs write them ('Re:', 'RE:', 'Re[2]:', and common translations: AW, SV, VS, Antw, RIF). */
const REPLY_PREFIX = /^(re|aw|sv|vs|antw|rif)(\s*\[\d+\]|\s*\(\d+\))?\s*:\s*/i;

/**
 * The subject of a reply to a message with this subject: 'Re: <subject>', never doubled — a subject
 * that already starts with a reply prefix keeps it (repeated prefixes collapse to the first:
 * 'RE: Re: x' → 'RE: x'); a forward is answered as one ('Fwd: x' → 'Re: Fwd: x').
 */
export function replySubject(original: string): string {
  const s = original.replace(/\s+/g, ' ').trim();
  const first = REPLY_PREFIX.exec(s);
  if (!first) return s ? `Re: ${s}` : 'Re:';
  let rest = s.slice(first[0].length);
  for (let m = REPLY_PREFIX.exec(rest); m; m = REPLY_PREFIX.exec(rest)) rest = rest.slice(m[0].length);
  return `${first[0].replace(/\s*:\s*$/, ':')} ${rest}`.trim();
}
