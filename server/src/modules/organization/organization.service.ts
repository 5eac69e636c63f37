// The organization's use cases behind /organization: its profile, its default currency, and the
// admin's work on members and invitations. Each takes the request's tenant-filtered EntityManager
// (the organization comes from it, and from `organizationId` only where a row is created or an
// event published) and returns what the route answers; errors are HttpErrors with the spec's text.
import type { EntityManager } from '@mikro-orm/postgresql';
import { ORGANIZATION_MESSAGES, USER_ADMIN_MESSAGES, type OrganizationDto } from '@dealscout/shared/contracts';
import { fieldCurrency, type Role } from '@dealscout/shared/domain';
import { Organization, type IOrganization } from '../../db/organization.entity';
import { User, type IUser } from '../users/user.entity';
import { Invitation } from '../invitations/invitation.entity';
import { countSeats } from '../invitations/seats';
import { toMemberDto } from '../users/user.presenter';
import { revokeUserSessions } from '../auth/sessions';
import { forgetUser } from '../../lib/session-cache';
import { badRequest, notFound } from '../../lib/errors';
import { publishFieldsChanged } from '../fields/fields-events';
import { organizationAi } from '../llm/llm-settings';
import type { LlmService } from '../../providers/llm';
import type { Config } from '../../config';

async function organizationOf(em: EntityManager, organizationId: string): Promise<IOrganization> {
  const org = await em.findOne(Organization, { id: organizationId });
  if (!org) throw notFound(ORGANIZATION_MESSAGES.notFound);
  return org;
}

/** The organization as GET /organization shows it: profile, membership, seats, currency and AI settings. */
export async function getOrganization(
  em: EntityManager,
  organizationId: string,
  llm: LlmService,
  config: Config,
): Promise<OrganizationDto> {
  const org = await organizationOf(em, organizationId);
  const seats = await countSeats(em, org.id, org.maxUser);
  return {
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
    ...(await organizationAi(em, llm, config, org.id)),
  };
}

/** Every currency field without its own currency shows the new default: open tables follow. */
export async function setDefaultCurrency(em: EntityManager, organizationId: string, currency: string): Promise<void> {
  const org = await organizationOf(em, organizationId);
  org.settings = { ...org.settings, defaultCurrency: currency };
  await em.transactional(async (tem) => {
    await tem.flush();
    await publishFieldsChanged(tem, org.id, ['company', 'contact']);
  });
}

/** Members (not deleted) and pending, unexpired invitations, oldest first. */
export async function listMembers(em: EntityManager) {
  const [users, invitations] = await Promise.all([
    em.find(User, { deleted: false }, { orderBy: { createdAt: 'asc' } }),
    em.find(Invitation, { status: 'pending', expiresAt: { $gt: new Date() } }, { orderBy: { createdAt: 'asc' } }),
  ]);
  return {
    users: users.map(toMemberDto),
    invitations: invitations.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role as Role,
      createdAt: i.createdAt.toISOString(),
      expiresAt: i.expiresAt.toISOString(),
    })),
  };
}

/** Revokes a pending invitation; 404 when there is none by that id (another organization's included). */
export async function revokeInvitation(em: EntityManager, id: string): Promise<void> {
  const changed = await em.nativeUpdate(Invitation, { id, status: 'pending' }, { status: 'revoked' });
  if (changed !== 1) throw notFound();
}

/** A member of the caller's organization other than the caller (404 for any other id). */
async function otherMember(em: EntityManager, actorId: string, id: string): Promise<IUser> {
  const user = await em.findOne(User, { id, deleted: false });
  if (!user) throw notFound();
  if (user.id === actorId) throw badRequest(USER_ADMIN_MESSAGES.notSelf);
  return user;
}

export async function setMemberRole(em: EntityManager, actorId: string, id: string, role: Role) {
  const user = await otherMember(em, actorId, id);
  user.role = role;
  await em.flush();
  forgetUser(user.id);
  return toMemberDto(user);
}

/** Disabling a member ends their sessions in the same transaction. */
export async function setMemberStatus(em: EntityManager, actorId: string, id: string, status: 'active' | 'disabled') {
  const user = await otherMember(em, actorId, id);
  await em.transactional(async (tem) => {
    user.status = status;
    if (status === 'disabled') await revokeUserSessions(tem, user.organization.id, user.id);
    await tem.flush();
  });
  forgetUser(user.id);
  return toMemberDto(user);
}

/** Deleting is soft: the member is flagged deleted and disabled, and their sessions end. */
export async function deleteMember(em: EntityManager, actorId: string, id: string): Promise<void> {
  const user = await otherMember(em, actorId, id);
  await em.transactional(async (tem) => {
    user.deleted = true;
    user.status = 'disabled';
    await revokeUserSessions(tem, user.organization.id, user.id);
    await tem.flush();
  });
  forgetUser(user.id);
}
