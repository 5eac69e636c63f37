import type { FastifyInstance } from 'fastify';
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
  USER_ADMIN_MESSAGES,
} from '@dealscout/shared/contracts';
import { ROLES } from '@dealscout/shared/domain';
import { inviteUsers } from '../invitations/invite-users';
import { authOf } from '../../plugins/types';
import {
  deleteMember,
  getOrganization,
  listMembers,
  revokeInvitation,
  setDefaultCurrency,
  setMemberRole,
  setMemberStatus,
} from './organization.service';

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
      return { success: true as const, organization: await getOrganization(req.em, authOf(req).organizationId, app.llm, app.config) };
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
      await setDefaultCurrency(req.em, authOf(req).organizationId, req.body.currency);
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
      return { success: true as const, ...(await listMembers(req.em)) };
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
      await revokeInvitation(req.em, req.params.id);
      return { success: true as const, message: USER_ADMIN_MESSAGES.inviteRevoked };
    },
  );

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
      const user = await setMemberRole(req.em, authOf(req).user.id, req.params.id, req.body.role);
      return { success: true as const, message: USER_ADMIN_MESSAGES.roleChanged, user };
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
      const user = await setMemberStatus(req.em, authOf(req).user.id, req.params.id, req.body.status);
      return { success: true as const, message: USER_ADMIN_MESSAGES.statusChanged, user };
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
      await deleteMember(req.em, authOf(req).user.id, req.params.id);
      return { success: true as const, message: USER_ADMIN_MESSAGES.deleted };
    },
  );
}
