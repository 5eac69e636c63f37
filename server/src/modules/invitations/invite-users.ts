import type { FastifyInstance } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import { checkInvite, ROLES, INVITE_MESSAGES, normalizeEmail, type Role } from '@dealscout/shared/domain';
import { User, type IUser } from '../users/user.entity';
import { Invitation } from './invitation.entity';
import { countSeats } from './seats';
import { newToken, sha256 } from '../../lib/tokens';
import { badRequest, notFound } from '../../lib/errors';
import { tenantSql, crossTenant, scopedTo } from '../../db/sql';

/**
 * Invites people into an organization with one role, by the rules of spec 000 §5 'Invite'. The
 * organization row is locked for the transaction so that two admins inviting at once cannot
 * together exceed the seats. Returns the invited (lowercased) addresses.
 */
export async function inviteUsers(opts: {
  app: FastifyInstance;
  em: EntityManager;
  organizationId: string;
  invitedBy: IUser;
  emails: string[];
  role: string | null;
}): Promise<string[]> {
  const { app } = opts;
  if (opts.role && !(ROLES as readonly string[]).includes(opts.role)) throw badRequest(INVITE_MESSAGES.roleRequired);
  const links: { email: string; token: string }[] = [];
  const invited = await opts.em.transactional(async (em) => {
    const orgs = await tenantSql(em, opts.organizationId).all<{ id: string; name: string; max_user: number }>(
      'select id, name, max_user from organization where id = ? for update',
      [opts.organizationId],
    );
    const org = orgs[0];
    if (!org) throw notFound();
    const now = new Date();
    const [members, pending] = await Promise.all([
      em.find(User, { organization: org.id, deleted: false }, { fields: ['email'], ...scopedTo(org.id) }),
      em.find(Invitation, { organization: org.id, status: 'pending', expiresAt: { $gt: now } }, { fields: ['email'], ...scopedTo(org.id) }),
    ]);
    const seats = await countSeats(em, org.id, org.max_user);
    const existing = new Set([...members.map((m) => m.email), ...pending.map((p) => p.email)]);
    const check = checkInvite({ emails: opts.emails, role: opts.role, existing, seats: seats.available });
    if (check.message) throw badRequest(check.message);
    // An address that is live in another organization is invited like any other (the answer must
    // not tell an admin who is a member elsewhere), but the invitation is not deliverable: no mail
    // goes to that account (it could not accept while it belongs to another organization). It stays
    // pending like an unanswered invitation until it expires or is revoked.
    const elsewhere = new Set(
      (
        await em.find(
          User,
          { email: { $in: check.emails }, deleted: false, organization: { $ne: org.id } },
          { fields: ['email'], ...crossTenant('email-uniqueness') },
        )
      ).map((u) => u.email),
    );
    const expiresAt = new Date(now.getTime() + app.config.INVITE_TTL_DAYS * 86_400_000);
    for (const email of check.emails) {
      const token = newToken();
      if (!elsewhere.has(email)) links.push({ email, token });
      em.create(Invitation, {
        organization: org.id,
        email,
        role: opts.role as Role,
        tokenHash: sha256(token),
        invitedBy: opts.invitedBy.id,
        status: 'pending',
        expiresAt,
      });
    }
    await em.flush();
    return { emails: check.emails, orgName: org.name };
  });
  const inviter = `${opts.invitedBy.firstName} ${opts.invitedBy.lastName}`.trim() || opts.invitedBy.email;
  const mailEm = app.orm.em.fork();
  for (const { email, token } of links) {
    const link = `${app.config.publicUrl}/invite/${encodeURIComponent(token)}`;
    await app.mailer.send(mailEm, {
      secrets: [link],
      organizationId: opts.organizationId,
      to: normalizeEmail(email),
      subject: `${inviter} invited you to ${invited.orgName} on Dealscout`,
      kind: 'invitation',
      text:
        `Hello,\n\n${inviter} invited you to join ${invited.orgName} on Dealscout as ${opts.role}.\n\nAccept the ` +
        `invitation and set your password here (valid for ${app.config.INVITE_TTL_DAYS} days):\n\n${link}\n`,
    });
  }
  return invited.emails;
}
