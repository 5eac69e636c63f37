import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SetupBody, SetupStatusResponse, LoginResponse, ErrorResponse } from '@dealscout/shared/contracts';
import { createFirstAdmin, needsSetup } from './bootstrap';
import { createSession, setSessionCookies } from '../auth/sessions';
import { toUserDto } from '../users/user.presenter';

export async function setupRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/setup',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['setup'],
        summary: 'Whether the first-run setup is still needed (no user yet)',
        response: { 200: SetupStatusResponse },
      },
    },
    async (req) => ({ needsSetup: await needsSetup(req.em) }),
  );

  r.post(
    '/setup',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['setup'],
        summary: 'First run: create the organization and its first admin, then sign in',
        body: SetupBody,
        response: { 201: LoginResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const { user } = await createFirstAdmin(req.em, { ...req.body, maxUser: app.config.DEFAULT_MAX_USERS });
      const session = await createSession(req.em, user, 'cookie', req, app.config);
      setSessionCookies(reply, app.config, session);
      return reply.status(201).send({ success: true as const, user: toUserDto(user), csrfToken: session.csrfToken! });
    },
  );
}
