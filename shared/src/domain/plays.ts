// Plays and email drafts (spec 001 §2 'Playbook table', 'Play editor', §3 'Play', §5 'Play', §8
// 'Play'; spec 000 §3 'Email draft', §4 'Email status values', §8 'Emails and drafts').
import type { RichPromptNode } from './enrichments';
import { promptText } from './enrichments';

/** Ai = openai, Non-Ai = non_ai (spec 001 §9). */
export const PLAY_TYPES = ['openai', 'non_ai'] as const;
export type PlayType = (typeof PLAY_TYPES)[number];
export const PLAY_TYPE_LABELS: Record<PlayType, string> = { openai: 'Ai', non_ai: 'Non-Ai' };

export const PLAY_STATUSES = ['draft', 'published'] as const;
export type PlayStatus = (typeof PLAY_STATUSES)[number];

/** Playbook table page size (spec 001 §9) and sortable columns. */
export const PLAY_PAGE_SIZE = 10;
export const PLAY_SORT_KEYS = ['name', 'playType', 'enrichmentsIncluded', 'useCount', 'createdBy', 'createdAt'] as const;
export type PlaySortKey = (typeof PLAY_SORT_KEYS)[number];

export const EMAIL_STATUSES = ['draft', 'processing', 'ready', 'inqueue', 'error', 'cancelled', 'sent', 'scheduled'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];
/** Panels are shown only for emails that are not cancelled, sent or scheduled (spec 000 §4). */
export const HIDDEN_EMAIL_STATUSES: readonly EmailStatus[] = ['cancelled', 'sent', 'scheduled'];
/** Sent, scheduled and processing drafts are read-only (spec 000 §4). */
export const READ_ONLY_EMAIL_STATUSES: readonly EmailStatus[] = ['sent', 'scheduled', 'processing'];
/** A spinner covers the panel while status is ready, inqueue or processing (spec 000 §2). */
export const BUSY_EMAIL_STATUSES: readonly EmailStatus[] = ['ready', 'inqueue', 'processing'];

export const isEmailReadOnly = (s: string) => (READ_ONLY_EMAIL_STATUSES as readonly string[]).includes(s);
export const isEmailBusy = (s: string) => (BUSY_EMAIL_STATUSES as readonly string[]).includes(s);

/** Draft auto-save delay (spec 000 §9). */
export const DRAFT_AUTOSAVE_MS = 500;
/** Draft panel geometry (spec 000 §2, §9). */
/** Minimised, a panel is its header: `minimisedHeight` tall. */
export const DRAFT_PANEL = { width: 600, height: 610, minimisedWidth: 250, minimisedHeight: 36, gap: 10 } as const;
export const DRAFT_FONTS = ['Calibri', 'Anton', 'Arial', 'Courier', 'Garamond', 'Tahoma', 'Times New Roman', 'Verdana'] as const;

export const PLAY_MESSAGES = {
  duplicated: 'Play duplicated successfully.',
  removed: 'Play removed successfully.',
  error: 'An error occured!',
  invalid: 'Invalid play',
  invalidSelection: 'Invalid selection.',
  unableToCreate: 'Unable to create play.',
  started: 'Play execution started.',
  invalidEntity: 'Invalid contact or company.',
  failed: 'Play execution failed',
  fetchFailed: 'Failed to fetch play',
  templateFetchFailed: 'Failed to fetch play template',
  removeDraftFailed: 'Failed to remove the draft',
  instructionsRequired: 'Instructions are required',
  nameRequired: 'Name is required',
  bodyRequired: 'Body is required',
  notLoaded: 'Play not loaded',
  enterName: 'Please enter a name for the play',
  selectContact: 'Please select a contact first',
  // Not in the spec's catalogue: the answers of saving (the editor shows them as toasts).
  saved: 'Play saved successfully.',
  published: 'Play published successfully.',
  draftSaved: 'Draft saved.',
  draftRemoved: 'Draft removed.',
  providedReadOnly: 'Plays provided by Dealscout cannot be modified or removed.',
  notOwner: 'Only the creator of a play or an admin can change it.',
  notPublished: 'Only published plays can be run.',
  executionFailedMessage: 'Error processing data: Email could not be executed properly. Please review your play.',
  cancelled: 'Play execution cancelled.',
} as const;

export const EMAIL_MESSAGES = {
  sent: 'Email sent successfully.',
  scheduled: 'Email scheduled successfully.',
  infoInvalid: 'Information is not valid. Please fill the information first.',
  updateStatusFailed: 'Failed to update email status.',
  invalidChannelEmail: 'Invalid Channel email.',
  invalidEmailInfo: 'Invalid email information.',
  sendFailed: 'Something went wrong to sending email.',
  cancelFailed: 'Failed to cancel draft',
  invalidEntity: 'Invalid contact or company.',
  entityNotFound: 'Entity not found.',
  invalidCompany: 'Invalid company details please check url or name',
  invalidContact: 'Invalid contact details please check firstName, lastName or email',
  noOffice365: 'Office 365 integration not found.',
  defaultSendError: 'Please check Office365 settings and try again',
  // Not in the spec's catalogue.
  saved: 'Draft saved.',
  statusUpdated: 'Email status updated.',
  generating: 'Generating email.',
  verified: 'Email verified.',
  notReady: 'The email is still being written.',
} as const;

export const noPrimaryCompanyMessage = (name: string) => `No primary company found for ${name}`;
export const noKeyContactMessage = (name: string) => `No key contact found for ${name}`;
export const missingInformationMessage = (n: number) => `${n} entities have missing information and could not be processed.`;

/** What a play's target can lack (spec 000 §7: an email needs a contact with a name and an address, at a company with a name and a website). */
export const MISSING_INFO = [
  'firstName',
  'lastName',
  'email',
  'name',
  'website',
  'primaryCompany',
  'keyContact',
  'keyContactEmail',
] as const;
export type MissingInfo = (typeof MISSING_INFO)[number];
export const MISSING_INFO_LABELS: Record<MissingInfo, string> = {
  firstName: 'first name',
  lastName: 'last name',
  email: 'email',
  name: 'name',
  website: 'website',
  primaryCompany: 'primary company',
  keyContact: 'key contact',
  keyContactEmail: "key contact's email",
};

/** How many skipped targets a run's answer names (the count in the message is always whole). */
export const SKIPPED_LIST_MAX = 100;

/** 'Missing website', 'Missing first name and email', 'Missing name, website and key contact'. */
export function missingInfoText(missing: readonly MissingInfo[]): string {
  const words = missing.map((m) => MISSING_INFO_LABELS[m]);
  if (words.length === 0) return 'Missing information';
  const list = words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
  return `Missing ${list}`;
}

export const fieldRequiredMessage = (label: string) => `${label} is required.`;

/** Which statuses a user may set through update-email-status (the others belong to the server). */
/**
 * 'draft' on a scheduled email is Cancel Send & Edit; 'scheduled' on a failed one is Try Again
 * (the server decides which moves are allowed).
 */
export const USER_SETTABLE_EMAIL_STATUSES = ['draft', 'cancelled', 'ready', 'inqueue', 'scheduled'] as const;

/** The answer of the play execution call, turned into the toast of spec 000 §7 'How answers are handled'. */
export function playExecutionToast(
  items: readonly { success: boolean }[] | null | undefined,
  missing = 0,
): { intent: 'success' | 'error' | 'warning'; message: string } {
  if (!items || items.length === 0)
    return { intent: 'error', message: missing > 0 ? missingInformationMessage(missing) : PLAY_MESSAGES.unableToCreate };
  if (missing > 0) return { intent: 'warning', message: missingInformationMessage(missing) };
  if (items.some((i) => !i.success)) return { intent: 'error', message: PLAY_MESSAGES.invalidEntity };
  return { intent: 'success', message: PLAY_MESSAGES.started };
}

/** The text of rich instructions (boxes dropped): what 'Body is required' looks at. */
export function instructionsText(nodes: readonly RichPromptNode[] | null | undefined): string {
  return (nodes ?? []).map((n) => (n.type === 'text' ? n.text : '')).join('');
}

/** Publish checks of spec 001 §5 'Play', in the spec's order; null when fine. */
export function playPublishProblem(p: { name?: string | null; instructions?: readonly RichPromptNode[] | null }): string | null {
  if (!p.instructions || p.instructions.length === 0) return PLAY_MESSAGES.instructionsRequired;
  if (!p.name || p.name.trim() === '') return PLAY_MESSAGES.nameRequired;
  if (instructionsText(p.instructions).trim() === '') return PLAY_MESSAGES.bodyRequired;
  return null;
}

/** The enrichments a play's instructions use (its enrich boxes), each once, in order. */
export function enrichmentsIncluded(nodes: readonly RichPromptNode[] | null | undefined): string[] {
  const out: string[] = [];
  for (const n of nodes ?? []) if (n.type === 'enrich-box' && !out.includes(n.enrichmentId)) out.push(n.enrichmentId);
  return out;
}

export class RenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderError';
  }
}

export interface RenderResolvers {
  /** The target's value of a field box (null/'' when empty). */
  field(node: Extract<RichPromptNode, { type: 'field-box' }>): Promise<{ label: string; value: unknown } | null>;
  /** The value of an enrich box (the enrichment's result at the box's path), running it first when autorun. */
  enrich(node: Extract<RichPromptNode, { type: 'enrich-box' }>): Promise<{ label: string; value: unknown } | null>;
}

export interface RenderedPrompt {
  text: string;
  /** Every value that went in, by box: what 'Why this email' shows. */
  values: { box: string; kind: 'field' | 'enrichment'; label: string; value: string }[];
}

const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/**
 * Renders rich instructions for one target: text as is, field boxes and enrich boxes replaced by
 * their values. A required box without a value fails with a message naming it; a box whose field or
 * enrichment is gone fails when required, else renders empty.
 */
export async function renderRichPrompt(
  nodes: readonly RichPromptNode[] | string | null | undefined,
  r: RenderResolvers,
): Promise<RenderedPrompt> {
  if (nodes == null) return { text: '', values: [] };
  if (typeof nodes === 'string') return { text: nodes, values: [] };
  const parts: string[] = [];
  const values: RenderedPrompt['values'] = [];
  for (const n of nodes) {
    if (n.type === 'text') {
      parts.push(n.text);
      continue;
    }
    const got = n.type === 'field-box' ? await r.field(n) : await r.enrich(n);
    if (!got) {
      if (n.required)
        throw new RenderError(
          n.type === 'field-box' ? 'A field used in the play no longer exists.' : 'An enrichment used in the play no longer exists.',
        );
      continue;
    }
    if (blank(got.value) && n.required) {
      throw new RenderError(
        n.type === 'field-box'
          ? `The field "${got.label}" has no value for this target.`
          : `The enrichment "${got.label}" has no result for this target.`,
      );
    }
    const text = promptText(got.value);
    values.push({ box: n.id, kind: n.type === 'field-box' ? 'field' : 'enrichment', label: got.label, value: text });
    parts.push(text);
  }
  return { text: parts.join(''), values };
}

/**
 * The user's email signature (Profile → email settings, plain text) under a draft's text: the
 * signature of a play's draft, AI-written or from a template. Nothing is added when there is no
 * signature or the text already ends with it (a template that carries it itself).
 */
export function withSignature(text: string, signature: string | null | undefined): string {
  const sig = (signature ?? '').replace(/\r\n/g, '\n').trim();
  if (!sig) return text;
  const body = text.trimEnd();
  if (body.endsWith(sig)) return body;
  return body ? `${body}\n\n${sig}` : sig;
}

/** Plain text to the HTML of a draft body (paragraphs and line breaks; text escaped). */
export function textToHtml(text: string): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${esc(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}
