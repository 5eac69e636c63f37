// The web-fetch port: how the research agents read a page. One implementation, the guarded HTTP
// client (./guarded-client.ts), which refuses every address that is not public on the internet.

export interface FetchedPage {
  /** The URL asked for. */
  requestedUrl: string;
  /** The URL the content came from, after redirects. */
  url: string;
  status: number;
  /** The media type without parameters, e.g. 'text/html'. */
  contentType: string;
  title: string | null;
  /** Readable text: HTML reduced to text, JSON pretty-printed, plain text as is. */
  text: string;
  /** True when the body passed the size cap and was cut. */
  truncated: boolean;
}

export type WebFetchErrorKind =
  | 'invalid_url' // not a URL, not http/https, userinfo, a port we do not allow
  | 'blocked' // the host resolves to (or is) a non-public address
  | 'dns' // the name does not resolve
  | 'too_many_redirects'
  | 'timeout'
  | 'cancelled'
  | 'too_large' // never thrown for a body: bodies are truncated; thrown when headers announce a huge non-text body
  | 'unsupported_content_type'
  | 'http_status' // 4xx/5xx from the site
  | 'network';

/** A refused or failed fetch; the message is short, plain and safe to show the model or a user. */
export class WebFetchError extends Error {
  constructor(
    readonly kind: WebFetchErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'WebFetchError';
  }
}

export interface WebFetchPort {
  fetchPage(url: string, opts?: { signal?: AbortSignal }): Promise<FetchedPage>;
}
