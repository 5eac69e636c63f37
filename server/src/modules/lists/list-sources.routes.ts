// Data-provider sources of lists (spec 002 §7 'Lists and sources', 'Executions'; §8 'Other'):
// previews of Ocean.io lookalikes, Google Maps samples and Source Scrub (companies, sources, the
// companies of sources); POST /list-company/execute (a list execution fetching a provider source's
// companies into ideas); POST /list-company/auto-complete (the organization's companies plus
// Ocean.io's suggestions). Provider sources themselves are added by POST /list-company/source
// (createProviderSource in list-sources.service.ts). POST /list-company/filter: the source 'Companies
// matching filters' (addFilterSource.ts). Each route validates, calls one use case with a
// ListSourceContext and answers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AutoCompleteBody,
  AutoCompleteResponse,
  ErrorResponse,
  GoogleMapsSamplesBody,
  ListExecuteBody,
  ListExecuteResponse,
  ListFilterBody,
  ListFilterResponse,
  OceanPreviewBody,
  PreviewCompaniesResponse,
  SourceScrubCompaniesPreviewBody,
  SourceScrubPreviewBody,
  SourceScrubSourcesPreviewBody,
  SourceScrubSourcesResponse,
} from '@dealscout/shared/contracts';
import { authOf } from '../../plugins/types';
import {
  previewGoogleMaps,
  previewOcean,
  previewSourceScrub,
  previewSourceScrubCompanies,
  previewSourceScrubSources,
  startListSourceExecution,
  type ListSourceContext,
} from './list-sources.service';
import { addFilterSource } from './addFilterSource';
import { suggestIdeas } from './suggestIdeas';

function listSourceContext(app: FastifyInstance, req: FastifyRequest): ListSourceContext {
  const a = authOf(req);
  return { em: req.em, config: app.config, boss: app.boss, organizationId: a.organizationId, userId: a.user.id };
}

const errors = { 400: ErrorResponse, 429: ErrorResponse, 502: ErrorResponse };

export async function listSourceRoutes(app: FastifyInstance): Promise<void> {
  // Registered in this order (the OpenAPI document lists them so).
  previewRoutes(app);
  sourceScrubPreviewRoutes(app);
  sourceRoutes(app);
}

/** Previews of Ocean.io lookalikes and Google Maps samples. */
function previewRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => listSourceContext(app, req);

  r.post(
    '/list-company/ocean/preview',
    {
      schema: {
        tags: ['lists'],
        summary: 'Ocean.io lookalikes of seed domains (a preview: nothing is saved)',
        body: OceanPreviewBody,
        response: { 200: PreviewCompaniesResponse, ...errors },
      },
    },
    async (req) => ({ success: true as const, ...(await previewOcean(ctx(req), req.body)) }),
  );

  r.post(
    '/list-company/google-maps-samples',
    {
      schema: {
        tags: ['lists'],
        summary: 'Google Maps businesses of a text search (Places API Text Search; a preview: nothing is saved)',
        body: GoogleMapsSamplesBody,
        response: { 200: PreviewCompaniesResponse, ...errors },
      },
    },
    async (req) => ({ success: true as const, ...(await previewGoogleMaps(ctx(req), req.body)) }),
  );
}

/** Previews of Source Scrub: a company search, its sources, the companies of chosen sources. */
function sourceScrubPreviewRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => listSourceContext(app, req);

  r.post(
    '/list-company/source-scrub/preview',
    {
      schema: {
        tags: ['lists'],
        summary: 'A Source Scrub company search (searchText, filters; a preview: nothing is saved)',
        body: SourceScrubPreviewBody,
        response: { 200: PreviewCompaniesResponse, ...errors },
      },
    },
    async (req) => ({ success: true as const, ...(await previewSourceScrub(ctx(req), req.body)) }),
  );

  r.post(
    '/list-company/source-scrub-sources/preview',
    {
      schema: {
        tags: ['lists'],
        summary: "Source Scrub's sources (conferences, lists...) matching the filters",
        body: SourceScrubSourcesPreviewBody,
        response: { 200: SourceScrubSourcesResponse, ...errors },
      },
    },
    async (req) => ({ success: true as const, ...(await previewSourceScrubSources(ctx(req), req.body)) }),
  );

  r.post(
    '/list-company/source-scrub-companies/preview',
    {
      schema: {
        tags: ['lists'],
        summary: 'The companies of chosen Source Scrub sources (filters.sourceIds; a preview: nothing is saved)',
        body: SourceScrubCompaniesPreviewBody,
        response: { 200: PreviewCompaniesResponse, ...errors },
      },
    },
    async (req) => ({ success: true as const, ...(await previewSourceScrubCompanies(ctx(req), req.body)) }),
  );
}

/** Start a provider source's list execution, the source 'Companies matching filters', suggestions for a manual idea. */
function sourceRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (req: FastifyRequest) => listSourceContext(app, req);

  r.post(
    '/list-company/execute',
    {
      schema: {
        tags: ['lists', 'executions'],
        summary:
          "Starts a list execution: fetches a provider source's companies into the list's ideas (typeId the source, entityType list, entityId the list)",
        body: ListExecuteBody,
        response: { 200: ListExecuteResponse, 400: ErrorResponse, 404: ErrorResponse, 503: ErrorResponse },
      },
    },
    async (req) => ({ success: true as const, ...(await startListSourceExecution(ctx(req), req.body)) }),
  );

  r.post(
    '/list-company/filter',
    {
      schema: {
        tags: ['lists'],
        summary:
          "The source 'Companies matching filters': the organization's companies matching the companies table's search " +
          'text and filters. dryRun: their count only; otherwise they are added as ideas (de-duplicated by domain) under ' +
          'a new source',
        body: ListFilterBody,
        response: { 200: ListFilterResponse, 201: ListFilterResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const answer = await addFilterSource(ctx(req), req.body);
      return answer.dryRun ? answer : reply.status(201).send(answer);
    },
  );

  r.post(
    '/list-company/auto-complete',
    {
      schema: {
        tags: ['lists'],
        summary:
          "Suggestions for a manual idea: the organization's companies by name or domain, plus Ocean.io's when " +
          "enableOceanIoSuggestions (the organization's key)",
        body: AutoCompleteBody,
        response: { 200: AutoCompleteResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => ({ success: true as const, ...(await suggestIdeas(ctx(req), req.body)) }),
  );
}
