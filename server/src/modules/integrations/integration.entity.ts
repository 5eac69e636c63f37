import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../db/organization.entity';
import { User } from '../users/user.entity';

/**
 * A connected outside service (spec 001 §3 Integration): provider openai | salesforce | affinity |
 * office365, type llm | crm | email. Organization integrations have no user; a user's own (email)
 * integration names its user. Secrets (API keys, tokens) live only in `secret`, encrypted with
 * AES-256-GCM (server/src/lib/secrets.ts); `data` holds what may be shown.
 */
export const Integration = defineEntity({
  name: 'Integration',
  tableName: 'integration',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    user: () => p.manyToOne(User).nullable().deleteRule('cascade'),
    provider: p.string().length(40),
    type: p.string().length(20),
    name: p.string().length(200),
    active: p.boolean().default(true),
    /** Non-secret settings and metadata, e.g. { baseUrl, models } for openai. */
    data: p
      .json<Record<string, unknown>>()
      .defaultRaw(`'{}'`)
      .onCreate(() => ({})),
    /** Encrypted secret (`v1.<iv>.<tag>.<ciphertext>`, base64url); never returned by any route. */
    secret: p.text().nullable(),
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
    expiresAt: p.datetime().nullable(),
  },
  indexes: [{ name: 'integration_org_provider_index', properties: ['organization', 'provider'] }],
});
export type IIntegration = InferEntity<typeof Integration>;
