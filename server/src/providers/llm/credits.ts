// AI credits (organization credits.ai): one credit per system-provider call, charged once per
// charge key. The charge row (llm_charge, unique per organization and key) and the decrement commit
// together; a key already charged costs nothing again, so a retried job repeating its call with the
// same key pays once. A call that fails is refunded (row deleted, credit back), so only answered
// calls cost. Organizations with their own key spend no credits.
//
// Charges are grouped: the charges of an organization asked for while its previous group is being
// written go together into the next one, one autocommit statement (lock the organization row, insert
// the new keys that fit in the credits left, add their number to ai_credits_used). The organization
// row is locked for one statement per group instead of one transaction per call, so a busy worker
// does not queue its model calls behind the lock (docs/benchmarks.md, 'Enrichments').
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { LlmError } from './port';
import { tenantSql } from '../../db/sql';

export const CREDITS_EXHAUSTED_MESSAGE =
  'Your organization has used all of its AI credits. Ask your admin to add credits, or connect your ' +
  "organization's own OpenAI API key under Profile → Integrations.";
export const creditsExpiredMessage = (at: Date) =>
  `Your organization's AI credits expired on ${at.toISOString().slice(0, 10)}. Ask your admin to renew them, or ` +
  `connect your organization's own OpenAI API key under Profile → Integrations.`;

export interface Charge {
  chargeKey: string;
  /** False when the key had been charged before (nothing spent now). */
  charged: boolean;
}

/** The most charges one statement takes. */
const GROUP_MAX = 500;

interface ChargeOutcome {
  /** Keys charged by this statement. */
  charged: Set<string>;
  /** Keys refused: no credit left (or expired). */
  refused: Set<string>;
  expiresAt: Date | null;
}

/**
 * Charges a group of keys of one organization in one statement (autocommit, or the caller's
 * transaction). The organization row is locked first (FOR NO KEY UPDATE, as an update of it would: the latest committed
 * credits; inserts elsewhere that reference the organization are not blocked), so
 * concurrent groups, of this process or another, are serialized on it: with M credits left, exactly
 * M new keys are charged, in the order given. A key already charged (or repeated in the group) is
 * neither charged nor refused.
 */
export async function chargeCreditGroup(
  em: EntityManager,
  organizationId: string,
  items: readonly { key: string; model: string }[],
): Promise<ChargeOutcome> {
  const [row] = await tenantSql(em, organizationId).bound<{ charged: string[]; refused: string[]; expires_at: Date | null }>(
    `with req as (
       select x->>'key' as key, x->>'model' as model, t.ord from jsonb_array_elements($2::jsonb) with ordinality as t(x, ord)
     ), org as materialized (
       select ai_credits_total as total, ai_credits_used as used, ai_credits_expires_at as expires_at,
              (ai_credits_expires_at is null or ai_credits_expires_at > now()) as live
         from organization where id = $1 for no key update
     ), fresh as materialized (
       select f.key, f.model, row_number() over (order by f.ord) as n
         from (select distinct on (key) key, model, ord from req order by key, ord) f
        where not exists (select 1 from llm_charge c where c.organization_id = $1 and c.charge_key = f.key)
     ), granted as materialized (
       select f.key, f.model from fresh f, org where org.live and (org.total is null or org.used + f.n <= org.total)
     ), ins as (
       insert into llm_charge (id, organization_id, charge_key, model, created_at)
       select gen_random_uuid(), $1, key, model, clock_timestamp() from granted
       on conflict (organization_id, charge_key) do nothing
       returning charge_key
     ), upd as (
       update organization o set ai_credits_used = o.ai_credits_used + (select count(*) from ins)
        where o.id = $1 and exists (select 1 from ins)
       returning o.id
     )
     select (select coalesce(jsonb_agg(charge_key), '[]'::jsonb) from ins) as charged,
            (select coalesce(jsonb_agg(key), '[]'::jsonb) from fresh where key not in (select key from granted)) as refused,
            (select expires_at from org) as expires_at,
            (select count(*) from upd) as updated`,
    [organizationId, JSON.stringify(items.map((i) => ({ key: i.key, model: i.model })))],
  );
  return {
    charged: new Set(row?.charged ?? []),
    refused: new Set(row?.refused ?? items.map((i) => i.key)),
    expiresAt: row?.expires_at ? new Date(row.expires_at) : null,
  };
}

interface Waiter {
  key: string;
  model: string;
  resolve(c: Charge): void;
  reject(e: unknown): void;
}

/** Groups the charges of each organization (per database connection: forks of one ORM share it). */
class ChargeGrouper {
  private readonly pending = new Map<string, Waiter[]>();
  private readonly flushing = new Set<string>();
  constructor(private readonly em: EntityManager) {}

  charge(organizationId: string, key: string, model: string): Promise<Charge> {
    return new Promise<Charge>((resolve, reject) => {
      const list = this.pending.get(organizationId) ?? [];
      list.push({ key, model, resolve, reject });
      this.pending.set(organizationId, list);
      if (!this.flushing.has(organizationId)) {
        this.flushing.add(organizationId);
        // After the current turn: the charges asked for together go into one statement.
        setImmediate(() => {
          void this.flush(organizationId);
        });
      }
    });
  }

  private async flush(organizationId: string): Promise<void> {
    try {
      for (;;) {
        const list = this.pending.get(organizationId) ?? [];
        if (list.length === 0) break;
        const group = list.splice(0, GROUP_MAX);
        if (list.length === 0) this.pending.delete(organizationId);
        let out: ChargeOutcome;
        try {
          out = await chargeCreditGroup(this.em.fork(), organizationId, group);
        } catch (err) {
          for (const w of group) w.reject(err);
          continue;
        }
        const first = new Set<string>();
        for (const w of group) {
          if (out.refused.has(w.key)) {
            const expired = out.expiresAt && out.expiresAt <= new Date();
            w.reject(new LlmError('credits_exhausted', expired ? creditsExpiredMessage(out.expiresAt!) : CREDITS_EXHAUSTED_MESSAGE));
            continue;
          }
          // The first waiter of a key charged now owns the charge (and its refund); the others ran free.
          const charged = out.charged.has(w.key) && !first.has(w.key);
          if (charged) first.add(w.key);
          w.resolve({ chargeKey: w.key, charged });
        }
      }
    } finally {
      this.flushing.delete(organizationId);
      // Charges that arrived after the loop's last look start their own flush.
      if ((this.pending.get(organizationId)?.length ?? 0) > 0) {
        this.flushing.add(organizationId);
        void this.flush(organizationId);
      }
    }
  }
}

const groupers = new WeakMap<object, ChargeGrouper>();

/** Spends one credit for `chargeKey` unless it was spent already; throws credits_exhausted. */
export async function chargeCredit(
  em: EntityManager,
  organizationId: string,
  chargeKey: string | undefined,
  model: string,
): Promise<Charge> {
  const key = (chargeKey ?? `call:${randomUUID()}`).slice(0, 300);
  // One grouper per database (driver), as one per pool before.
  const driver = em.getDriver();
  let g = groupers.get(driver);
  if (!g) groupers.set(driver, (g = new ChargeGrouper(em.fork())));
  return g.charge(organizationId, key, model.slice(0, 200));
}

/** Gives the credit of a key back (the call it paid for failed): one statement. */
export async function refundCredit(em: EntityManager, organizationId: string, chargeKey: string): Promise<void> {
  await tenantSql(em.fork(), organizationId).bound(
    `with d as (delete from llm_charge where organization_id = $1 and charge_key = $2 returning id)
     update organization set ai_credits_used = greatest(ai_credits_used - (select count(*) from d), 0)
      where id = $1 and exists (select 1 from d)`,
    [organizationId, chargeKey.slice(0, 300)],
  );
}

/** credits.ai of GET /organization: remaining and total null when unlimited. */
export function creditsView(c: { total: number | null; used: number; expiresAt: Date | null }) {
  return {
    remaining: c.total === null ? null : Math.max(0, c.total - c.used),
    total: c.total,
    expiresAt: c.expiresAt ? c.expiresAt.toISOString() : null,
  };
}
