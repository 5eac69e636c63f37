// The web-search port: how the research agents search the web. One real adapter (./brave.ts,
// the Brave Search API); without a key the port reports itself unavailable and the agent's tool
// tells the model so.

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export type SearchErrorKind = 'unavailable' | 'rate_limited' | 'provider' | 'timeout' | 'cancelled';

export class SearchError extends Error {
  constructor(
    readonly kind: SearchErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'SearchError';
  }
}

export interface SearchPort {
  /** False when no search provider is configured (no key): search() then throws 'unavailable'. */
  readonly available: boolean;
  search(query: string, opts?: { count?: number; signal?: AbortSignal }): Promise<SearchResult[]>;
}
