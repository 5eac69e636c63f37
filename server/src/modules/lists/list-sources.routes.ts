// Data-provider sources of lists (spec 002 §7 'Lists and sources', 'Executions'; §8 'Other'):
// previews of Ocean.io lookalikes, Google Maps samples and Source Scrub (companies, sources, the
// companies of sources); POST /list-company/execute (a list execution fetching a provider source's
// companies into ideas); POST /list-company/auto-complete (the organization's companies plus
// Ocean.io's suggestions). Provider sources themselves are added by POST /list-company/source
// (createProviderSource, below). POST /list-company/filter: the source 'Companies matching filters'
// (the organization's companies matching the companies table's search and filters, added as ideas).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { EntityManager } from '@mikro-orm/postgresql';
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
  ProviderSourceParams,
  SourceScrubCompaniesPreviewBody,
  SourceScrubPreviewBody,
  SourceScrubSourcesPreviewBody,
  SourceScrubSourcesResponse,
  type AutoCompleteSuggestion,
} from '@dealscout/shared/contracts';
import { FILTER_SOURCE_MAX, LIST_MESSAGES, LIST_SOURCE_MESSAGES, PROVIDER_INTENTIONS, normalizeDomain } from '@dealscout/shared/domain';
import { authOf } from '../../plugins/types';
import { badRequest, notFound } from '../../lib/errors';
import { tenantSql } from '../../db/sql';
import { exactTotal, likeEscape, loadQueryContext, whereSql } from '../records/table-query';
import { createExecutions } from '../executions/commands/create-executions';
import { googlePlacesFor, oceanFor, sourceScrubFor } from '../../providers/list-sources/keys';
import { ListProviderError } from '../../providers/list-sources/port';
import { providerHttpError } from './list-sources.service';
import { createSource, insertIdeas, listOr404, lockList, publishListChange, type Actor } from './lists.service';

function actorOf(req: FastifyRequest): Actor {
  const a = authOf(req);
  return { organizationId: a.organizationId, userId: a.user.id };
}

/**
 * A provider source (intention ocean, sourceScrub, googleMaps or agent) of POST /list-company/source:
 * the `source` field's parameters checked (400 with the first message), the source created pending;
 * the client then starts it with POST /list-company/execute.
 */
export async function createProviderSource(
  em: EntityManager,
  actor: Actor,
  listId: string,
  intention: string,
  sourceJson: string | undefined,
): Promise<string> {
  let raw: unknown;
  try {
    raw = JSON.parse(sourceJson ?? '{}');
  } catch {
    throw badRequest('The source field must be JSON.');
  }
  const parsed = ProviderSourceParams.safeParse({ ...(raw && typeof raw === 'object' ? raw : {}), intention });
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid source');
  await listOr404(em, actor.organizationId, listId);
  const { intention: _kind, ...parameters } = parsed.data;
  const id = await createSource(em, actor, listId, intention, parameters, 'pending');
  await publishListChange(em, actor.organizationId, listId, 'sources');
  return id;
}

export async function listSourceRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = { 400: ErrorResponse, 429: ErrorResponse, 502: ErrorResponse };

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
    async (req) => {
      const { organizationId } = authOf(req);
      try {
        const res = await (await oceanFor(req.em, app.config, organizationId)).lookalikes(req.body.domains, req.body.maxResultCount);
        return { success: true as const, companies: res.companies, total: res.total, missingDomains: res.missing };
      } catch (e) {
        throw providerHttpError(e, LIST_SOURCE_MESSAGES.companiesError);
      }
    },
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
    async (req) => {
      const { organizationId } = authOf(req);
      try {
        const companies = await (
          await googlePlacesFor(req.em, app.config, organizationId)
        ).searchText(req.body.query, req.body.maxResultCount);
        return { success: true as const, companies, total: companies.length };
      } catch (e) {
        throw providerHttpError(e, LIST_SOURCE_MESSAGES.companiesError);
      }
    },
  );

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
    async (req) => {
      const { organizationId } = authOf(req);
      try {
        const res = await (
          await sourceScrubFor(req.em, app.config, organizationId)
        ).searchCompanies({ searchText: req.body.searchText, filters: req.body.filters }, req.body.maxResultCount);
        return { success: true as const, companies: res.companies, total: res.total };
      } catch (e) {
        throw providerHttpError(e, LIST_SOURCE_MESSAGES.sourceScrubCompaniesError);
      }
    },
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
    async (req) => {
      const { organizationId } = authOf(req);
      const { searchText, ...filters } = req.body.filters;
      try {
        const res = await (
          await sourceScrubFor(req.em, app.config, organizationId)
        ).searchSources({ searchText, filters }, req.body.maxResultCount);
        return { success: true as const, sources: res.sources, total: res.total };
      } catch (e) {
        throw providerHttpError(e, LIST_SOURCE_MESSAGES.sourceScrubSourcesError);
      }
    },
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
    async (req) => {
      const { organizationId } = authOf(req);
      try {
        const res = await (
          await sourceScrubFor(req.em, app.config, organizationId)
        ).sourceCompanies(req.body.filters.sourceIds, req.body.maxResultCount);
        return { success: true as const, companies: res.companies, total: res.total };
      } catch (e) {
        throw providerHttpError(e, LIST_SOURCE_MESSAGES.sourceScrubCompaniesError);
      }
    },
  );

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
    async (req, reply) => {
      const actor = actorOf(req);
      const b = req.body;
      await listOr404(req.em, actor.organizationId, b.entityId);
      const db = tenantSql(req.em, actor.organizationId);
      const [src] = await db.all<{ id: string; type: string }>(
        `select id::text, type from list_source where organization_id = ? and id = ? and list_id = ?`,
        [actor.organizationId, b.typeId, b.entityId],
      );
      if (!src) throw notFound(LIST_MESSAGES.sourceNotFound);
      if (!(PROVIDER_INTENTIONS as readonly string[]).includes(src.type)) throw badRequest(LIST_SOURCE_MESSAGES.notProviderSource);
      if (!app.boss) return reply.status(503).send({ success: false as const, message: 'Executions are not available on this server.' });
      const started = await req.em.transactional(async (tem) => {
        const [s] = await createExecutions(tem, app.boss!, {
          organizationId: actor.organizationId,
          createdById: actor.userId,
          type: 'list',
          typeId: src.id,
          entityType: 'list',
          targets: [{ entityId: b.entityId, idempotencyKey: `list-source:${src.id}` }],
        });
        if (s.status === 'started') {
          await tenantSql(tem, actor.organizationId).run(
            `update list_source set status = 'pending', status_severity = null, status_reason = null, updated_at = now() where organization_id = ? and id = ?`,
            [actor.organizationId, src.id],
          );
          await publishListChange(tem, actor.organizationId, b.entityId, 'sources');
        }
        return s;
      });
      return {
        success: true as const,
        message: started.status === 'started' ? LIST_SOURCE_MESSAGES.executionStarted : LIST_SOURCE_MESSAGES.executionRunning,
        executionId: started.executionId,
        status: started.status,
      };
    },
  );

  r.post(
    '/list-company/filter',
    {
      schema: {
        tags: ['lists'],
        summary:
          "The source 'Companies matching filters': the organization's companies matching the companies table's search text and filters. dryRun: their count only; otherwise they are added as ideas (de-duplicated by domain) under a new source",
        body: ListFilterBody,
        response: { 200: ListFilterResponse, 201: ListFilterResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const b = req.body;
      await listOr404(req.em, actor.organizationId, b.listCompanyId);
      // The filters are checked here (unknown field, empty value...: 400 with the filter editor's message).
      const ctx = await loadQueryContext(req.em, actor.organizationId, 'company');
      const where = whereSql(ctx, { text: b.text, filters: b.filters });
      if (b.dryRun) {
        const total = await exactTotal(req.em, ctx, where);
        return { success: true as const, dryRun: true, total, message: '', sourceId: null, inserted: 0, merged: 0, skipped: 0, list: null };
      }
      const done = await req.em.transactional(async (tem) => {
        await lockList(tem, actor.organizationId, b.listCompanyId);
        const companies = await tenantSql(tem, actor.organizationId).all<{ name: string; website: string; domain: string }>(
          `select r.name, r.website, r.domain from company r ${where.text} order by r.created_at, r.id limit ${FILTER_SOURCE_MAX + 1}`,
          where.params,
        );
        if (companies.length > FILTER_SOURCE_MAX) throw badRequest(LIST_SOURCE_MESSAGES.filterTooMany(FILTER_SOURCE_MAX));
        if (companies.length === 0) throw badRequest(LIST_SOURCE_MESSAGES.filterNoMatch);
        const rows = companies.filter((c) => c.domain && c.website);
        const skipped = companies.length - rows.length;
        const sourceId = await createSource(
          tem,
          actor,
          b.listCompanyId,
          'filter',
          { text: b.text, filters: b.filters, matched: companies.length },
          'completed',
        );
        const res = await insertIdeas(tem, actor.organizationId, b.listCompanyId, sourceId, rows);
        const parts = [
          `${res.inserted.toLocaleString('en-US')} idea${res.inserted === 1 ? '' : 's'} added`,
          `${res.merged.toLocaleString('en-US')} already in the list`,
          `${skipped.toLocaleString('en-US')} without a domain skipped`,
        ];
        const message = parts.join(', ');
        await tenantSql(tem, actor.organizationId).run(
          `update list_source set status_severity = ?, status_reason = ?, updated_at = now() where organization_id = ? and id = ?`,
          [skipped ? 'warning' : 'info', message, actor.organizationId, sourceId],
        );
        return { sourceId, total: companies.length, message, skipped, ...res };
      });
      await publishListChange(req.em, actor.organizationId, b.listCompanyId, 'sources');
      await publishListChange(req.em, actor.organizationId, b.listCompanyId, 'ideas');
      return reply
        .status(201)
        .send({ success: true as const, dryRun: false, ...done, list: await listOr404(req.em, actor.organizationId, b.listCompanyId) });
    },
  );

  r.post(
    '/list-company/auto-complete',
    {
      schema: {
        tags: ['lists'],
        summary:
          "Suggestions for a manual idea: the organization's companies by name or domain, plus Ocean.io's when enableOceanIoSuggestions (the organization's key)",
        body: AutoCompleteBody,
        response: { 200: AutoCompleteResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const { organizationId } = authOf(req);
      const { value, listCompanyId } = req.body.query;
      await listOr404(req.em, organizationId, listCompanyId);
      const text = value.trim().toLowerCase();
      if (!text) return { success: true as const, suggestions: [], suggestionsNote: null };
      const db = tenantSql(req.em, organizationId);
      const like = `${likeEscape(text)}%`;
      const own = await db.all<{ id: string; name: string; website: string; domain: string }>(
        `select c.id::text, c.name, c.website, c.domain from company c where c.organization_id = ? and (lower(c.name) like ? escape '\\' or c.domain like ? escape '\\')
        order by (lower(c.name) = ?) desc, lower(c.name), c.id limit 10`,
        [organizationId, like, like, text],
      );
      const suggestions: AutoCompleteSuggestion[] = own.map((c) => ({
        name: c.name,
        website: c.website,
        domain: c.domain,
        source: 'company',
        companyId: c.id,
        inList: false,
      }));
      let note: string | null = null;
      if (req.body.enableOceanIoSuggestions) {
        try {
          const seen = new Set(suggestions.map((s) => s.domain));
          for (const s of await (await oceanFor(req.em, app.config, organizationId)).autocomplete(value.trim())) {
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
          note = e.message;
        }
      }
      if (suggestions.length) {
        const inList = new Set(
          (
            await db.all<{ domain: string }>(
              `select domain from idea where organization_id = ? and list_id = ? and domain = any(?::text[])`,
              [organizationId, listCompanyId, `{${suggestions.map((s) => `"${s.domain.replace(/["\\]/g, '')}"`).join(',')}}`],
            )
          ).map((x) => x.domain),
        );
        for (const s of suggestions) s.inList = inList.has(s.domain);
      }
      return { success: true as const, suggestions, suggestionsNote: note };
    },
  );
}
