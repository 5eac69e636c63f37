// `npm run seed:demo`: the demo organization (server/src/tools/demo.ts) — a few hundred companies
// with contacts and key contacts, custom fields with values, an enrichment with finished results,
// activities and notifications. Idempotent: a second run finds the demo admin and changes nothing.
// The sign-in is printed plainly on stdout (the logger redacts passwords, which is right for logs
// but useless here: this password is public, for a demo database only).
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { openDatabase } from '../database';
import { seedDemo } from './demo';

const config = loadConfig();
const logger = createLogger(config);
const db = await openDatabase(config, logger);
try {
  // SEED_DEMO_COMPANIES: fewer (or more) companies than the default 300, e.g. for a quick look.
  const companies = process.env.SEED_DEMO_COMPANIES ? Number(process.env.SEED_DEMO_COMPANIES) : undefined;
  if (companies !== undefined && !(Number.isInteger(companies) && companies > 0)) throw new Error('SEED_DEMO_COMPANIES must be a positive whole number');
  const s = await seedDemo(db.orm, { companies, log: (m) => logger.info(m) });
  console.log([
    s.created ? 'Demo organization created.' : 'Demo organization already present (nothing changed).',
    `  Sign in as: ${s.email}`,
    `  Password:   ${s.password}`,
    `  It holds ${s.companies} companies, ${s.contacts} contacts, ${s.fields} custom fields with ${s.values} values, ` +
      `${s.enrichmentResults} finished enrichment results, ${s.activities} activities and ${s.notifications} notifications.`,
  ].join('\n'));
} finally {
  await db.close();
}
