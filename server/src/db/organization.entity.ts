import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

/** The tenant. Every organization-owned table references it (NOT NULL, indexed, FK). */
export const Organization = defineEntity({
  name: 'Organization',
  tableName: 'organization',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    name: p.string().length(200),
    website: p.string().length(500).nullable(),
    status: p.string().length(20).default('active'),
    type: p.string().length(40).nullable(),
    aiSummary: p.text().nullable(),
    // An object for the ORM (a string default would be stored as a JSON string), '{}' in SQL.
    settings: p
      .json<Record<string, unknown>>()
      .defaultRaw(`'{}'`)
      .onCreate(() => ({})),
    membershipType: p.string().length(40).default('standard'),
    maxUser: p.integer().default(10),
    startedAt: p.datetime().onCreate(() => new Date()),
    endsAt: p.datetime().nullable(),
    /** credits.ai: null total = unlimited. Spent by system-provider LLM calls (server/src/providers/llm/credits.ts). */
    aiCreditsTotal: p.integer().nullable(),
    aiCreditsUsed: p.integer().default(0),
    aiCreditsExpiresAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IOrganization = InferEntity<typeof Organization>;
