import type { UserDto, MemberDto } from '@dealscout/shared/contracts';
import { migrateUserConfig, type Role, type UserStatus } from '@dealscout/shared/domain';
import type { IUser } from './user.entity';

export function toUserDto(user: IUser): UserDto {
  return {
    id: user.id,
    organizationId: user.organization.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role as Role,
    isAdmin: user.role === 'Admin',
    status: user.status as UserStatus,
    settings: migrateUserConfig(user.settings) as unknown as Record<string, unknown>,
    calendar: user.calendar,
  };
}

export function toMemberDto(user: IUser): MemberDto {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role as Role,
    status: user.status as UserStatus,
    invitationAccepted: user.invitationAccepted,
    createdAt: user.createdAt.toISOString(),
  };
}
