// `npm run seed:demo`: the demo organization (server/src/tools/demo.ts) — a few hundred companies
// with contacts and key contacts, custom fields with values, an enrichment with finished results,
// activities and notifications, and the demo admin's Office 365 mailbox connected against the
// loopback fake of Graph with sent, scheduled, refused and answered emails (tools/demo-mail.ts;
// SEED_DEMO_MAIL=0 leaves it out). Idempotent: a second run finds the demo admin and changes nothing.
// The sign-in is printed plainly on stdout (the logger redacts passwords, which is right for logs
// but useless here: this password is public, for a demo database only).
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { openDatabase } from '../database';
import { seedDemo } from './demo';
import { seedDemoMail } from './demo-mail';
import { startBoss } from '../jobs/boss';
import { createQueues } from '../jobs/definitions';
import { jobDefinitions } from '../job-registry';
import { User } from '../modules/users/user.entity';
import { crossTenant } from '../db/sql';

const config = loadConfig();
const logger = createLogger(config);
const db = await openDatabase(config, logger);
try {
  // SEED_DEMO_COMPANIES: fewer (or more) companies than the default 300, e.g. for a quick look.
  const companies = process.env.SEED_DEMO_COMPANIES ? Number(process.env.SEED_DEMO_COMPANIES) : undefined;
  if (companies !== undefined && !(Number.isInteger(companies) && companies > 0))
    throw new Error('SEED_DEMO_COMPANIES must be a positive whole number');
  const s = await seedDemo(db.orm, { companies, log: (m) => logger.info(m) });
  console.log(
    [
      s.created ? 'Demo organization created.' : 'Demo organization already present (nothing changed).',
      `  Sign in as: ${s.email}`,
      `  Password:   ${s.password}`,
      `  It holds ${s.companies} companies, ${s.contacts} contacts, ${s.fields} custom fields with ${s.values} values, ` +
        `${s.enrichmentResults} finished enrichment results, ${s.activities} activities and ${s.notifications} notifications.`,
    ].join('\n'),
  );
  if (process.env.SEED_DEMO_MAIL !== '0') {
    const boss = await startBoss(db.url, logger, { supervise: false });
    try {
      await createQueues(boss, jobDefinitions, config);
      const admin = await db.orm.em.fork().findOneOrFail(User, { email: s.email, deleted: false }, crossTenant('operator'));
      const m = await seedDemoMail(db.orm, boss, config, { organizationId: s.organizationId, userId: admin.id, email: s.email }, (x) =>
        logger.info(x),
      );
      console.log(
        m.created
          ? `  Mailbox ${m.account} connected (offline, against the Graph fake): ${m.sent} emails ` +
              `sent, ${m.scheduled} scheduled, ${m.failed} refused (Try Again), ${m.replied} answered.`
          : `  Mailbox ${m.account} already connected (nothing changed).`,
      );
    } finally {
      await boss.stop({ graceful: false });
    }
  }
} finally {
  await db.close();
}
