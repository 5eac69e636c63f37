// Rules for the Outlook add-in's mailbox people: an email's participants are matched to
// contacts by email, and an unknown sender becomes a contact and (from the email's domain) a company.
// Pure functions, shared by the pane (to prefill the form) and the server (to derive the company).
import { normalizeDomain } from './records';
import { normalizeEmail } from './validation';

/** At most this many addresses are matched in one call (a message's sender, To and Cc). */
export const MAX_MATCH_EMAILS = 100;

export const MAILBOX_MESSAGES = {
  emailsRequired: 'At least one email is required',
  tooManyEmails: `At most ${MAX_MATCH_EMAILS} emails can be matched at once`,
  companyLinked: 'Contact created and linked to {company}',
  companyCreated: 'Contact and company {company} created',
  personalDomain: 'Contact created (a personal email domain has no company)',
} as const;

/**
 * Mail providers whose domains belong to no company: a sender at gmail.com is a person, not a
 * Gmail employee. Only the large consumer providers; anything else is taken as a company domain.
 */
export const PERSONAL_EMAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'hotmail.co.uk',
  'live.com',
  'msn.com',
  'yahoo.com',
  'yahoo.co.uk',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'zoho.com',
  'fastmail.com',
  'hey.com',
  'qq.com',
  '163.com',
]);

/** The domain of an address ('Ann@Sub.Acme.com' → 'sub.acme.com'); '' without one. */
export function emailDomain(email: string): string {
  const e = normalizeEmail(email);
  const at = e.lastIndexOf('@');
  return at < 0 ? '' : normalizeDomain(e.slice(at + 1));
}

export function isPersonalEmailDomain(domain: string): boolean {
  return PERSONAL_EMAIL_DOMAINS.has(normalizeDomain(domain));
}

// Second-level labels under a country code ('acme.co.uk'): the company's label is one further left.
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ltd', 'plc']);

function titleCase(word: string): string {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

/** A company name guessed from its domain: 'acme-capital.co.uk' → 'Acme Capital'. */
export function companyNameFromDomain(domain: string): string {
  const labels = normalizeDomain(domain).split('.').filter(Boolean);
  if (labels.length === 0) return '';
  let i = labels.length >= 2 ? labels.length - 2 : 0;
  if (labels.length >= 3 && labels[labels.length - 1].length === 2 && SECOND_LEVEL.has(labels[labels.length - 2])) i = labels.length - 3;
  return labels[i].split(/[-_]+/).filter(Boolean).map(titleCase).join(' ');
}

/**
 * First and last name from an email's display name ('Doe, Jane', 'Jane Q. Doe', '"Jane Doe"') or,
 * failing that, from the address's local part ('jane.doe@' → Jane / Doe). Either may be '' when
 * nothing gives it (the pane then asks the rep).
 */
export function personNameFromSender(displayName: string | null | undefined, email: string): { firstName: string; lastName: string } {
  let name = (displayName ?? '').replace(/["']/g, '').replace(/\s+/g, ' ').trim();
  if (name.includes('@') || name.toLowerCase() === normalizeEmail(email)) name = '';
  if (name.includes(',')) {
    const [last, first] = name.split(',', 2).map((s) => s.trim());
    if (first && last) return { firstName: first, lastName: last };
    name = (first || last || '').trim();
  }
  if (name) {
    const parts = name.split(' ');
    if (parts.length === 1) return { firstName: parts[0], lastName: '' };
    return { firstName: parts.slice(0, -1).join(' '), lastName: parts[parts.length - 1] };
  }
  const local = normalizeEmail(email).split('@')[0].replace(/\+.*$/, '');
  const parts = local.split(/[._-]+/).filter((p) => p && !/^\d+$/.test(p));
  if (parts.length >= 2) return { firstName: titleCase(parts[0]), lastName: titleCase(parts[parts.length - 1]) };
  return { firstName: parts[0] ? titleCase(parts[0]) : '', lastName: '' };
}

/** The distinct, normalized addresses of a message's participants, in order, without the user's own. */
export function participantEmails(addresses: readonly (string | null | undefined)[], own?: string | null): string[] {
  const ownN = own ? normalizeEmail(own) : '';
  const out: string[] = [];
  for (const a of addresses) {
    const e = normalizeEmail(a ?? '');
    if (e && e.includes('@') && e !== ownN && !out.includes(e)) out.push(e);
  }
  return out;
}
