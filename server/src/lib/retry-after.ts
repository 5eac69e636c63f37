// How long a server asked us to wait, read once for every outside service (model providers, Graph,
// Affinity, Salesforce, the list sources): RFC 9110's Retry-After as delta-seconds (fractions
// accepted, as some providers send them) or as an HTTP date, and OpenAI's `retry-after-ms`.

/** Milliseconds to wait from a Retry-After value (seconds or HTTP date); null when absent or unreadable. */
export function retryAfterMs(retryAfter: string | null | undefined, now = Date.now(), retryAfterMsHeader?: string | null): number | null {
  if (retryAfterMsHeader && /^\s*\d+(\.\d+)?\s*$/.test(retryAfterMsHeader)) return Math.round(Number(retryAfterMsHeader));
  if (!retryAfter) return null;
  const v = retryAfter.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  // An HTTP date names its day and month ('Thu, 01 Jan 2026 00:00:03 GMT'); Date.parse alone would
  // also read '-1' or '2026' as a date.
  if (!/[a-z]{3}/i.test(v)) return null;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The same in whole seconds, rounded up (for a 429 we pass on, or a queue's next attempt). */
export function retryAfterSeconds(retryAfter: string | null | undefined, now = Date.now()): number | null {
  const ms = retryAfterMs(retryAfter, now);
  return ms === null ? null : Math.ceil(ms / 1000);
}
