import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../db/organization.entity';
import { User } from '../users/user.entity';
import { Company } from '../records/records.entity';

/**
 * A list of candidate companies (spec 002 §3 'List'). `totalIdeas` and `totalShortListedIdeas` are
 * kept by the statements that change its ideas (lists.service.ts: each adds its own delta in the same
 * transaction), so a list of a million ideas answers its totals without counting.
 */
export const ListCompany = defineEntity({
  name: 'ListCompany',
  tableName: 'list_company',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    name: p.string().length(255),
    /** active | completed */
    status: p.string().length(20).default('active'),
    totalIdeas: p.integer().default(0),
    totalShortListedIdeas: p.integer().default(0),
    /** The company enrichments run on its ideas (ids, first use first): their columns show in the list. */
    enrichmentIds: p
      .json<string[]>()
      .defaultRaw(`'[]'`)
      .onCreate(() => []),
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [{ name: 'list_company_org_created_index', properties: ['organization', 'createdAt'] }],
  uniques: [{ properties: ['organization', 'id'] }],
});
export type IListCompany = InferEntity<typeof ListCompany>;

/**
 * A source of a list (spec 002 §3 'List source'): a CSV upload, manual ideas, a provider search.
 * `total` and `shortlisted` count the list's ideas that came from it (kept like the list's totals).
 */
export const ListSource = defineEntity({
  name: 'ListSource',
  tableName: 'list_source',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    list: () => p.manyToOne(ListCompany).deleteRule('cascade'),
    /** An intention id (GET /list-company/intentions): manual, csv, ocean, sourceScrub, googleMaps, agent, filter. */
    type: p.string().length(40),
    /** pending | inProgress | completed | failed */
    status: p.string().length(20).default('completed'),
    reason: p.text().nullable(),
    /** info | warning | error */
    statusSeverity: p.string().length(20).nullable(),
    statusReason: p.text().nullable(),
    parameters: p
      .json<Record<string, unknown>>()
      .defaultRaw(`'{}'`)
      .onCreate(() => ({})),
    shortlisted: p.integer().default(0),
    total: p.integer().default(0),
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [{ name: 'list_source_org_list_index', properties: ['organization', 'list'] }],
  uniques: [{ properties: ['organization', 'id'] }],
});
export type IListSource = InferEntity<typeof ListSource>;

/**
 * A candidate company in a list (spec 002 §3 'Idea'). Unique per list by normalized domain; its
 * sources are the ids of the list sources that proposed it. Its scoring results live in idea_score.
 * Its enrichment results live in enrichment_result (entity_type 'idea').
 */
export const Idea = defineEntity({
  name: 'Idea',
  tableName: 'idea',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    list: () => p.manyToOne(ListCompany).deleteRule('cascade'),
    name: p.string().length(255),
    website: p.string().length(255),
    domain: p.string().length(255),
    shortListed: p.boolean().default(false),
    /** idea | inDealscout | invalid */
    status: p.string().length(20).default('idea'),
    sourceIds: p
      .array<string>()
      .defaultRaw(`'{}'`)
      .onCreate(() => []),
    /** Extra columns of the source row (CSV columns beyond name and website). */
    data: p
      .json<Record<string, unknown>>()
      .defaultRaw(`'{}'`)
      .onCreate(() => ({})),
    company: () => p.manyToOne(Company).nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  // No (organization, id) unique: the primary key (id, organization_id) serves idea_score's foreign
  // key; the (organization, company) index is partial (Migration20261129150000, hand-written.ts).
  uniques: [{ name: 'idea_org_list_domain_unique', properties: ['organization', 'list', 'domain'] }],
});
export type IIdea = InferEntity<typeof Idea>;

/**
 * A row of an upload that did not become an idea, with its reason (the downloadable report of
 * rejected rows: none is dropped silently). `line` is the file's record number (the header is 1).
 */
export const ListSourceRejection = defineEntity({
  name: 'ListSourceRejection',
  tableName: 'list_source_rejection',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    organization: () => p.manyToOne(Organization),
    source: () => p.manyToOne(ListSource).deleteRule('cascade'),
    line: p.integer(),
    reason: p.text(),
    name: p.text().nullable(),
    website: p.text().nullable(),
  },
  indexes: [{ name: 'list_source_rejection_org_source_index', properties: ['organization', 'source', 'line'] }],
});
export type IListSourceRejection = InferEntity<typeof ListSourceRejection>;
