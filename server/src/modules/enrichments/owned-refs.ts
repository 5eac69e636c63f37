// Ids that travel inside stored JSON (a prompt's field and enrich boxes, a play draft's test
// contact, an enrichment's list and scrape field) are another organization's row as easily as a
// path id: each must name a row of the caller's organization, else 404 like every foreign id.
import type { EntityManager } from '@mikro-orm/postgresql';
import { CONTACT_MESSAGES, ENRICHMENT_MESSAGES, FIELD_MESSAGES, LIST_MESSAGES, type RichPromptNode } from '@dealscout/shared/domain';
import { notFound } from '../../lib/errors';
import { tenantSql } from '../../db/sql';

type OwnedTable = 'field_definition' | 'enrichment' | 'contact' | 'list_company';

const NOT_FOUND: Record<OwnedTable, string> = {
  field_definition: FIELD_MESSAGES.notFound,
  enrichment: ENRICHMENT_MESSAGES.notFound,
  contact: CONTACT_MESSAGES.notFound,
  list_company: LIST_MESSAGES.listNotFound,
};

/** Every id names a row of `table` of the organization; otherwise 404 with the table's message. */
export async function assertOwned(
  em: EntityManager,
  organizationId: string,
  table: OwnedTable,
  ids: ReadonlyArray<string | null | undefined>,
): Promise<void> {
  const wanted = [...new Set(ids.filter((x): x is string => Boolean(x)))];
  if (wanted.length === 0) return;
  const rows = await tenantSql(em, organizationId).all<{ n: number }>(
    `select count(*)::int as n from ${table} where organization_id = ? and id = any(?::uuid[])`,
    [organizationId, `{${wanted.join(',')}}`],
  );
  if ((rows[0]?.n ?? 0) !== wanted.length) throw notFound(NOT_FOUND[table]);
}

/** A rich prompt's field boxes name fields, and its enrich boxes enrichments, of the organization. */
export async function assertPromptRefsOwned(
  em: EntityManager,
  organizationId: string,
  prompt: string | readonly RichPromptNode[] | null | undefined,
): Promise<void> {
  if (!Array.isArray(prompt)) return;
  const nodes = prompt as readonly RichPromptNode[];
  await assertOwned(
    em,
    organizationId,
    'field_definition',
    nodes.map((n) => (n.type === 'field-box' ? n.fieldId : null)),
  );
  await assertOwned(
    em,
    organizationId,
    'enrichment',
    nodes.map((n) => (n.type === 'enrich-box' ? n.enrichmentId : null)),
  );
}
