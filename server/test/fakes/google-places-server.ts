// A fake Places API (New) on loopback: POST /v1/places:searchText with X-Goog-Api-Key and the
// required X-Goog-FieldMask (400 INVALID_ARGUMENT without it; the answer holds only the masked
// fields), pageSize 1–20, nextPageToken pages, at most 60 places per query; errors in Google's
// `{ error: { code, message, status } }` (403 PERMISSION_DENIED for a wrong key, 429 RESOURCE_EXHAUSTED).
import { startFake, type FakeBase } from './list-providers-common';

export interface FakePlace {
  id: string;
  displayName: { text: string; languageCode: string };
  websiteUri?: string;
  formattedAddress?: string;
  nationalPhoneNumber?: string;
  primaryType?: string;
}

export interface FakeGooglePlacesServer extends FakeBase {
  /** The places any query answers (those whose name or address contains a word of the query, else all). */
  places: FakePlace[];
}

const gErr = (code: number, status: string, message: string) => ({ error: { code, message, status } });

export async function startFakeGooglePlaces(opts: { apiKey: string }): Promise<FakeGooglePlacesServer> {
  const state = { places: [] as FakePlace[] };
  const base = await startFake(
    (req, send) => {
      if (req.method !== 'POST' || req.path !== '/v1/places:searchText') return send(404, gErr(404, 'NOT_FOUND', 'Method not found.'));
      if (req.headers['x-goog-api-key'] !== opts.apiKey)
        return send(403, gErr(403, 'PERMISSION_DENIED', 'The provided API key is invalid.'));
      const mask = String(req.headers['x-goog-fieldmask'] ?? '');
      if (!mask)
        return send(
          400,
          gErr(
            400,
            'INVALID_ARGUMENT',
            'FieldMask is a required parameter. See https://cloud.google.com/apis/docs/system-parameters on how to provide it.',
          ),
        );
      const b = (req.body ?? {}) as { textQuery?: string; pageSize?: number; pageToken?: string };
      if (!b.textQuery) return send(400, gErr(400, 'INVALID_ARGUMENT', 'Empty text_query.'));
      const size = b.pageSize ?? 20;
      if (size < 1 || size > 20) return send(400, gErr(400, 'INVALID_ARGUMENT', 'page_size must be between 1 and 20.'));
      const words = b.textQuery.toLowerCase().split(/\s+/).filter(Boolean);
      const hits = state.places.filter((p) =>
        words.some((w) => p.displayName.text.toLowerCase().includes(w) || (p.formattedAddress ?? '').toLowerCase().includes(w)),
      );
      const all = (hits.length ? hits : state.places).slice(0, 60);
      const from = b.pageToken ? Number(Buffer.from(b.pageToken, 'base64url').toString()) : 0;
      const slice = all.slice(from, from + size);
      const fields = mask.split(',').map((f) => f.trim());
      const masked = slice.map((p) =>
        Object.fromEntries(
          Object.entries(p).filter(([k]) => fields.includes(`places.${k}`) || fields.includes('places.*') || fields.includes('*')),
        ),
      );
      const next = from + slice.length;
      return send(200, {
        places: masked,
        ...(next < all.length && fields.includes('nextPageToken')
          ? { nextPageToken: Buffer.from(String(next)).toString('base64url') }
          : {}),
      });
    },
    (f) =>
      f.status === 429
        ? gErr(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for quota metric.')
        : gErr(f.status, 'INTERNAL', 'Internal error encountered.'),
  );
  return Object.assign(base, { places: state.places });
}
