// The company-details port: the mixrankCompanyDetails enrichment (shown to users as LinkedIn) looks a
// company up by its website/domain or its LinkedIn URL and fills the built-in company info fields of
// spec 002 §3. One real adapter (./mixrank.ts) speaks the provider's HTTP API.

/** The built-in company info schema fields (spec 002 §3); founded, employee_count, follower_count are numbers. */
export interface CompanyInfo {
  url: string | null;
  name: string | null;
  size: string | null;
  type: string | null;
  country: string | null;
  founded: number | null;
  website: string | null;
  description: string | null;
  employee_count: number | null;
  follower_count: number | null;
}

export const COMPANY_INFO_FIELDS = [
  'url',
  'name',
  'size',
  'type',
  'country',
  'founded',
  'website',
  'description',
  'employee_count',
  'follower_count',
] as const satisfies readonly (keyof CompanyInfo)[];
export const COMPANY_INFO_NUMERIC_FIELDS = [
  'founded',
  'employee_count',
  'follower_count',
] as const satisfies readonly (keyof CompanyInfo)[];

export interface CompanyDetailsQuery {
  /** A website URL or a bare domain ('acme.com', 'https://www.acme.com/about'). */
  website?: string | null;
  /** A LinkedIn company page URL ('https://www.linkedin.com/company/acme'). */
  linkedinUrl?: string | null;
}

export type CompanyDetailsErrorKind = 'not_configured' | 'bad_query' | 'not_found' | 'rate_limited' | 'provider' | 'timeout' | 'cancelled';

export class CompanyDetailsError extends Error {
  /** retryable: a later attempt may succeed (rate limit, timeout, 5xx, network). */
  constructor(
    readonly kind: CompanyDetailsErrorKind,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'CompanyDetailsError';
  }
}

export interface CompanyDetailsPort {
  /** False without an API key: lookup() then throws 'not_configured'. */
  readonly configured: boolean;
  /** The company, or throws CompanyDetailsError ('not_found' when the provider has no match). */
  /** `source`: the page the details describe (the LinkedIn page, else the website) for the sources list. */
  lookup(query: CompanyDetailsQuery, opts?: { signal?: AbortSignal }): Promise<{ company: CompanyInfo; source: string }>;
}
