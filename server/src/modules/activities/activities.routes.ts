import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CreateActivityBody,
  UpdateActivityBody,
  ActivityResponse,
  ActivityParticipantResponse,
  ActivitiesQuery,
  ActivitiesResponse,
  SuccessResponse,
  ErrorResponse,
  IdParams,
} from '@dealscout/shared/contracts';
import { ACTIVITY_MESSAGES, COMPANY_MESSAGES, CONTACT_MESSAGES } from '@dealscout/shared/domain';
import { authOf } from '../../plugins/types';
import { notFound } from '../../lib/errors';
import { Company, Contact } from '../records/records.entity';
import { Activity } from './activity.entity';
import { toActivityDto } from './activity.presenter';
import { createActivity, updateActivity, deleteActivity, todayFor, type Actor } from './activities.service';

function actorOf(req: FastifyRequest): Actor {
  const a = authOf(req);
  return { organizationId: a.organizationId, user: a.user };
}

export async function activityRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/activity',
    {
      schema: {
        tags: ['activities'],
        summary: 'Log an activity (manual): type, company, contact, date (today or later) and content are required',
        body: CreateActivityBody,
        response: { 201: ActivityResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const a = await createActivity(req.em, actor, req.body);
      return reply.status(201).send({
        success: true as const,
        message: ACTIVITY_MESSAGES.created,
        activity: toActivityDto(a, todayFor(actor, req.body.timezone)),
      });
    },
  );

  r.put(
    '/activity',
    {
      schema: {
        tags: ['activities'],
        summary: 'Edit a manually created activity',
        body: UpdateActivityBody,
        response: { 200: ActivityResponse, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const a = await updateActivity(req.em, actor, req.body);
      return { success: true as const, message: ACTIVITY_MESSAGES.updated, activity: toActivityDto(a, todayFor(actor, req.body.timezone)) };
    },
  );

  r.get(
    '/activity/participant/:id',
    {
      schema: {
        tags: ['activities'],
        summary: 'An activity with its company and contact, for editing',
        params: IdParams,
        response: { 200: ActivityParticipantResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const a = await req.em.findOne(Activity, { id: req.params.id }, { populate: ['company', 'contact'] });
      if (!a) throw notFound(ACTIVITY_MESSAGES.noParticipant);
      return {
        success: true as const,
        activity: toActivityDto(a, todayFor(actorOf(req))),
        company: a.company ? { id: a.company.id, name: a.company.name, website: a.company.website } : null,
        contact: a.contact
          ? { id: a.contact.id, firstName: a.contact.firstName, lastName: a.contact.lastName, email: a.contact.email }
          : null,
      };
    },
  );

  r.delete(
    '/activity/:id',
    {
      schema: {
        tags: ['activities'],
        summary: 'Delete a manually created activity',
        params: IdParams,
        response: { 200: SuccessResponse, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      await deleteActivity(req.em, actorOf(req), req.params.id);
      return { success: true as const, message: ACTIVITY_MESSAGES.deleted };
    },
  );

  for (const kind of ['company', 'contact'] as const) {
    r.get(
      `/activity/${kind}/:id`,
      {
        schema: {
          tags: ['activities'],
          summary: `Activities of a ${kind}, newest first (optionally only some types: ?types=call,text)`,
          params: IdParams,
          querystring: ActivitiesQuery,
          response: { 200: ActivitiesResponse, 400: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (req) => {
        const owner =
          kind === 'company' ? await req.em.findOne(Company, { id: req.params.id }) : await req.em.findOne(Contact, { id: req.params.id });
        if (!owner) throw notFound(kind === 'company' ? COMPANY_MESSAGES.notFound : CONTACT_MESSAGES.notFound);
        const list = await req.em.find(
          Activity,
          { [kind]: req.params.id, ...(req.query.types ? { type: { $in: req.query.types } } : {}) },
          { orderBy: { date: 'desc', createdAt: 'desc', id: 'asc' }, limit: req.query.limit },
        );
        const today = todayFor(actorOf(req));
        return { success: true as const, activities: list.map((a) => toActivityDto(a, today)) };
      },
    );
  }
}
