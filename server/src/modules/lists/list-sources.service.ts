// Data-provider list sources (spec 002 §7 'Lists and sources', §4 'List execution'): the companies
// a source's provider proposes (Ocean.io lookalikes, a Source Scrub search or its sources, Google
// Maps samples), fetched through the adapters of server/src/providers/list-sources with the
// organization's key, and the HTTP answer of a provider failure.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProviderSourceParams } from '@dealscout/shared/contracts';
import type { Config } from '../../config';
import { HttpError } from '../../lib/errors';
import { googlePlacesFor, oceanFor, sourceScrubFor } from '../../providers/list-sources/keys';
import { ListProviderError, type SourceCompany } from '../../providers/list-sources/port';

export interface FetchOptions {
  signal?: AbortSignal;
  onProgress?: (n: number) => void | Promise<void>;
}

/** The companies of a provider source, at most its maxResultCount (the agent kind has its own runner). */
export async function fetchProviderCompanies(
  em: EntityManager,
  config: Config,
  organizationId: string,
  p: Exclude<ProviderSourceParams, { intention: 'agent' }>,
  o: FetchOptions = {},
): Promise<SourceCompany[]> {
  switch (p.intention) {
    case 'ocean':
      return (
        await (
          await oceanFor(em, config, organizationId)
        ).lookalikes(p.domains, p.maxResultCount, { signal: o.signal, onPage: o.onProgress })
      ).companies;
    case 'googleMaps': {
      const rows = await (await googlePlacesFor(em, config, organizationId)).searchText(p.query, p.maxResultCount, { signal: o.signal });
      await o.onProgress?.(rows.length);
      return rows;
    }
    case 'sourceScrub': {
      const ss = await sourceScrubFor(em, config, organizationId);
      const r = p.sourceIds.length
        ? await ss.sourceCompanies(p.sourceIds, p.maxResultCount, { signal: o.signal, onPage: o.onProgress })
        : await ss.searchCompanies({ searchText: p.searchText, filters: p.filters }, p.maxResultCount, {
            signal: o.signal,
            onPage: o.onProgress,
          });
      return r.companies;
    }
  }
}

/**
 * A provider failure as the route's answer: no key is a 400 with the clear message itself; anything
 * else is the spec's preview message (002 §8) with the provider's reason as its one issue — 429 with
 * Retry-After when rate limited, 502 otherwise.
 */
export function providerHttpError(err: unknown, specMessage: string): unknown {
  if (!(err instanceof ListProviderError)) return err;
  if (err.kind === 'not_configured') return new HttpError(400, err.message);
  const issues = [{ path: 'provider', message: err.message }];
  if (err.kind === 'rate_limited')
    return new HttpError(429, specMessage, {
      issues,
      ...(err.retryAfterSeconds !== null ? { retryAfterSeconds: err.retryAfterSeconds } : {}),
    });
  if (err.kind === 'bad_request') return new HttpError(400, specMessage, { issues });
  return new HttpError(502, specMessage, { issues });
}

/** Keeps the companies that can become ideas (a website with a domain) and counts the others. */
export function ideaRows(companies: readonly SourceCompany[]): {
  rows: Array<{ name: string; website: string; domain: string; data: Record<string, unknown> }>;
  skipped: number;
} {
  const rows: Array<{ name: string; website: string; domain: string; data: Record<string, unknown> }> = [];
  let skipped = 0;
  for (const c of companies) {
    if (!c.website || !c.domain) {
      skipped += 1;
      continue;
    }
    rows.push({ name: c.name.slice(0, 255), website: c.website.slice(0, 255), domain: c.domain.slice(0, 255), data: c.data });
  }
  return { rows, skipped };
}
