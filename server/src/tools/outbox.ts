// `npm run outbox`: prints the latest system mails (password resets, invitations) kept in the
// system_mail table, for installations without SMTP_URL.
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { openDatabase } from '../database';
import { SystemMail } from '../modules/email/system/system-mail.entity';
import { crossTenant } from '../db/sql';

const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
const db = await openDatabase(config, createLogger(config), { migrate: false });
try {
  const mails = await db.orm.em
    .fork()
    .find(SystemMail, {}, { ...crossTenant('operator'), orderBy: { createdAt: 'desc' }, limit: Number(process.argv[2] ?? 20) });
  if (mails.length === 0) console.log('The outbox is empty.');
  for (const m of mails.reverse()) {
    console.log(`--- ${m.createdAt.toISOString()}  [${m.status}]  to: ${m.to}\nSubject: ${m.subject}\n\n${m.text}\n`);
  }
} finally {
  await db.close();
}
