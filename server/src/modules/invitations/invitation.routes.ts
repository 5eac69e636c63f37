import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { InviteInfoResponse, AcceptInviteBody, LoginResponse, ErrorResponse, INVITE_LINK_MESSAGES } from '@dealscout/shared/contracts';
import type { Role } from '@dealscout/shared/domain';
import { Invitation } from './invitation.entity';
import { Organization } from '../organization/organization.entity';
import { User } from '../users/user.entity';
import { hashPassword } from '../../lib/password';
import { sha256 } from '../../lib/tokens';
import { notFound, conflict } from '../../lib/errors';
import { createSession, setSessionCookies } from '../auth/sessions';
import { toUserDto } from '../users/user.presenter';
import { crossTenant, scopedTo } from '../../db/sql';

export const ALREADY_MEMBER_MESSAGE = 'An account with this email address already exists. Please sign in.';

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
      const inv = await req.em.findOne(
        Invitation,
        { tokenHash: sha256(req.params.token), status: 'pending', expiresAt: { $gt: new Date() } },
        crossTenant('sign-in'),
      );
      if (!inv) throw notFound(INVITE_LINK_MESSAGES.invalid);
      const org = await req.em.findOneOrFail(Organization, { id: inv.organization.id });
      return { success: true as const, email: inv.email, role: inv.role as Role, organizationName: org.name };
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
      const passwordHash = await hashPassword(req.body.password);
      const user = await req.em.transactional(async (em) => {
        const inv = await em.findOne(Invitation, { tokenHash: sha256(req.body.token) }, crossTenant('sign-in'));
        if (!inv || inv.status !== 'pending' || inv.expiresAt <= new Date()) throw notFound(INVITE_LINK_MESSAGES.invalid);
        // Only one of two concurrent accepts of the same link wins.
        const taken = await em.nativeUpdate(
          Invitation,
          { id: inv.id, status: 'pending' },
          { status: 'accepted', acceptedAt: new Date() },
          scopedTo(inv.organization.id),
        );
        if (taken !== 1) throw notFound(INVITE_LINK_MESSAGES.invalid);
        const live = await em.count(User, { email: inv.email, deleted: false }, crossTenant('email-uniqueness'));
        if (live > 0) throw conflict(ALREADY_MEMBER_MESSAGE);
        const created = em.create(User, {
          organization: inv.organization,
          email: inv.email,
          firstName: req.body.firstName,
          lastName: req.body.lastName,
          role: inv.role,
          status: 'active',
          invitationAccepted: true,
          passwordHash,
        });
        await em.flush();
        return created;
      });
      const session = await createSession(req.em, user, 'cookie', req, app.config);
      setSessionCookies(reply, app.config, session);
      return reply.status(201).send({ success: true as const, user: toUserDto(user), csrfToken: session.csrfToken! });
    },
  );
}
