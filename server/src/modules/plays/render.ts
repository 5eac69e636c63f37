// A play's instructions rendered for one target (its contact and the contact's company): field
// boxes take the record's value (contact or company, per the field's entity type), enrich boxes the
// enrichment's stored result at their path; autorun boxes run the enrichment first when a compute
// function is given (inside an execution), and required boxes without a value fail the render.
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  fieldValueOfResult,
  valueAtPath,
  renderRichPrompt,
  noKeyContactMessage,
  noPrimaryCompanyMessage,
  type RenderedPrompt,
  type RichPromptNode,
} from '@dealscout/shared/domain';
import type { CompanyDto, ContactDto } from '@dealscout/shared/contracts';
import { companyRows, contactRows } from '../records/presenter';
import { FieldDefinition } from '../fields/field.entity';
import { Enrichment, type IEnrichment } from '../enrichments/enrichment.entity';
import { fieldValue } from '../enrichments/handler';
import { tenantSql } from '../../db/sql';

export interface PlayTarget {
  contact: ContactDto;
  company: CompanyDto;
}

export class TargetProblem extends Error {}

const fullName = (c: { firstName: string; lastName: string }) => `${c.firstName} ${c.lastName}`.trim();

/** What a target is when it cannot be written to: the message of its problem. */
export type TargetOutcome = PlayTarget | TargetProblem;

/**
 * The contacts and companies plays write to, for many targets at once (four statements whatever
 * their number): a contact's primary company, or a company's key contact. Unknown ids are absent;
 * a target without its other half is a TargetProblem with the spec's message.
 */
export async function loadTargets(
  em: EntityManager,
  organizationId: string,
  entityType: 'contact' | 'company',
  ids: readonly string[],
): Promise<Map<string, TargetOutcome>> {
  const out = new Map<string, TargetOutcome>();
  const unique = [...new Set(ids)];
  if (entityType === 'contact') {
    const contacts = await contactRows(em, organizationId, unique);
    const companies = new Map(
      (await companyRows(em, organizationId, [...new Set(contacts.flatMap((c) => (c.primaryCompany ? [c.primaryCompany.id] : [])))])).map(
        (c) => [c.id, c],
      ),
    );
    for (const contact of contacts) {
      const company = contact.primaryCompany ? companies.get(contact.primaryCompany.id) : undefined;
      out.set(contact.id, company ? { contact, company } : new TargetProblem(noPrimaryCompanyMessage(fullName(contact))));
    }
    return out;
  }
  const companies = await companyRows(em, organizationId, unique);
  const contacts = new Map(
    (await contactRows(em, organizationId, [...new Set(companies.flatMap((c) => (c.keyContact ? [c.keyContact.id] : [])))])).map((c) => [
      c.id,
      c,
    ]),
  );
  for (const company of companies) {
    const contact = company.keyContact ? contacts.get(company.keyContact.id) : undefined;
    out.set(company.id, contact ? { contact, company } : new TargetProblem(noKeyContactMessage(company.name)));
  }
  return out;
}

/** The contact and company a play writes to (one target); null when the record does not exist. */
export async function loadTarget(
  em: EntityManager,
  organizationId: string,
  entityType: 'contact' | 'company',
  id: string,
): Promise<PlayTarget | null> {
  const t = (await loadTargets(em, organizationId, entityType, [id])).get(id);
  if (t instanceof TargetProblem) throw t;
  return t ?? null;
}

export type Compute = (e: IEnrichment, entityType: 'contact' | 'company', entityId: string) => Promise<Record<string, unknown>>;

/** A memo of the claimed batch (the execution runner's): what every target reads alike is read once. */
export type Memo = <T>(key: string, load: () => Promise<T>) => Promise<T>;
const noMemo: Memo = (_key, load) => load();

export async function renderForTarget(
  em: EntityManager,
  organizationId: string,
  nodes: readonly RichPromptNode[],
  target: PlayTarget,
  compute?: Compute,
  memo: Memo = noMemo,
): Promise<RenderedPrompt> {
  const recordOf = (entityType: string) => (entityType === 'company' ? target.company : target.contact);
  return renderRichPrompt(nodes, {
    async field(node) {
      const field = await memo(`play-field:${organizationId}:${node.fieldId}`, () =>
        em.findOne(FieldDefinition, { id: node.fieldId, organization: organizationId }),
      );
      if (!field) return null;
      const rec = recordOf(field.entityType);
      let value = fieldValue(rec as never, field);
      if ((value === null || value === undefined || value === '') && node.autorun && compute) {
        const primary = await memo(`play-primary:${organizationId}:${field.id}`, () =>
          em.findOne(Enrichment, { field: field.id, isPrimary: true, organization: organizationId }),
        );
        if (primary) value = fieldValueOfResult(await compute(primary, field.entityType as 'contact' | 'company', rec.id));
      }
      return { label: field.label, value };
    },
    async enrich(node) {
      const dep = await memo(`play-enrichment:${organizationId}:${node.enrichmentId}`, () =>
        em.findOne(Enrichment, { id: node.enrichmentId, organization: organizationId }),
      );
      if (!dep) return null;
      const rec = recordOf(dep.entityType);
      const [row] = await tenantSql(em, organizationId).all<{ value: { result: Record<string, unknown> | null } | null }>(
        `select value from enrichment_result where organization_id = ? and enrichment_id = ? and entity_id = ? and status = 'complete'`,
        [organizationId, dep.id, rec.id],
      );
      let result = row?.value?.result ?? null;
      if (!result && node.autorun && compute) result = await compute(dep, dep.entityType as 'contact' | 'company', rec.id);
      return { label: dep.name, value: result ? valueAtPath(result, node.path) : null };
    },
  });
}

/** What the model is told about the recipient and the company (every call, whatever the instructions). */
export function targetContext(t: PlayTarget): string {
  return [`Recipient: ${fullName(t.contact)} <${t.contact.email}>`, `Company: ${t.company.name} (${t.company.website})`].join('\n');
}

export const EMAIL_SCHEMA = {
  type: 'object',
  properties: {
    subject: { type: 'string', description: 'The subject line of the email.' },
    body: {
      type: 'string',
      description: 'The body of the email as plain text, paragraphs separated by blank lines, with a greeting and a sign-off.',
    },
  },
  required: ['subject', 'body'],
  additionalProperties: false,
} as const;

export function emailMessages(opts: {
  instructions: string;
  subject: string;
  subjectPrompt: string;
  context: string;
  sender: string;
  signature?: string | null;
}) {
  const subjectRule = opts.subject.trim()
    ? `Use exactly this subject: ${opts.subject.trim()}`
    : opts.subjectPrompt.trim()
      ? `Subject: ${opts.subjectPrompt.trim()}`
      : 'Write a short, specific subject line.';
  // With a signature (Profile → email settings) the model knows who writes and ends with a closing
  // line only: the signature is added under its text as it is (withSignature), never retyped.
  const signature = (opts.signature ?? '').trim();
  const signOff = signature
    ? `End the body with a closing line (such as "Best regards,") and nothing after it: the sender's signature is ` +
      `added below your text. The sender's signature:\n${signature}`
    : '';
  return [
    {
      role: 'system' as const,
      content:
        `You write personal business emails for a sales and M&A team. Answer with JSON: a subject and a plain-text ` +
        `body. Write as ${opts.sender}. Never invent facts about the recipient or the company beyond what you are ` +
        `given.`,
    },
    {
      role: 'user' as const,
      content: `${opts.context}\n\nInstructions:\n${opts.instructions}\n\n${subjectRule}${signOff ? `\n\n${signOff}` : ''}`,
    },
  ];
}

/** The sender of a play's drafts: the user who ran it, with the signature of their email settings. */
export interface PlaySender {
  name: string;
  signature: string | null;
}

export async function loadSender(em: EntityManager, organizationId: string, userId: string | null): Promise<PlaySender> {
  if (!userId) return { name: 'the sender', signature: null };
  const [u] = await tenantSql(em, organizationId).all<{ n: string; signature: string | null }>(
    `select first_name || ' ' || last_name as n, email_signature as signature from app_user where id = ? and organization_id = ?`,
    [userId, organizationId],
  );
  return { name: u?.n?.trim() || 'the sender', signature: u?.signature?.trim() || null };
}
