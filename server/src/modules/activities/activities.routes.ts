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
import { ACTIVITY_MESSAGES } from '@dealscout/shared/domain';
import { authOf } from '../../plugins/types';
import { toActivityDto } from './activity.presenter';
import {
  activitiesOf,
  activityWithParticipants,
  createActivity,
  updateActivity,
  deleteActivity,
  todayFor,
  type ActivityContext,
} from './activities.service';

function ctx(req: FastifyRequest): ActivityContext {
  const a = authOf(req);
  return { em: req.em, organizationId: a.organizationId, user: a.user };
}

export async function activityRoutes(app: FastifyInstance): Promise<void> {
  activityEditRoutes(app);
  oneActivityRoutes(app);
  activityListRoutes(app);
}

/** Logging and editing a manual activity. */
function activityEditRoutes(app: FastifyInstance): void {
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
      const c = ctx(req);
      const a = await createActivity(c, req.body);
      return reply.status(201).send({
        success: true as const,
        message: ACTIVITY_MESSAGES.created,
        activity: toActivityDto(a, todayFor(c, req.body.timezone)),
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
      const c = ctx(req);
      const a = await updateActivity(c, req.body);
      return { success: true as const, message: ACTIVITY_MESSAGES.updated, activity: toActivityDto(a, todayFor(c, req.body.timezone)) };
    },
  );
}

/** One activity with its company and contact, and deleting a manual one. */
function oneActivityRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
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
      const c = ctx(req);
      const a = await activityWithParticipants(c, req.params.id);
      return {
        success: true as const,
        activity: toActivityDto(a, todayFor(c)),
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
      await deleteActivity(ctx(req), req.params.id);
      return { success: true as const, message: ACTIVITY_MESSAGES.deleted };
    },
  );
}

/** The activities of a company or a contact. */
function activityListRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
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
        const c = ctx(req);
        const list = await activitiesOf(c, kind, req.params.id, req.query);
        const today = todayFor(c);
        return { success: true as const, activities: list.map((a) => toActivityDto(a, today)) };
      },
    );
  }
}
