// Google Maps samples through the Places API (New) Text Search
// (https://developers.google.com/maps/documentation/places/web-service/text-search), the current
// one (the legacy textsearch is closed to new projects):
//
//   POST {base}/v1/places:searchText
//        headers X-Goog-Api-Key, X-Goog-FieldMask (required: the fields to answer, here
//        places.id, places.displayName, places.websiteUri, places.formattedAddress, ..., nextPageToken)
//        { textQuery, pageSize (1–20), pageToken? }
//     → { places: [{ id, displayName: { text, languageCode }, websiteUri, formattedAddress, ... }], nextPageToken? }
//
// Errors are Google's `{ error: { code, message, status } }`: 400 INVALID_ARGUMENT, 403
// PERMISSION_DENIED (a bad or restricted key), 429 RESOURCE_EXHAUSTED. A query answers at most 60
// places (three pages). A place without a website has no domain: it is shown in the preview but
// cannot become an idea.
import { normalizeDomain } from '@dealscout/shared/domain';
import { providerJson } from './http';
import { clean } from './ocean';
import type { SourceCompany } from './port';

export const GOOGLE_PLACES_DEFAULT_BASE_URL = 'https://places.googleapis.com';
export const GOOGLE_PLACES_FIELD_MASK =
  'places.id,places.displayName,places.websiteUri,places.formattedAddress,places.nationalPhoneNumber,places.primaryType,places.businessStatus,nextPageToken';
/** Text Search answers at most 60 places per query. */
export const GOOGLE_PLACES_MAX_RESULTS = 60;

type Json = Record<string, unknown>;

export function googleErrorText(body: unknown): string | null {
  const e = (body as Json | null)?.error as Json | undefined;
  return e && typeof e.message === 'string' ? e.message : null;
}

export class GooglePlacesClient {
  private readonly baseUrl: string;
  constructor(private readonly opts: { apiKey: string; baseUrl?: string; timeoutMs?: number }) {
    this.baseUrl = (opts.baseUrl ?? GOOGLE_PLACES_DEFAULT_BASE_URL).replace(/\/+$/, '');
  }

  async searchText(query: string, max: number, o: { signal?: AbortSignal } = {}): Promise<SourceCompany[]> {
    const limit = Math.min(max, GOOGLE_PLACES_MAX_RESULTS);
    const out: SourceCompany[] = [];
    let token: string | null = null;
    while (out.length < limit) {
      const page = (await providerJson(
        `${this.baseUrl}/v1/places:searchText`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-goog-api-key': this.opts.apiKey, 'x-goog-fieldmask': GOOGLE_PLACES_FIELD_MASK },
          body: JSON.stringify({ textQuery: query, pageSize: Math.min(20, limit - out.length), ...(token ? { pageToken: token } : {}) }),
        },
        { provider: 'Google Maps', timeoutMs: this.opts.timeoutMs ?? 30_000, signal: o.signal, errorText: googleErrorText },
      )) as Json;
      const places = Array.isArray(page.places) ? (page.places as Json[]) : [];
      for (const p of places) {
        const name = typeof (p.displayName as Json | undefined)?.text === 'string' ? String((p.displayName as Json).text).trim() : '';
        if (!name) continue;
        const website = typeof p.websiteUri === 'string' && p.websiteUri ? p.websiteUri : null;
        out.push({
          name,
          website,
          domain: website ? normalizeDomain(website) || null : null,
          data: clean({
            placeId: p.id,
            address: p.formattedAddress,
            phone: p.nationalPhoneNumber,
            type: p.primaryType,
            businessStatus: p.businessStatus,
          }),
        });
      }
      token = typeof page.nextPageToken === 'string' && page.nextPageToken ? page.nextPageToken : null;
      if (!token || places.length === 0) break;
    }
    return out.slice(0, limit);
  }
}
