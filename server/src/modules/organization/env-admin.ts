import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { isValidEmail, passwordProblem } from '@dealscout/shared/domain';
import type { Config } from '../../config';
import { User } from '../users/user.entity';
import { createFirstAdmin } from './bootstrap';
import { crossTenant } from '../../db/sql';

/**
 * DEALSCOUT_ADMIN_EMAIL, DEALSCOUT_ADMIN_PASSWORD and DEALSCOUT_ORG_NAME create the organization
 * and its first admin on start, when the database has no user (the setup screen without a browser).
 */
export async function ensureAdminFromEnv(orm: MikroORM, config: Config, logger: Logger): Promise<void> {
  const email = config.DEALSCOUT_ADMIN_EMAIL;
  const password = config.DEALSCOUT_ADMIN_PASSWORD;
  if (!email && !password) return;
  if (!email || !password || !isValidEmail(email))
    throw new Error('DEALSCOUT_ADMIN_EMAIL (a valid email) and DEALSCOUT_ADMIN_PASSWORD must be set together');
  const problem = passwordProblem(password);
  if (problem) throw new Error(`DEALSCOUT_ADMIN_PASSWORD: ${problem}`);
  const em = orm.em.fork();
  if ((await em.count(User, {}, crossTenant('first-run'))) > 0) {
    logger.info('users exist: DEALSCOUT_ADMIN_* ignored');
    return;
  }
  const { user, organization } = await createFirstAdmin(em, {
    organizationName: config.DEALSCOUT_ORG_NAME ?? 'My organization',
    email,
    password,
    firstName: 'Admin',
    lastName: '',
    maxUser: config.DEFAULT_MAX_USERS,
  });
  logger.info({ email: user.email, organization: organization.name }, 'first admin created from DEALSCOUT_ADMIN_*');
}
