// One HTTP call of a data-provider adapter: a timeout, the caller's signal, 429 answered by waiting
// the server's Retry-After (when it is short) and trying again (lib/retry.ts), and every failure a typed
// ListProviderError whose message names the provider and never carries the key.
import { ListProviderError } from './port';
import { retryAfterSeconds } from '../../lib/retry-after';
import { withRetries } from '../../lib/retry';

export interface ProviderHttpOptions {
  /** The provider's name in messages ('Ocean.io'). */
  provider: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** How many 429s are waited out before giving up (default 2). */
  rateLimitRetries?: number;
  /** The longest Retry-After waited for (seconds, default 10); a longer one fails at once. */
  maxRetryAfterSeconds?: number;
  /** Reads the vendor's error text from its error body. */
  errorText?: (body: unknown) => string | null;
}

/** The JSON answer of a 2xx response; throws ListProviderError otherwise. */
export async function providerJson(url: string, init: RequestInit, o: ProviderHttpOptions): Promise<unknown> {
  return withRetries(
    () => once(url, init, o),
    // A 429 is waited out when the server says how long (and not too long); nothing else is retried here.
    (e) => ({
      retry: e instanceof ListProviderError && e.kind === 'rate_limited' && e.retryAfterSeconds !== null,
      waitMs: e instanceof ListProviderError && e.retryAfterSeconds !== null ? e.retryAfterSeconds * 1000 : null,
    }),
    {
      attempts: (o.rateLimitRetries ?? 2) + 1,
      maxWaitMs: (o.maxRetryAfterSeconds ?? 10) * 1000,
      signal: o.signal,
      cancelled: () => new ListProviderError('cancelled', 'Cancelled.'),
    },
  );
}

/** One attempt. */
async function once(url: string, init: RequestInit, o: ProviderHttpOptions): Promise<unknown> {
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal });
  } catch {
    if (o.signal?.aborted) throw new ListProviderError('cancelled', 'Cancelled.');
    if (timeout.aborted) throw new ListProviderError('timeout', `${o.provider} did not answer in time.`, true);
    throw new ListProviderError('provider', `${o.provider} could not be reached.`, true);
  }
  if (res.ok) {
    try {
      return await res.json();
    } catch {
      throw new ListProviderError('provider', `${o.provider} sent an answer that is not JSON.`, true);
    }
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    /* not JSON */
  }
  const text = o.errorText?.(body) ?? null;
  if (res.status === 429) {
    const wait = retryAfterSeconds(res.headers.get('retry-after'));
    throw new ListProviderError(
      'rate_limited',
      `${o.provider} is rate limiting us; try again ${wait !== null ? `in ${wait} s` : 'later'}.`,
      true,
      wait,
    );
  }
  if (res.status === 401 || res.status === 403)
    throw new ListProviderError(
      'auth',
      `${o.provider} refused your organization's API key${text ? ` (${text})` : ''}. An admin can replace it under Profile → Integrations.`,
    );
  if (res.status === 402) throw new ListProviderError('credits', `${o.provider}: ${text ?? 'insufficient credits'}.`);
  if (res.status >= 500)
    throw new ListProviderError('provider', `${o.provider} answered HTTP ${res.status}${text ? ` (${text})` : ''}.`, true);
  throw new ListProviderError('bad_request', `${o.provider} refused the request${text ? `: ${text}` : ` (HTTP ${res.status})`}.`);
}
