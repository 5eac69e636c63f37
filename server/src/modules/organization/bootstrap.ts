import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizeEmail } from '@dealscout/shared/domain';
import { Organization, type IOrganization } from '../../db/organization.entity';
import { User, type IUser } from '../users/user.entity';
import { hashPassword } from '../../lib/password';
import { conflict } from '../../lib/errors';
import { SETUP_MESSAGES } from '@dealscout/shared/contracts';
import { createBuiltInFields } from '../fields/fields.service';
import { createProvidedPlays } from '../plays/plays.service';
import { unscopedSql, crossTenant } from '../../db/sql';

export interface BootstrapInput {
  organizationName: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  maxUser: number;
}

/** Whether the first-run setup is still needed: the database has no user at all. */
export async function needsSetup(em: EntityManager): Promise<boolean> {
  return (await em.count(User, {}, crossTenant('first-run'))) === 0;
}

/** The transaction-scoped advisory lock that serializes first-run setups. */
export const FIRST_ADMIN_LOCK = 7312001;

/**
 * Creates the organization and its first admin, only while the database has no user at all
 * (first run: the setup screen, or DEALSCOUT_ADMIN_* on start). A transaction-scoped advisory lock
 * makes two concurrent attempts safe: the second sees the first's user and stops.
 */
export async function createFirstAdmin(em: EntityManager, input: BootstrapInput): Promise<{ organization: IOrganization; user: IUser }> {
  const passwordHash = await hashPassword(input.password);
  return em.transactional(async (tem) => {
    await unscopedSql(tem, 'connection').all('select pg_advisory_xact_lock(?)', [FIRST_ADMIN_LOCK]);
    const users = await tem.count(User, {}, crossTenant('first-run'));
    if (users > 0) throw conflict(SETUP_MESSAGES.alreadyDone);
    return createOrganizationWithAdmin(tem, { ...input, passwordHash });
  });
}

/** Creates an organization and its admin (used by first run and by the demo seed). */
export async function createOrganizationWithAdmin(
  em: EntityManager,
  input: Omit<BootstrapInput, 'password'> & { passwordHash: string },
): Promise<{ organization: IOrganization; user: IUser }> {
  const organization = em.create(Organization, { name: input.organizationName.trim(), maxUser: input.maxUser });
  const user = em.create(User, {
    organization,
    email: normalizeEmail(input.email),
    firstName: input.firstName.trim(),
    lastName: input.lastName.trim(),
    role: 'Admin',
    status: 'active',
    invitationAccepted: true,
    passwordHash: input.passwordHash,
  });
  createBuiltInFields(em, organization);
  createProvidedPlays(em, organization);
  await em.flush();
  return { organization, user };
}
