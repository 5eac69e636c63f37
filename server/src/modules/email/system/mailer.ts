import nodemailer, { type Transporter } from 'nodemailer';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { SystemMail } from './system-mail.entity';
import { scopedTo } from '../../../db/sql';

export interface SystemMessage {
  organizationId: string;
  to: string;
  subject: string;
  text: string;
  kind: 'password-reset' | 'invitation';
  /**
   * Parts of the text that are live credentials (reset and invitation links). Once the mail is
   * sent they are replaced in the stored copy by REMOVED_LINK: the token tables keep only hashes,
   * and so does the outbox. Unsent mail (no SMTP in development, or a failure) keeps them so the
   * outbox command can still show it.
   */
  secrets?: string[];
}

export const REMOVED_LINK = '[link removed after sending]';

/**
 * System mail is never silently dropped: it is written to the `system_mail` table first; with
 * SMTP_URL configured it is then sent and marked 'sent' (or 'failed' with the error), otherwise it
 * stays 'stored' and the log says where to read it (`npm run outbox`).
 */
export class Mailer {
  private transport: Transporter | null;
  constructor(private readonly opts: { smtpUrl?: string; from: string; logger: Logger }) {
    this.transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;
  }

  async send(em: EntityManager, msg: SystemMessage): Promise<string> {
    const row = em.create(SystemMail, {
      organization: msg.organizationId,
      to: msg.to,
      subject: msg.subject,
      text: msg.text,
      kind: msg.kind,
      status: 'stored',
    });
    await em.flush();
    if (!this.transport) {
      this.opts.logger.warn(
        { mailId: row.id, to: msg.to, kind: msg.kind },
        'SMTP_URL is not set: system mail kept in the system_mail table; read it with `npm run outbox`',
      );
      return row.id;
    }
    try {
      await this.transport.sendMail({ from: this.opts.from, to: msg.to, subject: msg.subject, text: msg.text });
      let stored = msg.text;
      for (const secret of msg.secrets ?? []) if (secret) stored = stored.split(secret).join(REMOVED_LINK);
      await em.nativeUpdate(
        SystemMail,
        { id: row.id },
        { status: 'sent', sentAt: new Date(), text: stored },
        scopedTo(row.organization.id),
      );
    } catch (err) {
      this.opts.logger.error({ err, mailId: row.id }, 'system mail could not be sent; it stays in the system_mail table');
      await em.nativeUpdate(
        SystemMail,
        { id: row.id },
        { status: 'failed', error: String((err as Error).message ?? err) },
        scopedTo(row.organization.id),
      );
    }
    return row.id;
  }

  close(): void {
    this.transport?.close();
  }
}
