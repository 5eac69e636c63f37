// Invitation links: what a link is for, and accepting it (the person joins the organization with
// the invited role). A link is looked up across organizations by its token's hash (the only way in
// before a session exists: `crossTenant('sign-in')`).
import type { EntityManager } from '@mikro-orm/postgresql';
import { INVITE_LINK_MESSAGES } from '@dealscout/shared/contracts';
import type { Role } from '@dealscout/shared/domain';
import { Invitation } from './invitation.entity';
import { Organization } from '../../db/organization.entity';
import { User, type IUser } from '../users/user.entity';
import { hashPassword } from '../../lib/password';
import { sha256 } from '../../lib/tokens';
import { notFound, conflict } from '../../lib/errors';
import { crossTenant, scopedTo } from '../../db/sql';

export const ALREADY_MEMBER_MESSAGE = 'An account with this email address already exists. Please sign in.';

/** The organization, email and role of a pending, unexpired link; 404 with the spec's text otherwise. */
export async function invitationInfo(em: EntityManager, token: string): Promise<{ email: string; role: Role; organizationName: string }> {
  const inv = await em.findOne(
    Invitation,
    { tokenHash: sha256(token), status: 'pending', expiresAt: { $gt: new Date() } },
    crossTenant('sign-in'),
  );
  if (!inv) throw notFound(INVITE_LINK_MESSAGES.invalid);
  const org = await em.findOneOrFail(Organization, { id: inv.organization.id });
  return { email: inv.email, role: inv.role as Role, organizationName: org.name };
}

/**
 * Accepts a link: the invitation is taken (only one of two concurrent accepts wins) and the member
 * created with its role, in one transaction; an email that already has an account is a 409.
 */
export async function acceptInvitation(
  em: EntityManager,
  input: { token: string; firstName: string; lastName: string; password: string },
): Promise<IUser> {
  const passwordHash = await hashPassword(input.password);
  return em.transactional(async (tem) => {
    const inv = await tem.findOne(Invitation, { tokenHash: sha256(input.token) }, crossTenant('sign-in'));
    if (!inv || inv.status !== 'pending' || inv.expiresAt <= new Date()) throw notFound(INVITE_LINK_MESSAGES.invalid);
    const taken = await tem.nativeUpdate(
      Invitation,
      { id: inv.id, status: 'pending' },
      { status: 'accepted', acceptedAt: new Date() },
      scopedTo(inv.organization.id),
    );
    if (taken !== 1) throw notFound(INVITE_LINK_MESSAGES.invalid);
    const live = await tem.count(User, { email: inv.email, deleted: false }, crossTenant('email-uniqueness'));
    if (live > 0) throw conflict(ALREADY_MEMBER_MESSAGE);
    const created = tem.create(User, {
      organization: inv.organization,
      email: inv.email,
      firstName: input.firstName,
      lastName: input.lastName,
      role: inv.role,
      status: 'active',
      invitationAccepted: true,
      passwordHash,
    });
    await tem.flush();
    return created;
  });
}
