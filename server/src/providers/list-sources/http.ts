// One HTTP call of a data-provider adapter: a timeout, the caller's signal, 429 answered by waiting
// the server's Retry-After (when it is short) and trying again, and every failure a typed
// ListProviderError whose message names the provider and never carries the key.
import { ListProviderError } from './port';
import { retryAfterSeconds } from '../../lib/retry-after';

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

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(new ListProviderError('cancelled', 'Cancelled.'));
      },
      { once: true },
    );
  });

/** The JSON answer of a 2xx response; throws ListProviderError otherwise. */
export async function providerJson(url: string, init: RequestInit, o: ProviderHttpOptions): Promise<unknown> {
  const retries = o.rateLimitRetries ?? 2;
  const maxWait = o.maxRetryAfterSeconds ?? 10;
  for (let attempt = 0; ; attempt++) {
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
      if (attempt < retries && wait !== null && wait <= maxWait) {
        await sleep(wait * 1000, o.signal);
        continue;
      }
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
}
