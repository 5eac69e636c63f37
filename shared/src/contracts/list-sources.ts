// Data-provider list sources (spec 002 §7 'Lists and sources', 'Executions'; §8 'Other' previews):
// previews, provider sources' parameters, POST /list-company/execute and auto-complete.
import { z } from 'zod';
import { LIST_MESSAGES, LIST_SOURCE_MESSAGES, PROVIDER_SOURCE_MAX } from '../domain/lists';
import { TableFilterSchema } from './records';
import { ListDto } from './lists';

const domainRe = /^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+$/i;
/** Seed domains: 'acme.com', 'https://www.acme.com/about' → 'acme.com'. */
const seedDomain = z
  .string()
  .trim()
  .max(255)
  .transform((v, ctx) => {
    const d = v
      .toLowerCase()
      .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
      .split(/[/?#]/)[0]
      .replace(/^www\./, '')
      .replace(/\.$/, '');
    if (!domainRe.test(d)) {
      ctx.addIssue({ code: 'custom', message: LIST_SOURCE_MESSAGES.domainInvalid(v) });
      return z.NEVER;
    }
    return d;
  });
const maxCount = (max: number, dflt: number) =>
  z.coerce
    .number()
    .int('maxResultCount must be a whole number')
    .min(1, 'maxResultCount must be at least 1')
    .max(max, `maxResultCount must be at most ${max}`)
    .default(dflt);
const filters = z.record(z.string().max(100), z.unknown()).default({});

// POST /list-company/ocean/preview
export const OceanPreviewBody = z.object({
  domains: z
    .array(seedDomain, { message: LIST_SOURCE_MESSAGES.domainsRequired })
    .min(1, LIST_SOURCE_MESSAGES.domainsRequired)
    .max(10, LIST_SOURCE_MESSAGES.domainsMax),
  maxResultCount: maxCount(100, 10),
});
export type OceanPreviewBody = z.input<typeof OceanPreviewBody>;

// POST /list-company/google-maps-samples
export const GoogleMapsSamplesBody = z.object({
  query: z
    .string({ message: LIST_SOURCE_MESSAGES.queryRequired })
    .trim()
    .min(1, LIST_SOURCE_MESSAGES.queryRequired)
    .max(300, 'The search is too long'),
  maxResultCount: maxCount(60, 10),
});
export type GoogleMapsSamplesBody = z.input<typeof GoogleMapsSamplesBody>;

// POST /list-company/source-scrub/preview — a Source Scrub company search
export const SourceScrubPreviewBody = z.object({
  searchText: z.string().trim().max(300).optional().nullable(),
  filters,
  maxResultCount: maxCount(100, 10),
});
export type SourceScrubPreviewBody = z.input<typeof SourceScrubPreviewBody>;

// POST /list-company/source-scrub-sources/preview — Source Scrub's sources (conferences, lists...)
export const SourceScrubSourcesPreviewBody = z.object({
  filters: z
    .object({ searchText: z.string().trim().max(300).optional().nullable(), sourceTypes: z.array(z.string().max(100)).max(20).optional() })
    .catchall(z.unknown())
    .default({}),
  maxResultCount: maxCount(100, 25),
});
export type SourceScrubSourcesPreviewBody = z.input<typeof SourceScrubSourcesPreviewBody>;

// POST /list-company/source-scrub-companies/preview — the companies of chosen sources
export const SourceScrubCompaniesPreviewBody = z.object({
  filters: z.object({
    sourceIds: z
      .array(z.string().trim().min(1).max(100), { message: LIST_SOURCE_MESSAGES.sourcesRequired })
      .min(1, LIST_SOURCE_MESSAGES.sourcesRequired)
      .max(20),
  }),
  maxResultCount: maxCount(100, 10),
});
export type SourceScrubCompaniesPreviewBody = z.input<typeof SourceScrubCompaniesPreviewBody>;

export const PreviewCompany = z.object({
  name: z.string(),
  website: z.string().nullable(),
  domain: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type PreviewCompany = z.infer<typeof PreviewCompany>;
export const PreviewCompaniesResponse = z.object({
  success: z.literal(true),
  companies: z.array(PreviewCompany),
  total: z.number(),
  /** Ocean: the seed domains it could not use, with its reason. */
  missingDomains: z.record(z.string(), z.string()).optional(),
});
export type PreviewCompaniesResponse = z.infer<typeof PreviewCompaniesResponse>;

export const SourceScrubSourceDto = z.object({
  id: z.string(),
  title: z.string(),
  type: z.string().nullable(),
  location: z.string().nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  companyCount: z.number().nullable(),
});
export type SourceScrubSourceDto = z.infer<typeof SourceScrubSourceDto>;
export const SourceScrubSourcesResponse = z.object({ success: z.literal(true), sources: z.array(SourceScrubSourceDto), total: z.number() });
export type SourceScrubSourcesResponse = z.infer<typeof SourceScrubSourcesResponse>;

/**
 * The `source` field of POST /list-company/source for a provider intention (no file): what the
 * list execution fetches. maxResultCount up to PROVIDER_SOURCE_MAX.
 */
export const ProviderSourceParams = z.discriminatedUnion(
  'intention',
  [
    z.object({
      intention: z.literal('ocean'),
      domains: OceanPreviewBody.shape.domains,
      maxResultCount: maxCount(PROVIDER_SOURCE_MAX, 100),
    }),
    z.object({ intention: z.literal('googleMaps'), query: GoogleMapsSamplesBody.shape.query, maxResultCount: maxCount(60, 60) }),
    z.object({
      intention: z.literal('sourceScrub'),
      searchText: z.string().trim().max(300).optional().nullable(),
      filters,
      sourceIds: z.array(z.string().trim().min(1).max(100)).max(20).default([]),
      maxResultCount: maxCount(PROVIDER_SOURCE_MAX, 100),
    }),
    z.object({
      intention: z.literal('agent'),
      description: z
        .string({ message: LIST_SOURCE_MESSAGES.descriptionRequired })
        .trim()
        .min(1, LIST_SOURCE_MESSAGES.descriptionRequired)
        .max(2000),
      maxResultCount: maxCount(50, 20),
    }),
  ],
  { message: 'Unknown source kind' },
);
export type ProviderSourceParams = z.infer<typeof ProviderSourceParams>;

// POST /list-company/execute (002 §7 'Executions'): typeId the list source, entityType list, entityId the list.
export const ListExecuteBody = z.object({
  typeId: z.uuid({ message: LIST_MESSAGES.sourceNotFound }),
  entityType: z.literal('list', { message: 'entityType must be list' }).default('list'),
  entityId: z.uuid({ message: LIST_MESSAGES.listNotFound }),
});
export type ListExecuteBody = z.input<typeof ListExecuteBody>;
export const ListExecuteResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  executionId: z.string(),
  status: z.enum(['started', 'duplicate']),
});
export type ListExecuteResponse = z.infer<typeof ListExecuteResponse>;

// POST /list-company/auto-complete: query (value, listCompanyId), enableOceanIoSuggestions.
export const AutoCompleteBody = z.object({
  query: z.object({ value: z.string().trim().max(255), listCompanyId: z.uuid({ message: LIST_MESSAGES.listNotFound }) }),
  enableOceanIoSuggestions: z.boolean().default(false),
});
export type AutoCompleteBody = z.input<typeof AutoCompleteBody>;
export const AutoCompleteSuggestion = z.object({
  name: z.string(),
  website: z.string(),
  domain: z.string(),
  /** company: one of the organization's companies; ocean: Ocean.io's suggestion. */
  source: z.enum(['company', 'ocean']),
  companyId: z.string().nullable(),
  /** Already an idea of this list (adding it again is a 409). */
  inList: z.boolean(),
});
export type AutoCompleteSuggestion = z.infer<typeof AutoCompleteSuggestion>;
export const AutoCompleteResponse = z.object({
  success: z.literal(true),
  suggestions: z.array(AutoCompleteSuggestion),
  /** Why no provider suggestions came (no key, the provider failed); absent when they did. */
  suggestionsNote: z.string().nullable(),
});
export type AutoCompleteResponse = z.infer<typeof AutoCompleteResponse>;

// POST /list-company/filter (002 §7 'Lists and sources'; its shape is ours): the list source
// 'Companies matching filters'. The conditions are the companies table's own (its search text and
// filters, as POST /company/get-companies takes them). dryRun: only count the matches; otherwise
// the matching companies are added as ideas (de-duplicated by domain) under a new source.
export const ListFilterBody = z.object({
  listCompanyId: z.uuid({ message: LIST_MESSAGES.listNotFound }),
  text: z.string().max(200).default(''),
  filters: z.array(TableFilterSchema).max(50).default([]),
  dryRun: z.boolean().default(false),
});
export type ListFilterBody = z.input<typeof ListFilterBody>;
export const ListFilterResponse = z.object({
  success: z.literal(true),
  dryRun: z.boolean(),
  /** Companies matching the conditions. */
  total: z.number(),
  /** The report ('N ideas added, M already in the list, K skipped'); empty on a dry run. */
  message: z.string(),
  /** The new source; null on a dry run. */
  sourceId: z.string().nullable(),
  /** New ideas. */
  inserted: z.number(),
  /** Companies whose domain was already in the list (the idea gained this source). */
  merged: z.number(),
  /** Companies that did not become ideas (no domain). */
  skipped: z.number(),
  /** The list after the run; null on a dry run. */
  list: ListDto.nullable(),
});
export type ListFilterResponse = z.infer<typeof ListFilterResponse>;
