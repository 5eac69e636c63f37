// `npm run seed:demo`: a small demo organization to look around in. Idempotent: a second run
// finds the demo admin and changes nothing. Records (companies, contacts) join as their modules land.
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { openDatabase } from './database';
import { createOrganizationWithAdmin } from '../modules/organization/bootstrap';
import { User } from '../modules/users/user.entity';
import { hashPassword } from '../lib/password';

export const DEMO_ADMIN_EMAIL = 'demo.admin@dealscout.local';
export const DEMO_PASSWORD = 'Demo1234';

const config = loadConfig();
const logger = createLogger(config);
const db = await openDatabase(config, logger);
try {
  const em = db.orm.em.fork();
  const existing = await em.findOne(User, { email: DEMO_ADMIN_EMAIL, deleted: false }, { filters: false });
  if (existing) {
    logger.info({ email: DEMO_ADMIN_EMAIL }, 'demo organization already present');
  } else {
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const { organization } = await createOrganizationWithAdmin(em, {
      organizationName: 'Northwind Capital (demo)',
      email: DEMO_ADMIN_EMAIL,
      firstName: 'Dana',
      lastName: 'Demo',
      maxUser: 10,
      passwordHash,
    });
    organization.website = 'https://northwind-capital.example';
    for (const [firstName, lastName, role] of [['Riley', 'Researcher', 'User'], ['Sam', 'Sales', 'User']] as const) {
      em.create(User, { organization, email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}@dealscout.local`, firstName, lastName, role, status: 'active', invitationAccepted: true, passwordHash });
    }
    await em.flush();
    // Demo data: the password is printed in the message (the logger redacts any 'password' key).
    logger.info({ email: DEMO_ADMIN_EMAIL }, `demo organization created: sign in as ${DEMO_ADMIN_EMAIL} with password ${DEMO_PASSWORD}`);
  }
} finally {
  await db.close();
}
