import { z } from 'zod';
import { RoleSchema, UserStatusSchema } from './user';
import { NewPassword } from './auth';
import { OrganizationAiDto } from './llm';
import { isCurrencyCode } from '../domain/format';

export const OrganizationDto = z.object({
  id: z.string(),
  name: z.string(),
  website: z.string().nullable(),
  status: z.string(),
  aiSummary: z.string().nullable(),
  type: z.string().nullable(),
  membership: z.object({ type: z.string(), maxUser: z.number(), startedAt: z.string(), endsAt: z.string().nullable() }),
  seats: z.object({ maxUser: z.number(), users: z.number(), pendingInvites: z.number(), available: z.number() }),
  /** The currency of currency fields that name none (ISO 4217; USD until an admin picks one). */
  defaultCurrency: z.string(),
  // credits.ai, settings (llm list, llmSettings), llmModels, llmProvider: see ./llm.ts
  ...OrganizationAiDto.shape,
});
export type OrganizationDto = z.infer<typeof OrganizationDto>;

// GET /api/v1/organization
export const GetOrganizationResponse = z.object({ success: z.literal(true), organization: OrganizationDto });
export const ORGANIZATION_MESSAGES = { notFound: 'Organization data not found', rolesFailed: 'Could not get user roles' } as const;

// PUT /api/v1/organization/currency (admin)
export const SetDefaultCurrencyBody = z.object({
  currency: z.string().refine(isCurrencyCode, { message: 'Please choose a valid currency' }),
});
export type SetDefaultCurrencyBody = z.infer<typeof SetDefaultCurrencyBody>;
export const SetDefaultCurrencyResponse = z.object({ success: z.literal(true), message: z.string(), defaultCurrency: z.string() });

// GET /api/v1/organization/system-roles
export const SystemRolesResponse = z.object({ success: z.literal(true), roles: z.array(z.object({ id: RoleSchema, name: z.string() })) });

export const MemberDto = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: RoleSchema,
  status: UserStatusSchema,
  invitationAccepted: z.boolean(),
  createdAt: z.string(),
});
export type MemberDto = z.infer<typeof MemberDto>;
export const PendingInviteDto = z.object({
  id: z.string(),
  email: z.string(),
  role: RoleSchema,
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type PendingInviteDto = z.infer<typeof PendingInviteDto>;

// GET /api/v1/organization/users (admin)
export const UsersResponse = z.object({ success: z.literal(true), users: z.array(MemberDto), invitations: z.array(PendingInviteDto) });
export type UsersResponse = z.infer<typeof UsersResponse>;

// POST /api/v1/organization/invite (admin)
export const InviteBody = z.object({ emails: z.array(z.string()).max(500), role: z.string().nullable().optional() });
export type InviteBody = z.infer<typeof InviteBody>;
export const InviteResponse = z.object({ success: z.literal(true), message: z.string(), invitedUsers: z.array(z.string()) });
export type InviteResponse = z.infer<typeof InviteResponse>;

// PUT /api/v1/organization/users/{id}/role, /status; DELETE /api/v1/organization/users/{id}
export const SetRoleBody = z.object({ role: RoleSchema });
export const SetStatusBody = z.object({ status: UserStatusSchema });
export const MemberResponse = z.object({ success: z.literal(true), message: z.string(), user: MemberDto });
export const USER_ADMIN_MESSAGES = {
  roleChanged: 'Role updated',
  statusChanged: 'Status updated',
  deleted: 'User deleted',
  notSelf: 'You cannot change your own role, status or account here',
  inviteRevoked: 'Invitation revoked',
} as const;

// GET /api/v1/invite/{token}, POST /api/v1/invite/accept
export const InviteInfoResponse = z.object({ success: z.literal(true), email: z.string(), role: RoleSchema, organizationName: z.string() });
export const AcceptInviteBody = z.object({
  token: z.string().min(16),
  firstName: z.string().trim().min(1, 'First name is required').max(100),
  lastName: z.string().trim().min(1, 'Last name is required').max(100),
  password: NewPassword,
});
export type AcceptInviteBody = z.infer<typeof AcceptInviteBody>;
export const INVITE_LINK_MESSAGES = { invalid: 'This invitation is invalid or has expired. Ask your admin for a new one.' } as const;
export type SetRoleBodyT = z.infer<typeof SetRoleBody>;
export type SetStatusBodyT = z.infer<typeof SetStatusBody>;
