// Suggestions for a manual idea (POST /list-company/auto-complete): the organization's companies by
// name or domain, plus Ocean.io's when asked (the organization's key), each marked when its domain
// is already in the list.
import type { z } from 'zod';
import type { AutoCompleteBody, AutoCompleteSuggestion } from '@dealscout/shared/contracts';
import { normalizeDomain } from '@dealscout/shared/domain';
import { tenantSql } from '../../db/sql';
import { likeEscape } from '../records/table-query';
import { oceanFor } from '../../providers/list-sources/keys';
import { ListProviderError } from '../../providers/list-sources/port';
import { listOr404 } from './lists.service';
import type { ListSourceContext } from './list-sources.service';

/** The suggestions, and why no provider suggestions came (no key, the provider failed). */
export async function suggestIdeas(
  c: ListSourceContext,
  body: z.output<typeof AutoCompleteBody>,
): Promise<{ suggestions: AutoCompleteSuggestion[]; suggestionsNote: string | null }> {
  const { organizationId } = c;
  const { value, listCompanyId } = body.query;
  await listOr404(c.em, organizationId, listCompanyId);
  const text = value.trim().toLowerCase();
  if (!text) return { suggestions: [], suggestionsNote: null };
  const db = tenantSql(c.em, organizationId);
  const like = `${likeEscape(text)}%`;
  const own = await db.all<{ id: string; name: string; website: string; domain: string }>(
    `select c.id::text, c.name, c.website, c.domain from company c where c.organization_id = ? and (lower(c.name) like ? escape '\\' or
      c.domain like ? escape '\\')
        order by (lower(c.name) = ?) desc, lower(c.name), c.id limit 10`,
    [organizationId, like, like, text],
  );
  const suggestions: AutoCompleteSuggestion[] = own.map((co) => ({
    name: co.name,
    website: co.website,
    domain: co.domain,
    source: 'company',
    companyId: co.id,
    inList: false,
  }));
  const note = body.enableOceanIoSuggestions ? await addOceanSuggestions(c, value.trim(), suggestions) : null;
  if (suggestions.length) {
    const inList = new Set(
      (
        await db.all<{ domain: string }>(`select domain from idea where organization_id = ? and list_id = ? and domain = any(?::text[])`, [
          organizationId,
          listCompanyId,
          `{${suggestions.map((s) => `"${s.domain.replace(/["\\]/g, '')}"`).join(',')}}`,
        ])
      ).map((x) => x.domain),
    );
    for (const s of suggestions) s.inList = inList.has(s.domain);
  }
  return { suggestions, suggestionsNote: note };
}

/** Ocean.io's suggestions added after the organization's (no domain twice); the provider's failure as the note. */
async function addOceanSuggestions(c: ListSourceContext, value: string, suggestions: AutoCompleteSuggestion[]): Promise<string | null> {
  try {
    const seen = new Set(suggestions.map((s) => s.domain));
    for (const s of await (await oceanFor(c.em, c.config, c.organizationId)).autocomplete(value)) {
      if (seen.has(s.domain)) continue;
      seen.add(s.domain);
      suggestions.push({
        name: s.name,
        website: `https://${s.domain}`,
        domain: normalizeDomain(s.domain),
        source: 'ocean',
        companyId: null,
        inList: false,
      });
    }
  } catch (e) {
    if (!(e instanceof ListProviderError)) throw e;
    return e.message;
  }
  return null;
}
