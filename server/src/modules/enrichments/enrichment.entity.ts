import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { EnrichmentSchemaItem, RichPromptNode } from '@dealscout/shared/domain';
import type { ListColumn } from '@dealscout/shared/contracts';
import { Organization } from '../../db/organization.entity';
import { User } from '../users/user.entity';
import { FieldDefinition } from '../fields/field.entity';

/** The editable part of an enrichment (spec 001 §3 'Enrichment': data). */
export interface EnrichmentData {
  prompt: string | RichPromptNode[] | null;
  schema: EnrichmentSchemaItem[];
  jsonSchema: Record<string, unknown> | null;
  websiteToScrape: string | null;
  scrapeFieldId: string | null;
}

/**
 * An enrichment of an organization (spec 001 §3, spec 002 §3). Its config (type) is one of the
 * product's fixed configs (configs.ts); the field it fills is `field` (at most one), and `isPrimary`
 * says whether it is the field's primary enrichment (one per field, the first assigned).
 */
export const Enrichment = defineEntity({
  name: 'Enrichment',
  tableName: 'enrichment',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    configId: p.string().length(64),
    /** llm | agent | deepresearchagent | mixrankCompanyDetails (copied from the config, for filters). */
    enrichmentType: p.string().length(40),
    /** dealscout | mixrank */
    provider: p.string().length(20),
    entityType: p.string().length(20),
    name: p.string().length(200),
    llmModelId: p.string().length(200).default('default'),
    data: p.json<EnrichmentData>(),
    color: p.string().length(20).nullable(),
    field: () => p.manyToOne(FieldDefinition).nullable().deleteRule('set null'),
    isPrimary: p.boolean().default(false),
    /** When the field was assigned (the earliest remaining becomes primary when the primary one leaves). */
    assignedAt: p.datetime().nullable(),
    listCompanyId: p.uuid().nullable(),
    listColumns: p
      .json<ListColumn[]>()
      .defaultRaw(`'[]'`)
      .onCreate(() => []),
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [
    { name: 'enrichment_org_created_index', properties: ['organization', 'createdAt'] },
    { name: 'enrichment_org_field_index', properties: ['organization', 'field'] },
  ],
  uniques: [{ properties: ['organization', 'id'] }],
});
export type IEnrichment = InferEntity<typeof Enrichment>;

/**
 * The latest result of one enrichment for one record (spec 001 §3 'Enrichment result'): one row per
 * (enrichment, entity), rewritten by each run. `status` preprocessing (queued: `value` still holds
 * the previous answer), complete or error; while queued its execution says whether it is running.
 */
export const EnrichmentResult = defineEntity({
  name: 'EnrichmentResult',
  tableName: 'enrichment_result',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    enrichment: () => p.manyToOne(Enrichment).deleteRule('cascade'),
    entityType: p.string().length(20),
    entityId: p.uuid(),
    /** The execution of the latest run (no FK: executions are pruned on their own schedule). */
    executionId: p.uuid().nullable(),
    /** preprocessing | complete | error */
    status: p.string().length(20),
    statusMessage: p.text().nullable(),
    /** { result: {...} | null } */
    value: p.json<{ result: Record<string, unknown> | null }>(),
    sources: p
      .json<{ url: string; title: string | null }[]>()
      .defaultRaw(`'[]'`)
      .onCreate(() => []),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'enrichment_result_enrichment_entity_unique', properties: ['organization', 'enrichment', 'entityId'] }],
  indexes: [{ name: 'enrichment_result_org_entity_index', properties: ['organization', 'entityId'] }],
});
export type IEnrichmentResult = InferEntity<typeof EnrichmentResult>;
