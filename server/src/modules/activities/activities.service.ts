// The activities' use cases (routes in activities.routes.ts): logging, editing and deleting a manual
// activity, one activity with its company and contact, and the activities of a company or contact.
// Each receives one ActivityContext: the request's EntityManager and the caller.
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ACTIVITY_MESSAGES,
  COMPANY_MESSAGES,
  CONTACT_MESSAGES,
  LOG_ACTIVITY_OPTIONS,
  ACTIVITY_TYPE_LABELS,
  activitySaveProblem,
  canEditActivity,
  earliestToday,
  realtimePaths,
  todayIn,
  type ActivityType,
} from '@dealscout/shared/domain';
import type { z } from 'zod';
import { REALTIME_EVENT_KINDS, type ActivitiesQuery, type CreateActivityBody } from '@dealscout/shared/contracts';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { publish } from '../realtime/publish';
import { Company, Contact } from '../records/records.entity';
import type { IUser } from '../users/user.entity';
import { Activity, type IActivity } from './activity.entity';
import { toActivityDto } from './activity.presenter';

type SaveInput = z.output<typeof CreateActivityBody>;

export interface Actor {
  organizationId: string;
  user: IUser;
}

/** The caller of a use case and the request's EntityManager. */
export interface ActivityContext extends Actor {
  em: EntityManager;
}

/**
 * 'Today' for the save rule: in the time zone the client sent, else the profile's, else the
 * earliest today anywhere (UTC−12) so no user is refused their own today.
 */
export function todayFor(actor: Actor, timezone?: string | null): string {
  const profileZone = typeof actor.user.calendar?.timezone === 'string' ? actor.user.calendar.timezone : null;
  for (const zone of [timezone, profileZone]) {
    if (zone) {
      const t = todayIn(zone);
      if (t) return t;
    }
  }
  return earliestToday();
}

async function participants(em: EntityManager, companyId: string, contactId: string) {
  // The tenant filter is on: another organization's company or contact is simply not found.
  const [company, contact] = await Promise.all([em.findOne(Company, { id: companyId }), em.findOne(Contact, { id: contactId })]);
  if (!company || !contact) throw notFound(ACTIVITY_MESSAGES.invalidParticipant);
  return { company, contact };
}

function defaultTitle(type: string): string {
  return LOG_ACTIVITY_OPTIONS.find((o) => o.type === type)?.label ?? ACTIVITY_TYPE_LABELS[type as ActivityType] ?? type;
}

function apply(a: IActivity | null, input: SaveInput) {
  return {
    type: input.type!,
    title: input.title ?? a?.title ?? defaultTitle(input.type!),
    date: input.date!,
    dueDate: input.dueDate === undefined ? (a?.dueDate ?? null) : input.dueDate ? new Date(input.dueDate) : null,
    status: input.status === undefined ? (a?.status ?? null) : input.status,
    content: input.content!.trim(),
    subject: input.subject === undefined ? (a?.subject ?? null) : input.subject,
    to: input.to === undefined ? (a?.to ?? null) : input.to,
    others: input.others ?? a?.others ?? [],
    by: input.by === undefined ? (a?.by ?? null) : input.by,
    followUp: input.followUp ?? a?.followUp ?? false,
  };
}

/** Logs a manual activity (POST /activity) and announces it on org/{oid}/activities. */
export async function createActivity(ctx: ActivityContext, input: SaveInput): Promise<IActivity> {
  const today = todayFor(ctx, input.timezone);
  const problem = activitySaveProblem(input, today);
  if (problem) throw badRequest(problem);
  return ctx.em.transactional(async (tem) => {
    const { company, contact } = await participants(tem, input.companyId!, input.contactId!);
    const fields = apply(null, input);
    const a = tem.create(Activity, {
      organization: ctx.organizationId,
      ...fields,
      by: fields.by ?? (`${ctx.user.firstName} ${ctx.user.lastName}`.trim() || ctx.user.email),
      source: 'manual',
      sourceId: null,
      errorMessage: null,
      company,
      contact,
      createdBy: ctx.user.id,
    });
    await tem.flush();
    await publish(tem, ctx.organizationId, {
      path: realtimePaths.activities(ctx.organizationId),
      kind: REALTIME_EVENT_KINDS.activityCreated,
      data: toActivityDto(a, today),
    });
    return a;
  });
}

/** Edits a manual activity (PUT /activity); other sources are refused. The date rule applies when the date changes. */
export async function updateActivity(ctx: ActivityContext, input: SaveInput & { id: string }): Promise<IActivity> {
  return ctx.em.transactional(async (tem) => {
    const a = await tem.findOne(Activity, { id: input.id }, { populate: ['company', 'contact'] });
    if (!a) throw notFound(ACTIVITY_MESSAGES.notFound);
    if (!canEditActivity(a)) throw forbidden(ACTIVITY_MESSAGES.alreadyCompleted);
    const today = todayFor(ctx, input.timezone);
    const problem = activitySaveProblem(input, today, { checkDate: input.date !== a.date });
    if (problem) throw badRequest(problem);
    const { company, contact } = await participants(tem, input.companyId!, input.contactId!);
    tem.assign(a, { ...apply(a, input), company, contact });
    await tem.flush();
    await publish(tem, ctx.organizationId, {
      path: realtimePaths.activities(ctx.organizationId),
      kind: REALTIME_EVENT_KINDS.activityUpdated,
      data: toActivityDto(a, today),
    });
    return a;
  });
}

/** Deletes a manual activity (DELETE /activity/{id}); other sources are refused. */
export async function deleteActivity(ctx: ActivityContext, id: string): Promise<void> {
  await ctx.em.transactional(async (tem) => {
    const a = await tem.findOne(Activity, { id });
    if (!a) throw notFound(ACTIVITY_MESSAGES.notFound);
    if (!canEditActivity(a)) throw forbidden(ACTIVITY_MESSAGES.deleteFailed);
    const data = { id: a.id, companyId: a.company?.id ?? null, contactId: a.contact?.id ?? null };
    tem.remove(a);
    await tem.flush();
    await publish(tem, ctx.organizationId, {
      path: realtimePaths.activities(ctx.organizationId),
      kind: REALTIME_EVENT_KINDS.activityDeleted,
      data,
    });
  });
}

/** An activity with its company and contact (GET /activity/participant/{id}). */
export async function activityWithParticipants(ctx: ActivityContext, id: string): Promise<IActivity> {
  const a = await ctx.em.findOne(Activity, { id }, { populate: ['company', 'contact'] });
  if (!a) throw notFound(ACTIVITY_MESSAGES.noParticipant);
  return a;
}

/** The activities of a company or a contact, newest first, optionally only some types (GET /activity/{kind}/{id}). */
export async function activitiesOf(
  ctx: ActivityContext,
  kind: 'company' | 'contact',
  id: string,
  query: z.output<typeof ActivitiesQuery>,
): Promise<IActivity[]> {
  const owner = kind === 'company' ? await ctx.em.findOne(Company, { id }) : await ctx.em.findOne(Contact, { id });
  if (!owner) throw notFound(kind === 'company' ? COMPANY_MESSAGES.notFound : CONTACT_MESSAGES.notFound);
  return ctx.em.find(
    Activity,
    { [kind]: id, ...(query.types ? { type: { $in: query.types } } : {}) },
    { orderBy: { date: 'desc', createdAt: 'desc', id: 'asc' }, limit: query.limit },
  );
}
