// A play's instructions rendered for one target (its contact and the contact's company): field
// boxes take the record's value (contact or company, per the field's entity type), enrich boxes the
// enrichment's stored result at their path; autorun boxes run the enrichment first when a compute
// function is given (inside an execution), and required boxes without a value fail the render.
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  fieldValueOfResult, valueAtPath, renderRichPrompt, noKeyContactMessage, noPrimaryCompanyMessage, type RenderedPrompt, type RichPromptNode,
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

/** The contact and company a play writes to: a contact's primary company, or a company's key contact. */
export async function loadTarget(em: EntityManager, organizationId: string, entityType: 'contact' | 'company', id: string): Promise<PlayTarget | null> {
  if (entityType === 'contact') {
    const [contact] = await contactRows(em, organizationId, [id]);
    if (!contact) return null;
    if (!contact.primaryCompany) throw new TargetProblem(noPrimaryCompanyMessage(fullName(contact)));
    const [company] = await companyRows(em, organizationId, [contact.primaryCompany.id]);
    if (!company) throw new TargetProblem(noPrimaryCompanyMessage(fullName(contact)));
    return { contact, company };
  }
  const [company] = await companyRows(em, organizationId, [id]);
  if (!company) return null;
  if (!company.keyContact) throw new TargetProblem(noKeyContactMessage(company.name));
  const [contact] = await contactRows(em, organizationId, [company.keyContact.id]);
  if (!contact) throw new TargetProblem(noKeyContactMessage(company.name));
  return { contact, company };
}

export type Compute = (e: IEnrichment, entityType: 'contact' | 'company', entityId: string) => Promise<Record<string, unknown>>;

export async function renderForTarget(em: EntityManager, organizationId: string, nodes: readonly RichPromptNode[], target: PlayTarget, compute?: Compute): Promise<RenderedPrompt> {
  const recordOf = (entityType: string) => (entityType === 'company' ? target.company : target.contact);
  return renderRichPrompt(nodes, {
    async field(node) {
      const field = await em.findOne(FieldDefinition, { id: node.fieldId, organization: organizationId });
      if (!field) return null;
      const rec = recordOf(field.entityType);
      let value = fieldValue(rec as never, field);
      if ((value === null || value === undefined || value === '') && node.autorun && compute) {
        const primary = await em.findOne(Enrichment, { field: field.id, isPrimary: true, organization: organizationId });
        if (primary) value = fieldValueOfResult(await compute(primary, field.entityType as 'contact' | 'company', rec.id));
      }
      return { label: field.label, value };
    },
    async enrich(node) {
      const dep = await em.findOne(Enrichment, { id: node.enrichmentId, organization: organizationId });
      if (!dep) return null;
      const rec = recordOf(dep.entityType);
      const [row] = await tenantSql(em, organizationId).all<{ value: { result: Record<string, unknown> | null } | null }>(`select value from enrichment_result where organization_id = ? and enrichment_id = ? and entity_id = ? and status = 'complete'`, [organizationId, dep.id, rec.id]);
      let result = row?.value?.result ?? null;
      if (!result && node.autorun && compute) result = await compute(dep, dep.entityType as 'contact' | 'company', rec.id);
      return { label: dep.name, value: result ? valueAtPath(result, node.path) : null };
    },
  });
}

/** What the model is told about the recipient and the company (every call, whatever the instructions). */
export function targetContext(t: PlayTarget): string {
  return [
    `Recipient: ${fullName(t.contact)} <${t.contact.email}>`,
    `Company: ${t.company.name} (${t.company.website})`,
  ].join('\n');
}

export const EMAIL_SCHEMA = {
  type: 'object',
  properties: {
    subject: { type: 'string', description: 'The subject line of the email.' },
    body: { type: 'string', description: 'The body of the email as plain text, paragraphs separated by blank lines, with a greeting and a sign-off.' },
  },
  required: ['subject', 'body'],
  additionalProperties: false,
} as const;

export function emailMessages(opts: { instructions: string; subject: string; subjectPrompt: string; context: string; sender: string }) {
  const subjectRule = opts.subject.trim()
    ? `Use exactly this subject: ${opts.subject.trim()}`
    : opts.subjectPrompt.trim() ? `Subject: ${opts.subjectPrompt.trim()}` : 'Write a short, specific subject line.';
  return [
    { role: 'system' as const, content: `You write personal business emails for a sales and M&A team. Answer with JSON: a subject and a plain-text body. Write as ${opts.sender}. Never invent facts about the recipient or the company beyond what you are given.` },
    { role: 'user' as const, content: `${opts.context}\n\nInstructions:\n${opts.instructions}\n\n${subjectRule}` },
  ];
}
