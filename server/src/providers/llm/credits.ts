// AI credits (organization credits.ai): one credit per system-provider call, charged once per
// charge key. The charge row (llm_charge, unique per organization and key) and the decrement commit
// together; a key already charged costs nothing again, so a retried job repeating its call with the
// same key pays once. A call that fails is refunded (row deleted, credit back), so only answered
// calls cost. Organizations with their own key spend no credits.
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { LlmError } from './port';

export const CREDITS_EXHAUSTED_MESSAGE =
  "Your organization has used all of its AI credits. Ask your admin to add credits, or connect your organization's own OpenAI API key under Profile → Integrations.";
export const creditsExpiredMessage = (at: Date) =>
  `Your organization's AI credits expired on ${at.toISOString().slice(0, 10)}. Ask your admin to renew them, or connect your organization's own OpenAI API key under Profile → Integrations.`;

export interface Charge {
  chargeKey: string;
  /** False when the key had been charged before (nothing spent now). */
  charged: boolean;
}

/** Spends one credit for `chargeKey` unless it was spent already; throws credits_exhausted. */
export async function chargeCredit(em: EntityManager, organizationId: string, chargeKey: string | undefined, model: string): Promise<Charge> {
  const key = chargeKey ?? `call:${randomUUID()}`;
  return em.fork().transactional(async (tem) => {
    const inserted = await tem.execute<{ id: string }[]>(
      `insert into llm_charge (id, organization_id, charge_key, model, created_at) values (?, ?, ?, ?, clock_timestamp())
       on conflict (organization_id, charge_key) do nothing returning id`,
      [randomUUID(), organizationId, key.slice(0, 300), model.slice(0, 200)]);
    if (inserted.length === 0) return { chargeKey: key, charged: false };
    const updated = await tem.execute<{ id: string }[]>(
      `update organization set ai_credits_used = ai_credits_used + 1
        where id = ? and (ai_credits_total is null or ai_credits_used < ai_credits_total)
          and (ai_credits_expires_at is null or ai_credits_expires_at > now())
        returning id`, [organizationId]);
    if (updated.length === 0) {
      const [org] = await tem.execute<{ ai_credits_expires_at: Date | null }[]>(`select ai_credits_expires_at from organization where id = ?`, [organizationId]);
      const expires = org?.ai_credits_expires_at ? new Date(org.ai_credits_expires_at) : null;
      throw new LlmError('credits_exhausted', expires && expires <= new Date() ? creditsExpiredMessage(expires) : CREDITS_EXHAUSTED_MESSAGE);
    }
    return { chargeKey: key, charged: true };
  });
}

/** Gives the credit of a key back (the call it paid for failed). */
export async function refundCredit(em: EntityManager, organizationId: string, chargeKey: string): Promise<void> {
  await em.fork().transactional(async (tem) => {
    const deleted = await tem.execute<{ id: string }[]>(
      `delete from llm_charge where organization_id = ? and charge_key = ? returning id`, [organizationId, chargeKey.slice(0, 300)]);
    if (deleted.length > 0) {
      await tem.execute(`update organization set ai_credits_used = greatest(ai_credits_used - 1, 0) where id = ?`, [organizationId]);
    }
  });
}

/** credits.ai of GET /organization: remaining and total null when unlimited. */
export function creditsView(c: { total: number | null; used: number; expiresAt: Date | null }) {
  return {
    remaining: c.total === null ? null : Math.max(0, c.total - c.used),
    total: c.total,
    expiresAt: c.expiresAt ? c.expiresAt.toISOString() : null,
  };
}
