// Plays: the playbook table, the editor's saves and drafts, duplicate and remove, a run's estimate
// (spec 001 §2, §5, §7). The use cases of plays.routes.ts each take one PlayContext: the request's
// EntityManager, the config, the LLM port and the caller.
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  PLAY_MESSAGES,
  PLAY_PAGE_SIZE,
  enrichmentsIncluded,
  playPublishProblem,
  instructionsText,
  type RichPromptNode,
} from '@dealscout/shared/domain';
import type { z } from 'zod';
import type {
  PlayDto,
  PlaybookBody,
  PlaybookUsersResponse,
  PlayDraftBody,
  PlayDraftResponse,
  PlayEstimateBody,
  PlayEstimateResponse,
  SavePlayBody,
} from '@dealscout/shared/contracts';
import type { Config } from '../../config';
import type { LlmService } from '../../providers/llm';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import type { IOrganization } from '../../db/organization.entity';
import { Play, PlayDraft, type IPlay } from './play.entity';
import { PROVIDED_PLAYS } from './provided';
import { tenantSql } from '../../db/sql';
import { assertOwned, assertPromptRefsOwned } from '../enrichments/owned-refs';

export interface PlayActor {
  organizationId: string;
  userId: string;
  isAdmin: boolean;
}

/** What a play use case receives: the request's EntityManager, the config, the LLM port and the caller. */
export interface PlayContext extends PlayActor {
  em: EntityManager;
  config: Config;
  llm: LlmService;
  /** The caller as a preview signs the email. */
  user: { firstName: string; lastName: string; emailSignature?: string | null };
}

export function createProvidedPlays(em: EntityManager, organization: IOrganization): void {
  for (const p of PROVIDED_PLAYS) {
    em.create(Play, {
      organization,
      name: p.name,
      description: p.description,
      instructions: p.instructions,
      subject: p.subject,
      subjectPrompt: '',
      playType: 'openai',
      llmModelId: 'default',
      status: 'published',
      useCount: 0,
      enrichmentsIncluded: [],
      isProvidedByProduct: true,
      productKey: p.key,
      version: 1,
      createdBy: null,
    });
  }
}

type PlayRow = {
  id: string;
  name: string;
  description: string;
  instructions: RichPromptNode[];
  subject: string;
  subject_prompt: string;
  play_type: string;
  llm_model_id: string;
  status: string;
  use_count: number;
  enrichments_included: string[];
  is_provided_by_product: boolean;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
  u_id: string | null;
  u_first: string | null;
  u_last: string | null;
};

const PLAY_SELECT = `p.id, p.name, p.description, p.instructions, p.subject, p.subject_prompt, p.play_type, p.llm_model_id, p.status, p.use_count,
  p.enrichments_included, p.is_provided_by_product, p.version, p.created_at, p.updated_at, u.id as u_id, u.first_name as u_first, u.last_name as u_last`;
const PLAY_FROM = `play p left join app_user u on u.organization_id = p.organization_id and u.id = p.created_by_id`;

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

async function enrichmentNames(em: EntityManager, organizationId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tenantSql(em, organizationId).all<{ id: string; name: string }>(
    `select id, name from enrichment where organization_id = ? and id in (select (jsonb_array_elements_text(?::jsonb))::uuid)`,
    [organizationId, JSON.stringify(ids)],
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function toPlayDtos(em: EntityManager, organizationId: string, rows: PlayRow[]): Promise<PlayDto[]> {
  const names = await enrichmentNames(em, organizationId, [...new Set(rows.flatMap((r) => r.enrichments_included ?? []))]);
  return rows.map((r) => {
    const template = instructionsText(r.instructions).trim();
    return {
      id: r.id,
      name: r.name,
      description: r.description,
      template,
      instructions: r.instructions,
      subject: r.subject,
      subjectPrompt: r.subject_prompt,
      playType: r.play_type as PlayDto['playType'],
      llmModelId: r.llm_model_id,
      status: r.status as PlayDto['status'],
      useCount: Number(r.use_count),
      version: Number(r.version),
      // A removed enrichment is no longer counted.
      enrichmentsIncluded: (r.enrichments_included ?? []).filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! })),
      isProvidedByProduct: r.is_provided_by_product,
      createdBy: r.u_id ? { id: r.u_id, firstName: r.u_first ?? '', lastName: r.u_last ?? '' } : null,
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
      templates: [{ template, title: r.subject, llmEngine: r.play_type as PlayDto['playType'] }],
    };
  });
}

async function playRows(em: EntityManager, organizationId: string, where: string, params: unknown[], tail = ''): Promise<PlayRow[]> {
  return tenantSql(em, organizationId).all<PlayRow>(
    `select ${PLAY_SELECT} from ${PLAY_FROM} where p.organization_id = ? ${where} ${tail}`,
    [organizationId, ...params],
  );
}

async function playDto(em: EntityManager, organizationId: string, id: string): Promise<PlayDto> {
  const rows = await playRows(em, organizationId, 'and p.id = ?', [id]);
  if (rows.length === 0) throw notFound(PLAY_MESSAGES.invalid);
  return (await toPlayDtos(em, organizationId, rows))[0];
}

/** One play of the caller's organization (404 otherwise). */
export async function getPlay(c: PlayContext, id: string): Promise<PlayDto> {
  return playDto(c.em, c.organizationId, id);
}

/** The published plays (Run Play), by name. */
export async function publishedPlays(c: PlayContext): Promise<PlayDto[]> {
  const { em, organizationId } = c;
  return toPlayDtos(
    em,
    organizationId,
    await playRows(em, organizationId, `and p.status = 'published'`, [], 'order by lower(p.name), p.id limit 1000'),
  );
}

/** DD/MM/YYYY to YYYY-MM-DD (null when not a real date). */
function dayOf(s: string): string | null {
  const [d, m, y] = s.split('/').map(Number);
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
  return dt.toISOString().slice(0, 10);
}

const SORTS: Record<string, string> = {
  name: 'lower(p.name)',
  playType: 'p.play_type',
  enrichmentsIncluded: 'jsonb_array_length(p.enrichments_included)',
  useCount: 'p.use_count',
  createdBy: `lower(coalesce(u.first_name || ' ' || u.last_name, ''))`,
  createdAt: 'p.created_at',
};

export async function playbook(c: PlayContext, body: z.output<typeof PlaybookBody>) {
  const { em, organizationId } = c;
  const where: string[] = [];
  const params: unknown[] = [];
  const text = body.text.trim();
  if (text) {
    where.push(`(p.name ilike ? or p.description ilike ?)`);
    const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    params.push(like, like);
  }
  if (body.playType.length > 0) {
    where.push(`p.play_type in (${body.playType.map(() => '?').join(', ')})`);
    params.push(...body.playType);
  }
  if (body.createdBy.length > 0) {
    const ids = body.createdBy
      .filter((c) => !c.isProvidedByProduct)
      .map((c) => c.originalId ?? c.id)
      .filter((id) => /^[0-9a-f-]{36}$/i.test(id));
    const provided = body.createdBy.some((c) => c.isProvidedByProduct);
    const parts: string[] = [];
    if (ids.length) {
      parts.push(`p.created_by_id in (${ids.map(() => '?').join(', ')})`);
      params.push(...ids);
    }
    if (provided) parts.push('p.is_provided_by_product');
    where.push(parts.length ? `(${parts.join(' or ')})` : 'false');
  }
  if (body.createdAt.length > 0) {
    const days = body.createdAt.map(dayOf);
    if (days.some((d) => d === null)) throw badRequest('Dates are DD/MM/YYYY');
    const [from, to] = [days[0]!, days[1] ?? days[0]!];
    where.push(`p.created_at >= ?::date and p.created_at < ?::date + 1`);
    params.push(from < to ? from : to, from < to ? to : from);
  }
  const w = where.length ? `and ${where.join(' and ')}` : '';
  const [{ n }] = await tenantSql(em, organizationId).all<{ n: number }>(
    `select count(*)::int as n from ${PLAY_FROM} where p.organization_id = ? ${w}`,
    [organizationId, ...params],
  );
  const sort =
    body.sortKey && body.sortOrder ? `${SORTS[body.sortKey]} ${body.sortOrder}, p.id ${body.sortOrder}` : 'p.created_at desc, p.id desc';
  const rows = await playRows(
    em,
    organizationId,
    w,
    params,
    `order by ${sort} limit ${PLAY_PAGE_SIZE} offset ${body.pageIndex * PLAY_PAGE_SIZE}`,
  );
  return { rows: await toPlayDtos(em, organizationId, rows), total: n };
}

/** A play the actor may change: the organization's (404 otherwise), not provided (403), theirs or they are admin (403). */
async function changeablePlay(em: EntityManager, actor: PlayActor, id: string): Promise<IPlay> {
  const play = await em.findOne(Play, { id, organization: actor.organizationId });
  if (!play) throw notFound(PLAY_MESSAGES.invalid);
  if (play.isProvidedByProduct) throw forbidden(PLAY_MESSAGES.providedReadOnly);
  const creator = (play.createdBy as { id?: string } | null)?.id ?? null;
  if (!actor.isAdmin && creator !== actor.userId) throw forbidden(PLAY_MESSAGES.notOwner);
  return play;
}

/** Saves a play (create or update) and answers it as the table shows it. */
export async function savePlay(c: PlayContext, body: SavePlayBody): Promise<{ play: PlayDto; message: string }> {
  const { play, message } = await storePlay(c.em, c, body);
  return { play: await playDto(c.em, c.organizationId, play.id), message };
}

async function storePlay(em: EntityManager, actor: PlayActor, body: SavePlayBody): Promise<{ play: IPlay; message: string }> {
  const instructions = (body.instructions ?? []) as RichPromptNode[];
  const status = body.status ?? 'draft';
  const name = (body.name ?? '').trim();
  if (status === 'published') {
    const problem = playPublishProblem({ name, instructions });
    if (problem) throw badRequest(problem);
  } else if (!name) throw badRequest(PLAY_MESSAGES.enterName);
  await assertPromptRefsOwned(em, actor.organizationId, instructions);
  const playType = body.llmProvider ?? 'openai';
  const fields = {
    name,
    description: (body.description ?? '').trim(),
    instructions,
    subject: body.title ?? '',
    subjectPrompt: body.subjectPrompt ?? '',
    playType,
    llmModelId: body.llmModelId || 'default',
    status,
    enrichmentsIncluded: enrichmentsIncluded(instructions),
  };
  if (body.id) {
    const play = await changeablePlay(em, actor, body.id);
    // Published stays published (status goes draft → published only).
    em.assign(play, { ...fields, status: play.status === 'published' ? 'published' : status, version: play.version + 1 });
    await em.flush();
    return { play, message: status === 'published' ? PLAY_MESSAGES.published : PLAY_MESSAGES.saved };
  }
  const play = em.create(Play, {
    ...fields,
    organization: actor.organizationId,
    useCount: 0,
    isProvidedByProduct: false,
    productKey: null,
    version: 1,
    createdBy: actor.userId,
  });
  // The editor's unsaved new play of this provider is now a play.
  await em.nativeDelete(PlayDraft, { organization: actor.organizationId, user: actor.userId, provider: playType });
  await em.flush();
  return { play, message: status === 'published' ? PLAY_MESSAGES.published : PLAY_MESSAGES.saved };
}

/** Duplicates a play (provided ones too): the copy is the caller's. */
export async function duplicatePlay(c: PlayContext, id: string): Promise<PlayDto> {
  const copy = await copyPlay(c.em, c, id);
  return playDto(c.em, copy.organization.id, copy.id);
}

async function copyPlay(em: EntityManager, actor: PlayActor, id: string): Promise<IPlay> {
  const src = await em.findOne(Play, { id, organization: actor.organizationId });
  if (!src) throw notFound(PLAY_MESSAGES.invalid);
  const copy = em.create(Play, {
    organization: actor.organizationId,
    name: `${src.name} (copy)`.slice(0, 200),
    description: src.description,
    instructions: src.instructions,
    subject: src.subject,
    subjectPrompt: src.subjectPrompt,
    playType: src.playType,
    llmModelId: src.llmModelId,
    status: src.status,
    useCount: 0,
    enrichmentsIncluded: src.enrichmentsIncluded,
    isProvidedByProduct: false,
    productKey: null,
    version: 1,
    createdBy: actor.userId,
  });
  await em.flush();
  return copy;
}

export async function removePlay(c: PlayContext, id: string): Promise<void> {
  const { em } = c;
  const play = await changeablePlay(em, c, id);
  em.remove(play);
  await em.flush();
}

/** Creators of plays (the Created By filter), the product first when it provided any. */
export async function playbookUsers(c: PlayContext): Promise<z.output<typeof PlaybookUsersResponse>['users']> {
  const org = c.organizationId;
  const rows = await tenantSql(c.em, org).all<{ id: string; first_name: string; last_name: string }>(
    `select distinct u.id, u.first_name, u.last_name from play p join app_user u on u.organization_id = p.organization_id and u.id =
      p.created_by_id where p.organization_id = ? order by u.first_name, u.last_name, u.id`,
    [org],
  );
  const [{ n }] = await tenantSql(c.em, org).all<{ n: number }>(
    `select count(*)::int as n from play where organization_id = ? and is_provided_by_product`,
    [org],
  );
  return [
    ...(n > 0 ? [{ id: 'dealscout', originalId: 'dealscout', firstName: 'Dealscout', lastName: '', isProvidedByProduct: true }] : []),
    ...rows.map((u) => ({ id: u.id, originalId: u.id, firstName: u.first_name, lastName: u.last_name, isProvidedByProduct: false })),
  ];
}

type PlayDraftDto = NonNullable<z.output<typeof PlayDraftResponse>['draft']>;
type DraftProvider = PlayDraftDto['provider'];

/** The caller's unsaved new play of a provider, or null. */
export async function getPlayDraft(c: PlayContext, provider: DraftProvider): Promise<PlayDraftDto | null> {
  const d = await c.em.findOne(PlayDraft, { organization: c.organizationId, user: c.userId, provider });
  return d ? ({ provider, ...d.data, updatedAt: d.updatedAt.toISOString() } as PlayDraftDto) : null;
}

/** Keeps the caller's unsaved new play of a provider (its test contact and prompt references must be the organization's: 404). */
export async function keepPlayDraft(c: PlayContext, provider: DraftProvider, body: z.output<typeof PlayDraftBody>): Promise<PlayDraftDto> {
  await assertOwned(c.em, c.organizationId, 'contact', [body.targetContactId]);
  await assertPromptRefsOwned(c.em, c.organizationId, body.instructions as RichPromptNode[]);
  const data = {
    name: body.name,
    description: body.description,
    instructions: body.instructions as RichPromptNode[],
    title: body.title,
    subjectPrompt: body.subjectPrompt,
    targetContactId: body.targetContactId ?? null,
  };
  await tenantSql(c.em, c.organizationId).all(
    `insert into play_draft (id, organization_id, user_id, provider, data, updated_at) values (gen_random_uuid(), ?, ?, ?, ?::jsonb, clock_timestamp())
       on conflict (organization_id, user_id, provider) do update set data = excluded.data, updated_at = clock_timestamp()`,
    [c.organizationId, c.userId, provider, JSON.stringify(data)],
  );
  return { provider, ...data, updatedAt: new Date().toISOString() };
}

/** Removes the caller's unsaved new play of one provider, or all of them. */
export async function removePlayDrafts(c: PlayContext, provider: DraftProvider | undefined): Promise<void> {
  await c.em.nativeDelete(PlayDraft, { organization: c.organizationId, user: c.userId, ...(provider ? { provider } : {}) });
}

/** What a run over N rows will take before it starts: model calls, credits, expected time. */
export async function estimatePlay(
  c: PlayContext,
  body: z.output<typeof PlayEstimateBody>,
): Promise<z.output<typeof PlayEstimateResponse>> {
  const p = await c.em.findOne(Play, { id: body.playId, organization: c.organizationId });
  if (!p) throw notFound(PLAY_MESSAGES.invalid);
  const [org] = await tenantSql(c.em, c.organizationId).all<{ ai_credits_total: number | null; ai_credits_used: number }>(
    `select ai_credits_total, ai_credits_used from organization where id = ?`,
    [c.organizationId],
  );
  const calls = p.playType === 'non_ai' ? 0 : body.count;
  // credits.ai: a null total is unlimited (providers/llm/credits.ts).
  const total = org?.ai_credits_total ?? null;
  const remaining = total === null ? null : Math.max(0, total - (org?.ai_credits_used ?? 0));
  const concurrency = Math.max(1, c.config.EXECUTION_ORG_CONCURRENCY);
  // About two seconds a model call at the organization's concurrency; template plays are near instant.
  const seconds = calls === 0 ? Math.ceil(body.count / 200) : Math.ceil((calls / concurrency) * 2);
  const exceeds = remaining !== null && calls > remaining;
  return {
    success: true as const,
    modelCalls: calls,
    creditsRemaining: remaining,
    creditsTotal: total,
    exceedsCredits: exceeds,
    concurrency,
    expectedSeconds: seconds,
    message: exceeds ? `This run needs ${calls} AI credits; ${remaining} remain.` : `${calls} model call(s), about ${seconds} s.`,
  };
}
