import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { InviteInfoResponse, AcceptInviteBody, LoginResponse, ErrorResponse } from '@dealscout/shared/contracts';
import { createSession, setSessionCookies } from '../auth/sessions';
import { toUserDto } from '../users/user.presenter';
import { acceptInvitation, invitationInfo } from './invitations.service';

export { ALREADY_MEMBER_MESSAGE } from './invitations.service';

export async function invitationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/invite/:token',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['invitations'],
        summary: 'What an invitation link is for (organization, email, role)',
        params: z.object({ token: z.string() }),
        response: { 200: InviteInfoResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      return { success: true as const, ...(await invitationInfo(req.em, req.params.token)) };
    },
  );

  r.post(
    '/invite/accept',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['invitations'],
        summary: 'Accept an invitation: set name and password, join the organization, sign in',
        body: AcceptInviteBody,
        response: { 201: LoginResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const user = await acceptInvitation(req.em, req.body);
      const session = await createSession(req.em, user, 'cookie', req, app.config);
      setSessionCookies(reply, app.config, session);
      return reply.status(201).send({ success: true as const, user: toUserDto(user), csrfToken: session.csrfToken! });
    },
  );
}
