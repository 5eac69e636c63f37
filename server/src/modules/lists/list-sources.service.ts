// Data-provider list sources (spec 002 §7 'Lists and sources', §4 'List execution'): the companies
// a source's provider proposes (Ocean.io lookalikes, a Source Scrub search or its sources, Google
// Maps samples), fetched through the adapters of server/src/providers/list-sources with the
// organization's key, and the HTTP answer of a provider failure. The use cases of
// list-sources.routes.ts (previews, adding a provider source, starting its list execution) take one
// ListSourceContext: the request's EntityManager, the config, the job queue and the caller.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import type { z } from 'zod';
import {
  ProviderSourceParams,
  type GoogleMapsSamplesBody,
  type ListExecuteBody,
  type ListExecuteResponse,
  type OceanPreviewBody,
  type PreviewCompaniesResponse,
  type SourceScrubCompaniesPreviewBody,
  type SourceScrubPreviewBody,
  type SourceScrubSourcesPreviewBody,
  type SourceScrubSourcesResponse,
} from '@dealscout/shared/contracts';
import { LIST_MESSAGES, LIST_SOURCE_MESSAGES, PROVIDER_INTENTIONS } from '@dealscout/shared/domain';
import type { Config } from '../../config';
import { HttpError, badRequest, notFound } from '../../lib/errors';
import { tenantSql } from '../../db/sql';
import { createExecutions } from '../executions/commands/create-executions';
import { createSource, listOr404, publishListChange, type Actor } from './lists.service';
import { googlePlacesFor, oceanFor, sourceScrubFor } from '../../providers/list-sources/keys';
import { ListProviderError, type SourceCompany } from '../../providers/list-sources/port';

/** The caller and the request's EntityManager. */
export interface ListSourceScope extends Actor {
  em: EntityManager;
}

/** What a list-source use case receives: the request's EntityManager, the config, the job queue and the caller. */
export interface ListSourceContext extends ListSourceScope {
  config: Config;
  boss: PgBoss | null;
}

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

/**
 * A provider source (intention ocean, sourceScrub, googleMaps or agent) of POST /list-company/source:
 * the `source` field's parameters checked (400 with the first message), the source created pending;
 * the client then starts it with POST /list-company/execute.
 */
export async function createProviderSource(
  c: ListSourceScope,
  listId: string,
  intention: string,
  sourceJson: string | undefined,
): Promise<string> {
  const { em } = c;
  let raw: unknown;
  try {
    raw = JSON.parse(sourceJson ?? '{}');
  } catch {
    throw badRequest('The source field must be JSON.');
  }
  const parsed = ProviderSourceParams.safeParse({ ...(raw && typeof raw === 'object' ? raw : {}), intention });
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid source');
  await listOr404(em, c.organizationId, listId);
  const { intention: _kind, ...parameters } = parsed.data;
  const id = await createSource(em, c, listId, intention, parameters, 'pending');
  await publishListChange(em, c.organizationId, listId, 'sources');
  return id;
}

type PreviewCompanies = Omit<PreviewCompaniesResponse, 'success'>;

/** Ocean.io lookalikes of seed domains (a preview: nothing is saved). */
export async function previewOcean(c: ListSourceContext, body: z.output<typeof OceanPreviewBody>): Promise<PreviewCompanies> {
  try {
    const res = await (await oceanFor(c.em, c.config, c.organizationId)).lookalikes(body.domains, body.maxResultCount);
    return { companies: res.companies, total: res.total, missingDomains: res.missing };
  } catch (e) {
    throw providerHttpError(e, LIST_SOURCE_MESSAGES.companiesError);
  }
}

/** Google Maps businesses of a text search (a preview: nothing is saved). */
export async function previewGoogleMaps(c: ListSourceContext, body: z.output<typeof GoogleMapsSamplesBody>): Promise<PreviewCompanies> {
  try {
    const companies = await (await googlePlacesFor(c.em, c.config, c.organizationId)).searchText(body.query, body.maxResultCount);
    return { companies, total: companies.length };
  } catch (e) {
    throw providerHttpError(e, LIST_SOURCE_MESSAGES.companiesError);
  }
}

/** A Source Scrub company search (a preview: nothing is saved). */
export async function previewSourceScrub(c: ListSourceContext, body: z.output<typeof SourceScrubPreviewBody>): Promise<PreviewCompanies> {
  try {
    const res = await (
      await sourceScrubFor(c.em, c.config, c.organizationId)
    ).searchCompanies({ searchText: body.searchText, filters: body.filters }, body.maxResultCount);
    return { companies: res.companies, total: res.total };
  } catch (e) {
    throw providerHttpError(e, LIST_SOURCE_MESSAGES.sourceScrubCompaniesError);
  }
}

/** Source Scrub's sources (conferences, lists...) matching the filters. */
export async function previewSourceScrubSources(
  c: ListSourceContext,
  body: z.output<typeof SourceScrubSourcesPreviewBody>,
): Promise<Omit<SourceScrubSourcesResponse, 'success'>> {
  const { searchText, ...filters } = body.filters;
  try {
    const res = await (await sourceScrubFor(c.em, c.config, c.organizationId)).searchSources({ searchText, filters }, body.maxResultCount);
    return { sources: res.sources, total: res.total };
  } catch (e) {
    throw providerHttpError(e, LIST_SOURCE_MESSAGES.sourceScrubSourcesError);
  }
}

/** The companies of chosen Source Scrub sources (a preview: nothing is saved). */
export async function previewSourceScrubCompanies(
  c: ListSourceContext,
  body: z.output<typeof SourceScrubCompaniesPreviewBody>,
): Promise<PreviewCompanies> {
  try {
    const res = await (await sourceScrubFor(c.em, c.config, c.organizationId)).sourceCompanies(body.filters.sourceIds, body.maxResultCount);
    return { companies: res.companies, total: res.total };
  } catch (e) {
    throw providerHttpError(e, LIST_SOURCE_MESSAGES.sourceScrubCompaniesError);
  }
}

/**
 * Starts a list execution fetching a provider source's companies into the list's ideas: the list
 * (404), the source (404) and its kind (400) are checked first; 503 when the server runs no jobs.
 */
export async function startListSourceExecution(
  c: ListSourceContext,
  b: z.output<typeof ListExecuteBody>,
): Promise<Omit<ListExecuteResponse, 'success'>> {
  await listOr404(c.em, c.organizationId, b.entityId);
  const db = tenantSql(c.em, c.organizationId);
  const [src] = await db.all<{ id: string; type: string }>(
    `select id::text, type from list_source where organization_id = ? and id = ? and list_id = ?`,
    [c.organizationId, b.typeId, b.entityId],
  );
  if (!src) throw notFound(LIST_MESSAGES.sourceNotFound);
  if (!(PROVIDER_INTENTIONS as readonly string[]).includes(src.type)) throw badRequest(LIST_SOURCE_MESSAGES.notProviderSource);
  const boss = c.boss;
  if (!boss) throw new HttpError(503, 'Executions are not available on this server.');
  const started = await c.em.transactional(async (tem) => {
    const [s] = await createExecutions(tem, boss, {
      organizationId: c.organizationId,
      createdById: c.userId,
      type: 'list',
      typeId: src.id,
      entityType: 'list',
      targets: [{ entityId: b.entityId, idempotencyKey: `list-source:${src.id}` }],
    });
    if (s.status === 'started') {
      await tenantSql(tem, c.organizationId).run(
        `update list_source set status = 'pending', status_severity = null, status_reason = null, updated_at = now() where organization_id = ? and id = ?`,
        [c.organizationId, src.id],
      );
      await publishListChange(tem, c.organizationId, b.entityId, 'sources');
    }
    return s;
  });
  return {
    message: started.status === 'started' ? LIST_SOURCE_MESSAGES.executionStarted : LIST_SOURCE_MESSAGES.executionRunning,
    executionId: started.executionId,
    status: started.status,
  };
}
