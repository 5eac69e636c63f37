// Companies and contacts (spec 002 §5 'Company' and 'Contact', §8 'Saving companies and contacts',
// §9; spec 000 §9 rows-per-page choices).
import { isValidEmail } from './validation';

export const COMPANY_MESSAGES = {
  nameRequired: 'Company name is required',
  nameMax: 'Company name must be at most 255 characters long',
  websiteRequired: 'Company website is required',
  invalidUrl: 'Invalid URL',
  urlMax: 'URL must be at most 255 characters long',
  duplicateDomain: 'Company with same domain already exists',
  updated: 'Company updated',
  created: 'Company created successfully',
  updateFailed: 'Failed to updated company',
  createFailed: 'Failed to create company',
  notFound: 'Company not found',
  deleted: 'Company deleted',
} as const;

export const CONTACT_MESSAGES = {
  firstNameRequired: 'First name is required',
  firstNameMax: 'First name must be at most 128 characters long',
  lastNameRequired: 'Last name is required',
  lastNameMax: 'Last name must be at most 128 characters long',
  emailRequired: 'Email is required',
  invalidEmail: 'Invalid email',
  emailMax: 'Email must be at most 128 characters long',
  duplicateEmail: 'Contact with same email already exists',
  updated: 'Contact updated',
  created: 'Contact created successfully',
  updateFailed: 'Failed to updated contact',
  createFailed: 'Error creating contact',
  notFound: 'Contact not found',
  deleted: 'Contact deleted',
} as const;

export const ENTITY_MESSAGES = {
  createFailed: 'An error occurred while creating the entity.',
  updateFailed: 'An error occurred while updating the entity.',
  linked: 'Linked successfully',
  alreadyLinked: 'Already linked',
  keySet: 'Key contact updated',
  primarySet: 'Primary company updated',
  ownerInvalid: 'Account owner must be an active member of your organization',
  valueSaved: 'Value saved',
} as const;

export const COMPANY_NAME_MAX = 255;
export const URL_MAX = 255;
export const PERSON_NAME_MAX = 128;
export const CONTACT_EMAIL_MAX = 128;

export const ROWS_PER_PAGE_CHOICES = [20, 40, 60, 80, 100, 250, 500, 750, 1000] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 1000;

// A website: optional scheme, a host with a dot and a TLD, optional port/path.
const URL_RE = /^(https?:\/\/)?([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}(:\d{1,5})?([/?#][^\s]*)?$/i;

export function isValidUrl(value: string): boolean {
  return URL_RE.test(value.trim());
}

/** The domain of a website, lowercased, without scheme, www., port, path or trailing dot. */
export function normalizeDomain(website: string): string {
  let s = website.trim().toLowerCase();
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  s = s.split(/[/?#]/)[0];
  s = s
    .replace(/^[^@]*@/, '')
    .replace(/:\d+$/, '')
    .replace(/\.$/, '');
  return s.replace(/^www\./, '');
}

export interface CompanyFields {
  name?: string | null;
  website?: string | null;
}
export interface ContactFields {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}

/** Field → message for every rule a company breaks (empty when valid). */
export function companyProblems(c: CompanyFields): Partial<Record<'name' | 'website', string>> {
  const out: Partial<Record<'name' | 'website', string>> = {};
  const name = (c.name ?? '').trim();
  const website = (c.website ?? '').trim();
  if (!name) out.name = COMPANY_MESSAGES.nameRequired;
  else if (name.length > COMPANY_NAME_MAX) out.name = COMPANY_MESSAGES.nameMax;
  if (!website) out.website = COMPANY_MESSAGES.websiteRequired;
  else if (website.length > URL_MAX) out.website = COMPANY_MESSAGES.urlMax;
  else if (!isValidUrl(website)) out.website = COMPANY_MESSAGES.invalidUrl;
  return out;
}

export function contactProblems(c: ContactFields): Partial<Record<'firstName' | 'lastName' | 'email', string>> {
  const out: Partial<Record<'firstName' | 'lastName' | 'email', string>> = {};
  const first = (c.firstName ?? '').trim();
  const last = (c.lastName ?? '').trim();
  const email = (c.email ?? '').trim();
  if (!first) out.firstName = CONTACT_MESSAGES.firstNameRequired;
  else if (first.length > PERSON_NAME_MAX) out.firstName = CONTACT_MESSAGES.firstNameMax;
  if (!last) out.lastName = CONTACT_MESSAGES.lastNameRequired;
  else if (last.length > PERSON_NAME_MAX) out.lastName = CONTACT_MESSAGES.lastNameMax;
  if (!email) out.email = CONTACT_MESSAGES.emailRequired;
  else if (email.length > CONTACT_EMAIL_MAX) out.email = CONTACT_MESSAGES.emailMax;
  else if (!isValidEmail(email)) out.email = CONTACT_MESSAGES.invalidEmail;
  return out;
}

/**
 * Up to this many matches a table's total is exact; above it the answer may carry an estimate
 * (`totalIsEstimate`), docs/ARCHITECTURE.md 'Records' → 'Estimated totals'.
 */
export const EXACT_TOTAL_MAX = 10_000;

/** An estimated total as answered: three significant figures (37,712 → 37,700), always above EXACT_TOTAL_MAX (10,100 at least). */
export function roundEstimate(n: number): number {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(n, EXACT_TOTAL_MAX))) - 2);
  return Math.max(EXACT_TOTAL_MAX + unit, Math.round(n / unit) * unit);
}

/** Pages for a count (at least 1 so 'Page 1 of 1' shows for an empty table). */
export function totalPagesFor(totalRecords: number, pageSize: number): number {
  return Math.max(1, Math.ceil(totalRecords / pageSize));
}

/** The page-jump input clamps to 0 up to the last page (zero-based). */
export function clampPageIndex(pageIndex: number, totalPages: number): number {
  if (!Number.isFinite(pageIndex)) return 0;
  return Math.min(Math.max(0, Math.trunc(pageIndex)), Math.max(0, totalPages - 1));
}

/** CSV cell safe against spreadsheet formula injection (OWASP): leading = + - @ tab CR get a quote. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}
