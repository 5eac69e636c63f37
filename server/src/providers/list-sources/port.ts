// The list-source port: data providers that propose companies for a list (spec 002 §7 'Lists and
// sources': Ocean.io lookalikes, Source Scrub, Google Maps samples). Each adapter speaks its
// vendor's HTTP API (base URL from the server's config, key per organization from the
// integration table: ./keys.ts) and answers companies in one shape.

/** A company a provider proposes: name and website (the idea's), the rest goes to the idea's data. */
export interface SourceCompany {
  name: string;
  /** The website as the provider gives it; null when it has none (such a company cannot become an idea). */
  website: string | null;
  /** The normalized domain of the website (null without one). */
  domain: string | null;
  /** Other columns worth keeping (country, size, address, the provider's id...). */
  data: Record<string, unknown>;
}

export type ListProviderErrorKind =
  'not_configured' | 'bad_request' | 'auth' | 'credits' | 'rate_limited' | 'provider' | 'timeout' | 'cancelled';

export class ListProviderError extends Error {
  /** retryable: a later attempt may succeed (rate limit, timeout, 5xx, network). */
  constructor(
    readonly kind: ListProviderErrorKind,
    message: string,
    readonly retryable = false,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ListProviderError';
  }
}

/** The data providers whose keys live in the integration table (provider column). */
export const LIST_PROVIDERS = {
  ocean: { name: 'Ocean.io' },
  sourceScrub: { name: 'Source Scrub' },
  googleMaps: { name: 'Google Maps' },
} as const;
export type ListProvider = keyof typeof LIST_PROVIDERS;
