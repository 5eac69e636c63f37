// Email drafts (spec 000 §3 'Email draft', §4): a user's own channel emails. Another user's or
// another organization's draft is not found (404 'Invalid Channel email.').
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import sanitizeHtml from 'sanitize-html';
import {
  EMAIL_MESSAGES,
  PLAY_MESSAGES,
  isEmailReadOnly,
  noKeyContactMessage,
  noPrimaryCompanyMessage,
  replySubject,
} from '@dealscout/shared/domain';
import type { EmailDraftDto } from '@dealscout/shared/contracts';
import { badRequest, notFound } from '../../../lib/errors';
import { createExecutions } from '../../executions/commands/create-executions';
import { Play, type EmailProvenance } from '../../plays/play.entity';
import { tenantSql } from '../../../db/sql';

export interface EmailActor {
  organizationId: string;
  userId: string;
  email: string;
}

/** What a draft body may hold: the rich editor's formatting, fonts and links; no scripts, no event handlers. */
export function sanitizeBody(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      'p',
      'br',
      'div',
      'span',
      'b',
      'strong',
      'i',
      'em',
      'u',
      's',
      'a',
      'ul',
      'ol',
      'li',
      'blockquote',
      'h1',
      'h2',
      'h3',
      'pre',
      'code',
      'font',
    ],
    allowedAttributes: { a: ['href', 'target', 'rel'], span: ['style'], p: ['style'], div: ['style'], font: ['face'] },
    allowedStyles: {
      '*': { 'font-family': [/^[\w\s,'"-]+$/], 'font-weight': [/^\w+$/], 'font-style': [/^\w+$/], 'text-decoration': [/^[\w\s-]+$/] },
    },
    allowedSchemes: ['http', 'https', 'mailto'],
  });
}

export const EMAIL_COLUMNS = `e.id, e.title, e.from_address, e.to_address, e.cc, e.subject, e.body, e.contact_id, e.company_id,
  e.play_id, e.play_name, e.play_version,
  e.execution_id, e.is_ai_email_generated, e.status, e.status_message, e.show_to_from_cc, e.provenance, e.is_reply,
    e.reply_to_message_id, e.created_at, e.updated_at,
  c.first_name as c_first, c.last_name as c_last, c.email as c_email`;
export const EMAIL_FROM = `channel_email e left join contact c on c.id = e.contact_id and c.organization_id = e.organization_id`;

type Row = Record<string, unknown> & { provenance: EmailProvenance | null; cc: string[] };
const iso = (d: unknown) => new Date(d as string).toISOString();

export function toEmailDto(r: Row): EmailDraftDto {
  return {
    channelEmailId: String(r.id),
    title: String(r.title ?? ''),
    from: String(r.from_address ?? ''),
    to: String(r.to_address ?? ''),
    cc: r.cc ?? [],
    subject: String(r.subject ?? ''),
    emailBody: String(r.body ?? ''),
    contact:
      r.contact_id && r.c_email != null
        ? { id: String(r.contact_id), firstName: String(r.c_first), lastName: String(r.c_last), email: String(r.c_email) }
        : null,
    companyId: r.company_id ? String(r.company_id) : null,
    play: r.play_id
      ? { id: String(r.play_id), name: String(r.play_name ?? ''), version: r.play_version == null ? null : Number(r.play_version) }
      : null,
    executionId: r.execution_id ? String(r.execution_id) : null,
    isAiEmailGenerated: Boolean(r.is_ai_email_generated),
    status: r.status as EmailDraftDto['status'],
    statusMessage: (r.status_message as string | null) ?? null,
    showToFromCC: Boolean(r.show_to_from_cc),
    provenance: r.provenance ?? null,
    reply: r.is_reply ? { messageId: (r.reply_to_message_id as string | null) ?? null } : null,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

export async function pendingEmails(em: EntityManager, actor: EmailActor): Promise<EmailDraftDto[]> {
  const rows = await tenantSql(em, actor.organizationId).all<Row>(
    `select ${EMAIL_COLUMNS} from ${EMAIL_FROM}
      where e.organization_id = ? and e.owner_id = ? and e.status not in ('cancelled', 'sent', 'scheduled')
      order by e.created_at, e.id limit 500`,
    [actor.organizationId, actor.userId],
  );
  return rows.map(toEmailDto);
}

export async function emailById(em: EntityManager, actor: EmailActor, id: string, lock = false): Promise<EmailDraftDto> {
  const [row] = await tenantSql(em, actor.organizationId).all<Row>(
    `select ${EMAIL_COLUMNS} from ${EMAIL_FROM} where e.id = ? and e.organization_id = ? and e.owner_id = ?${lock ? ' for update of e' : ''}`,
    [id, actor.organizationId, actor.userId],
  );
  if (!row) throw notFound(EMAIL_MESSAGES.invalidChannelEmail);
  return toEmailDto(row);
}

/** The contact and company a draft goes to: either given, completed from the other (primary company / key contact). */
export async function resolveRecipient(em: EntityManager, organizationId: string, contactId?: string | null, companyId?: string | null) {
  if (!contactId && !companyId) throw badRequest(EMAIL_MESSAGES.invalidEntity);
  if (contactId) {
    const [c] = await tenantSql(em, organizationId).all<{
      id: string;
      first_name: string;
      last_name: string;
      email: string;
      company_id: string | null;
    }>(
      `select c.id, c.first_name, c.last_name, c.email,
              coalesce((select m.company_id from company_contact m where m.organization_id = c.organization_id and m.contact_id = c.id and m.company_id = ?),
                       (select m.company_id from company_contact m where m.organization_id = c.organization_id and m.contact_id = c.id
                         and m.is_primary)) as company_id
         from contact c where c.organization_id = ? and c.id = ?`,
      [companyId ?? null, organizationId, contactId],
    );
    if (!c) throw notFound(EMAIL_MESSAGES.entityNotFound);
    if (!c.first_name || !c.last_name || !c.email) throw badRequest(EMAIL_MESSAGES.invalidContact);
    if (!c.company_id) throw badRequest(noPrimaryCompanyMessage(`${c.first_name} ${c.last_name}`));
    const [k] = await tenantSql(em, organizationId).all<{ id: string; name: string; website: string }>(
      `select id, name, website from company where organization_id = ? and id = ?`,
      [organizationId, c.company_id],
    );
    if (!k) throw badRequest(noPrimaryCompanyMessage(`${c.first_name} ${c.last_name}`));
    if (!k.name || !k.website) throw badRequest(EMAIL_MESSAGES.invalidCompany);
    return { contact: { id: c.id, firstName: c.first_name, lastName: c.last_name, email: c.email }, company: k };
  }
  const [k] = await tenantSql(em, organizationId).all<{ id: string; name: string; website: string; key_id: string | null }>(
    `select r.id, r.name, r.website, (select m.contact_id from company_contact m where m.organization_id = r.organization_id and
      m.company_id = r.id and m.is_key) as key_id
       from company r where r.organization_id = ? and r.id = ?`,
    [organizationId, companyId],
  );
  if (!k) throw notFound(EMAIL_MESSAGES.entityNotFound);
  if (!k.name || !k.website) throw badRequest(EMAIL_MESSAGES.invalidCompany);
  if (!k.key_id) throw badRequest(noKeyContactMessage(k.name));
  const [c] = await tenantSql(em, organizationId).all<{ id: string; first_name: string; last_name: string; email: string }>(
    `select id, first_name, last_name, email from contact where organization_id = ? and id = ?`,
    [organizationId, k.key_id],
  );
  if (!c || !c.first_name || !c.last_name || !c.email) throw badRequest(EMAIL_MESSAGES.invalidContact);
  return {
    contact: { id: c.id, firstName: c.first_name, lastName: c.last_name, email: c.email },
    company: { id: k.id, name: k.name, website: k.website },
  };
}

/** Can an email go to this contact / company (and is the play, when given, the organization's). */
export async function checkValidEntity(
  em: EntityManager,
  actor: EmailActor,
  input: { playId?: string | null; contactId?: string | null; companyId?: string | null },
) {
  if (input.playId) {
    const p = await em.findOne(Play, { id: input.playId, organization: actor.organizationId });
    if (!p) throw notFound(PLAY_MESSAGES.invalid);
  }
  return resolveRecipient(em, actor.organizationId, input.contactId, input.companyId);
}

/**
 * A new draft to a contact or a company's key contact. A reply (`replyTo`: the message being read)
 * starts with the reply's subject ('Re: <subject>', never doubled) and remembers the message it
 * answers: a play then writes its body only, and sending it goes through createReply, in the thread.
 */
export async function createDraft(
  em: EntityManager,
  actor: EmailActor,
  contactId?: string | null,
  companyId?: string | null,
  replyTo?: { subject: string; messageId?: string | null },
): Promise<EmailDraftDto> {
  const r = await resolveRecipient(em, actor.organizationId, contactId, companyId);
  const [row] = await tenantSql(em, actor.organizationId).all<{ id: string }>(
    `insert into channel_email (id, organization_id, owner_id, title, from_address, to_address, cc, subject, body, contact_id, company_id,
                                  is_ai_email_generated, status, show_to_from_cc, is_reply, reply_to_message_id, created_at, updated_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, '[]'::jsonb, ?, '', ?, ?, false, 'draft', false, ?, ?, clock_timestamp(), clock_timestamp()) returning id`,
    [
      actor.organizationId,
      actor.userId,
      `${r.contact.firstName} ${r.contact.lastName}`.trim(),
      actor.email,
      r.contact.email,
      replyTo ? replySubject(replyTo.subject) : '',
      r.contact.id,
      r.company.id,
      !!replyTo,
      replyTo?.messageId ?? null,
    ],
  );
  return emailById(em, actor, row.id);
}

export async function saveDraft(
  em: EntityManager,
  actor: EmailActor,
  id: string,
  body: { to?: string; cc?: string[]; subject?: string; body?: string; showToFromCC?: boolean },
): Promise<EmailDraftDto> {
  return em.transactional(async (tem) => {
    const current = await emailById(tem, actor, id, true);
    if (isEmailReadOnly(current.status) || current.status === 'cancelled') throw badRequest(EMAIL_MESSAGES.invalidEmailInfo);
    const sets: string[] = [];
    const params: unknown[] = [];
    if (body.to !== undefined) {
      sets.push('to_address = ?');
      params.push(body.to);
    }
    if (body.cc !== undefined) {
      sets.push('cc = ?::jsonb');
      params.push(JSON.stringify(body.cc));
    }
    if (body.subject !== undefined) {
      sets.push('subject = ?');
      params.push(body.subject);
    }
    if (body.body !== undefined) {
      sets.push('body = ?');
      params.push(sanitizeBody(body.body));
    }
    if (body.showToFromCC !== undefined) {
      sets.push('show_to_from_cc = ?');
      params.push(body.showToFromCC);
    }
    // A draft with an error is saved as a draft (spec 000 §4).
    if (current.status === 'error') sets.push(`status = 'draft', status_message = null`);
    if (sets.length > 0) {
      await tenantSql(tem, actor.organizationId).all(
        `update channel_email set ${sets.join(', ')}, updated_at = clock_timestamp() where id = ? and organization_id = ? and owner_id = ?`,
        [...params, id, actor.organizationId, actor.userId],
      );
    }
    return emailById(tem, actor, id);
  });
}

export async function updateEmailStatus(em: EntityManager, actor: EmailActor, id: string, status: string): Promise<EmailDraftDto> {
  return em.transactional(async (tem) => {
    const current = await emailById(tem, actor, id, true);
    if (current.status === 'sent' || (current.status === 'cancelled' && status !== 'cancelled'))
      throw badRequest(EMAIL_MESSAGES.updateStatusFailed);
    await tenantSql(tem, actor.organizationId).all(
      `update channel_email set status = ?, status_message = null, updated_at = clock_timestamp() where id = ? and organization_id = ? and owner_id = ?`,
      [status, id, actor.organizationId, actor.userId],
    );
    // Discarding a draft that is still being written stops its execution.
    if (status === 'cancelled' && current.executionId) {
      await tenantSql(tem, actor.organizationId).all(
        `update execution set status = 'cancelled', completed_at = clock_timestamp(), updated_at = clock_timestamp()
                          where id = ? and organization_id = ? and status in ('draft', 'scheduled', 'processing')`,
        [current.executionId, actor.organizationId],
      );
    }
    return emailById(tem, actor, id);
  });
}

/** (Re)generates a draft with a play: the draft becomes processing and a play execution writes into it. */
export async function generateEmail(
  em: EntityManager,
  boss: PgBoss,
  actor: EmailActor,
  channelEmailId: string,
  playId: string,
): Promise<EmailDraftDto> {
  return em.transactional(async (tem) => {
    const current = await emailById(tem, actor, channelEmailId, true);
    if (isEmailReadOnly(current.status) || current.status === 'cancelled') throw badRequest(EMAIL_MESSAGES.invalidEmailInfo);
    if (!current.contact) throw badRequest(PLAY_MESSAGES.selectContact);
    const play = await tem.findOne(Play, { id: playId, organization: actor.organizationId });
    if (!play) throw notFound(PLAY_MESSAGES.invalid);
    if (play.status !== 'published') throw badRequest(PLAY_MESSAGES.invalid);
    const [started] = await createExecutions(tem, boss, {
      organizationId: actor.organizationId,
      createdById: actor.userId,
      type: 'play',
      typeId: play.id,
      entityType: 'contact',
      targets: [{ entityId: current.contact.id, idempotencyKey: `email:${channelEmailId}` }],
    });
    await tenantSql(tem, actor.organizationId).all(
      `update channel_email set status = 'processing', status_message = null, execution_id = ?, play_id = ?, play_name = ?, updated_at = clock_timestamp()
                        where id = ? and organization_id = ? and owner_id = ?`,
      [started.executionId, play.id, play.name, channelEmailId, actor.organizationId, actor.userId],
    );
    if (started.status === 'started')
      await tenantSql(tem, actor.organizationId).all(`update play set use_count = use_count + 1 where id = ? and organization_id = ?`, [
        play.id,
        actor.organizationId,
      ]);
    return emailById(tem, actor, channelEmailId);
  });
}

/**
 * Verifies an AI email (POST /entity/check-ai-generated): once its execution completed and wrote
 * it, the draft becomes 'draft'; a failed execution makes it 'error' with the spec's message.
 */
export async function checkAiGenerated(
  em: EntityManager,
  actor: EmailActor,
  body: { executionId: string; channelEmailId: string; contactId?: string | null },
): Promise<EmailDraftDto> {
  return em.transactional(async (tem) => {
    const current = await emailById(tem, actor, body.channelEmailId, true);
    if (current.executionId !== body.executionId || (body.contactId && current.contact?.id !== body.contactId))
      throw badRequest(EMAIL_MESSAGES.invalidEmailInfo);
    const [x] = await tenantSql(tem, actor.organizationId).all<{ status: string }>(
      `select status from execution where id = ? and organization_id = ?`,
      [body.executionId, actor.organizationId],
    );
    if (!x) throw notFound(EMAIL_MESSAGES.invalidEmailInfo);
    if (x.status === 'error' || x.status === 'cancelled') {
      await tenantSql(tem, actor.organizationId).all(
        `update channel_email set status = 'error', status_message = ? where id = ? and organization_id = ? and status = 'processing'`,
        [PLAY_MESSAGES.executionFailedMessage, body.channelEmailId, actor.organizationId],
      );
    } else if (x.status === 'completed' && current.status === 'processing' && current.emailBody.trim() !== '') {
      await tenantSql(tem, actor.organizationId).all(
        `update channel_email set status = 'draft', status_message = null, updated_at = clock_timestamp() where id = ? and organization_id = ?`,
        [body.channelEmailId, actor.organizationId],
      );
    } else if (x.status !== 'completed') {
      throw badRequest(EMAIL_MESSAGES.notReady);
    }
    return emailById(tem, actor, body.channelEmailId);
  });
}
