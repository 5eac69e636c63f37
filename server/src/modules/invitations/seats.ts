import type { EntityManager } from '@mikro-orm/postgresql';
import { availableSeats } from '@dealscout/shared/domain';
import { User } from '../users/user.entity';
import { Invitation } from './invitation.entity';
import { scopedTo } from '../../db/sql';

export interface SeatCount {
  maxUser: number;
  users: number;
  pendingInvites: number;
  available: number;
}

/** Seats = maxUser − non-deleted users − pending (unexpired) invitations. */
export async function countSeats(em: EntityManager, organizationId: string, maxUser: number): Promise<SeatCount> {
  const [users, pendingInvites] = await Promise.all([
    em.count(User, { organization: organizationId, deleted: false }, scopedTo(organizationId)),
    em.count(Invitation, { organization: organizationId, status: 'pending', expiresAt: { $gt: new Date() } }, scopedTo(organizationId)),
  ]);
  return { maxUser, users, pendingInvites, available: availableSeats(maxUser, users, pendingInvites) };
}
