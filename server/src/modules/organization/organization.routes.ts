import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  GetOrganizationResponse,
  SystemRolesResponse,
  UsersResponse,
  InviteBody,
  InviteResponse,
  SetRoleBody,
  SetStatusBody,
  MemberResponse,
  SuccessResponse,
  ErrorResponse,
  SetDefaultCurrencyBody,
  SetDefaultCurrencyResponse,
  IdParams,
  ORGANIZATION_MESSAGES,
  USER_ADMIN_MESSAGES,
} from '@dealscout/shared/contracts';
import { ROLES, fieldCurrency, type Role } from '@dealscout/shared/domain';
import { Organization } from './organization.entity';
import { User } from '../users/user.entity';
import { Invitation } from '../invitations/invitation.entity';
import { countSeats } from './seats';
import { toMemberDto } from '../users/user.presenter';
import { inviteUsers } from '../invitations/invite-users';
import { revokeUserSessions } from '../auth/sessions';
import { authOf } from '../../plugins/types';
import { badRequest, notFound } from '../../lib/errors';
import { organizationAi } from '../llm/llm-settings';
import { publishFieldsChanged } from '../fields/fields-events';

export async function organizationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/organization',
    {
      schema: {
        tags: ['organization'],
        summary: "The caller's organization, membership and seats",
        response: { 200: GetOrganizationResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const { organizationId } = authOf(req);
      const org = await req.em.findOne(Organization, { id: organizationId });
      if (!org) throw notFound(ORGANIZATION_MESSAGES.notFound);
      const seats = await countSeats(req.em, org.id, org.maxUser);
      return {
        success: true as const,
        organization: {
          id: org.id,
          name: org.name,
          website: org.website ?? null,
          status: org.status,
          aiSummary: org.aiSummary ?? null,
          type: org.type ?? null,
          membership: {
            type: org.membershipType,
            maxUser: org.maxUser,
            startedAt: org.startedAt.toISOString(),
            endsAt: org.endsAt?.toISOString() ?? null,
          },
          seats,
          defaultCurrency: fieldCurrency(null, (org.settings as { defaultCurrency?: string }).defaultCurrency),
          ...(await organizationAi(req.em, app.llm, app.config, org.id)),
        },
      };
    },
  );

  r.put(
    '/organization/currency',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['organization'],
        summary: 'Set the default currency of currency fields (admin)',
        body: SetDefaultCurrencyBody,
        response: { 200: SetDefaultCurrencyResponse, 400: ErrorResponse },
      },
    },
    async (req) => {
      const org = await req.em.findOne(Organization, { id: authOf(req).organizationId });
      if (!org) throw notFound(ORGANIZATION_MESSAGES.notFound);
      org.settings = { ...org.settings, defaultCurrency: req.body.currency };
      // Every currency field without its own currency now shows the new one: open tables follow.
      await req.em.transactional(async (tem) => {
        await tem.flush();
        await publishFieldsChanged(tem, org.id, ['company', 'contact']);
      });
      return { success: true as const, message: 'Default currency saved', defaultCurrency: req.body.currency };
    },
  );

  r.get(
    '/organization/system-roles',
    {
      schema: { tags: ['organization'], summary: 'The system roles (User is the default)', response: { 200: SystemRolesResponse } },
    },
    async () => ({ success: true as const, roles: ROLES.map((id) => ({ id, name: id })) }),
  );

  r.get(
    '/organization/users',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['organization'],
        summary: 'Members (not deleted) and pending invitations (admin)',
        response: { 200: UsersResponse },
      },
    },
    async (req) => {
      const [users, invitations] = await Promise.all([
        req.em.find(User, { deleted: false }, { orderBy: { createdAt: 'asc' } }),
        req.em.find(Invitation, { status: 'pending', expiresAt: { $gt: new Date() } }, { orderBy: { createdAt: 'asc' } }),
      ]);
      return {
        success: true as const,
        users: users.map(toMemberDto),
        invitations: invitations.map((i) => ({
          id: i.id,
          email: i.email,
          role: i.role as Role,
          createdAt: i.createdAt.toISOString(),
          expiresAt: i.expiresAt.toISOString(),
        })),
      };
    },
  );

  r.post(
    '/organization/invite',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['organization'],
        summary: 'Invite people by email with a role (admin)',
        body: InviteBody,
        response: { 200: InviteResponse, 400: ErrorResponse },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const invited = await inviteUsers({
        app,
        em: req.em,
        organizationId: auth.organizationId,
        invitedBy: auth.user,
        emails: req.body.emails,
        role: req.body.role ?? null,
      });
      return { success: true as const, message: `Invitation sent to ${invited.length} user(s).`, invitedUsers: invited };
    },
  );

  r.delete(
    '/organization/invites/:id',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['organization'],
        summary: 'Revoke a pending invitation (admin)',
        params: IdParams,
        response: { 200: SuccessResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const changed = await req.em.nativeUpdate(Invitation, { id: req.params.id, status: 'pending' }, { status: 'revoked' });
      if (changed !== 1) throw notFound();
      return { success: true as const, message: USER_ADMIN_MESSAGES.inviteRevoked };
    },
  );

  /** A member of the caller's organization other than the caller (404 for any other id). */
  async function otherMember(req: FastifyRequest, id: string) {
    const auth = authOf(req);
    const user = await req.em.findOne(User, { id, deleted: false });
    if (!user) throw notFound();
    if (user.id === auth.user.id) throw badRequest(USER_ADMIN_MESSAGES.notSelf);
    return user;
  }

  r.put(
    '/organization/users/:id/role',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['organization'],
        summary: "Set a user's role (admin)",
        params: IdParams,
        body: SetRoleBody,
        response: { 200: MemberResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const user = await otherMember(req, req.params.id);
      user.role = req.body.role;
      await req.em.flush();
      return { success: true as const, message: USER_ADMIN_MESSAGES.roleChanged, user: toMemberDto(user) };
    },
  );

  r.put(
    '/organization/users/:id/status',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['organization'],
        summary: "Set a user's status, active or disabled (admin); disabling ends the user's sessions",
        params: IdParams,
        body: SetStatusBody,
        response: { 200: MemberResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const user = await otherMember(req, req.params.id);
      await req.em.transactional(async (em) => {
        user.status = req.body.status;
        if (req.body.status === 'disabled') await revokeUserSessions(em, user.organization.id, user.id);
        await em.flush();
      });
      return { success: true as const, message: USER_ADMIN_MESSAGES.statusChanged, user: toMemberDto(user) };
    },
  );

  r.delete(
    '/organization/users/:id',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['organization'],
        summary: 'Delete a user (soft: flagged deleted) and end their sessions (admin)',
        params: IdParams,
        response: { 200: SuccessResponse, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (req) => {
      const user = await otherMember(req, req.params.id);
      await req.em.transactional(async (em) => {
        user.deleted = true;
        user.status = 'disabled';
        await revokeUserSessions(em, user.organization.id, user.id);
        await em.flush();
      });
      return { success: true as const, message: USER_ADMIN_MESSAGES.deleted };
    },
  );
}
