import { z } from 'zod';
import { CompanyDetails, ContactDetails } from './records';

// POST /api/v1/entity/lookup — which Dealscout record is the one a CRM or LinkedIn page shows
// (the Chrome side panel). Matched by the CRM's own id first (a link remembered from an earlier
// match), then by the company's domain or the contact's email; a match by domain or email with a
// CRM id given remembers that id for next time.
export const CRM_SOURCES = ['salesforce', 'affinity', 'linkedin', 'hubspot'] as const;
export type CrmSource = (typeof CRM_SOURCES)[number];

export const LOOKUP_MESSAGES = {
  invalidText: 'Text must not contain NUL characters or invalid Unicode (lone surrogates).',
  nothingToMatch: 'Give a CRM id, a website or domain, or an email to look up',
} as const;

// NUL bytes cannot be stored in PostgreSQL text; unpaired surrogates are not text at all.
const cleanText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine(
      (s) => !s.includes('\u0000') && !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s),
      LOOKUP_MESSAGES.invalidText,
    );

export const LookupBody = z
  .object({
    entityType: z.enum(['company', 'contact'], { message: 'Entity type must be company or contact' }),
    source: z.enum(CRM_SOURCES, { message: 'Source must be one of salesforce, affinity, linkedin, hubspot' }),
    crmId: cleanText(255).nullish(),
    /** A website or a bare domain (companies). */
    website: cleanText(255).nullish(),
    /** Contacts. */
    email: cleanText(128).nullish(),
  })
  .refine((b) => !!(b.crmId || b.website || b.email), { message: LOOKUP_MESSAGES.nothingToMatch, path: ['crmId'] });
export type LookupBody = z.input<typeof LookupBody>;

export const LookupMatch = z.object({
  entityType: z.enum(['company', 'contact']),
  id: z.string(),
  matchedBy: z.enum(['crmId', 'domain', 'email']),
});
export type LookupMatch = z.infer<typeof LookupMatch>;
// The matched record's details come with the answer (the drawer's first read), saving the panel a
// second round trip before it can show the company.
export const LookupResponse = z.object({
  success: z.literal(true),
  match: LookupMatch.nullable(),
  company: CompanyDetails.nullable().optional(),
  contact: ContactDetails.nullable().optional(),
});
export type LookupResponse = z.infer<typeof LookupResponse>;
