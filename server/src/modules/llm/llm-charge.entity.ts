import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Organization } from '../../db/organization.entity';

/**
 * One AI credit spent: a row per organization and charge key, so a call repeated with the same key
 * (a retried job) finds its row and is not charged again (server/src/providers/llm/credits.ts).
 */
export const LlmCharge = defineEntity({
  name: 'LlmCharge',
  tableName: 'llm_charge',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    organization: () => p.manyToOne(Organization),
    chargeKey: p.string().length(300),
    model: p.string().length(200),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ name: 'llm_charge_org_key_unique', properties: ['organization', 'chargeKey'] }],
});
export type ILlmCharge = InferEntity<typeof LlmCharge>;
