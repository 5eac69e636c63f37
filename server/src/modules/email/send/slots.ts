// The per-mailbox send-slot ledger (docs/ARCHITECTURE.md 'Sending email', 'Pacing').
//
// Every outbox row holds a slot (`email_outbox.slot_at`): the instant its job starts. Slots are
// handed out at schedule time under the mailbox's advisory lock (the same one the claim counts
// the limits under), so concurrent schedulers of one mailbox see each other; a partial unique
// index on (organization, owner, slot_at) is the database's guard that no two active rows share
// one. A slot is the earliest instant at or after the requested one that keeps the mailbox within
// Exchange Online's rate — at most MAILBOX_LIMITS.messagesPerMinute in any rolling minute, the
// burst Exchange allows — with SLOT_SPACING_MS between any two slots. A job therefore starts when
// the claim will let it through, instead of being sent back to wait.
import type { EntityManager } from '@mikro-orm/postgresql';
import { MAILBOX_LIMITS } from '@dealscout/shared/domain';
import { tenantSql, unscopedSql } from '../../../db/sql';

/** Between two slots of one mailbox: a burst of 30 spreads over 2.9 s, and slots are distinct instants. */
export const SLOT_SPACING_MS = 100;
export const RATE_WINDOW_MS = 60_000;
/**
 * When a send counts in the mailbox's rolling minute. Exchange counts it when the send request
 * reaches it: after our claim (the create call comes first) and before the send call answers. A
 * row recorded `sent` counts at its `sent_at` (written after the answer: never earlier than
 * Exchange's count); a row still leaving counts as made SEND_MARGIN_MS after its claim (without a
 * margin, the 31st send of a mailbox could come within the minute of the first's arrival and be
 * refused with 429: 21 of 2,000 in the bench). Counting recorded sends at their claim plus the
 * margin instead held every mailbox's second minute back by ~0.9 s (docs/benchmarks.md).
 */
export const SEND_MARGIN_MS = 1_000;
/** SQL: the instant a leaving or sent row counts in its mailbox's rolling minute (`p` the table alias with its dot, or ''). */
export function countsAtSql(p = ''): string {
  return `(case when ${p}state = 'sent' and ${p}sent_at is not null then ${p}sent_at else ${p}claimed_at + interval '${SEND_MARGIN_MS} milliseconds' end)`;
}
/** How far ahead the ledger is read at once (read further when the slot lands beyond). */
const HORIZON_MS = 3_600_000;

/** The first index with xs[i] >= v (xs sorted ascending). */
function lowerBound(xs: number[], v: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface SlotRules {
  perMinute: number;
  spacingMs: number;
  /** The first allowed instant at or after t (the send window); identity for Send Now. */
  align?: (t: number) => number;
}

/**
 * Pure: the earliest instant t >= from such that, with t added, no rolling minute (an interval
 * (e - 60 s, e]) holds more than `perMinute` of `windowTimes`, and no instant of `spacingTimes` is
 * closer than `spacingMs`. `windowTimes` are when the mailbox's other sends happen (a waiting row's
 * slot, a claimed row's claim); `spacingTimes` adds the slots themselves. Both sorted ascending.
 */
export function firstFreeSlot(windowTimes: number[], spacingTimes: number[], from: number, rules: SlotRules): number {
  const align = rules.align ?? ((t: number) => t);
  let t = align(from);
  for (let guard = 0; guard < 1_000_000; guard += 1) {
    // Spacing: no other slot within (t - spacing, t + spacing).
    const near = lowerBound(spacingTimes, t - rules.spacingMs + 1);
    if (near < spacingTimes.length && spacingTimes[near] < t + rules.spacingMs) {
      t = align(spacingTimes[near] + rules.spacingMs);
      continue;
    }
    // The minute that ends at t: its earliest sends must fall out of it.
    const lo = lowerBound(windowTimes, t - RATE_WINDOW_MS + 1);
    const hi = lowerBound(windowTimes, t + 1);
    const inMinute = hi - lo;
    if (inMinute + 1 > rules.perMinute) {
      t = align(windowTimes[lo + inMinute - rules.perMinute] + RATE_WINDOW_MS);
      continue;
    }
    // Every minute that ends at a later send and holds t: t must not overfill it.
    let moved = false;
    for (let i = hi; i < windowTimes.length && windowTimes[i] < t + RATE_WINDOW_MS; i += 1) {
      const e = windowTimes[i];
      const count = i + 1 - lowerBound(windowTimes, e - RATE_WINDOW_MS + 1);
      if (count + 1 > rules.perMinute) {
        t = align(e + rules.spacingMs);
        moved = true;
        break;
      }
    }
    if (!moved) return t;
  }
  throw new Error('no send slot found');
}

/** The mailbox's lock: slot hand-outs, shifts and the claim's count of the limits take it (transaction-scoped). */
export async function lockMailbox(em: EntityManager, organizationId: string, ownerId: string): Promise<void> {
  await unscopedSql(em, 'connection').all(`select pg_advisory_xact_lock(hashtextextended(?, 18))`, [`${organizationId}:${ownerId}`]);
}

async function ledger(
  em: EntityManager,
  organizationId: string,
  ownerId: string,
  from: number,
  to: number,
): Promise<{ windowTimes: number[]; spacingTimes: number[] }> {
  const rows = await tenantSql(em, organizationId).all<{ slot: number | null; eff: number | null }>(
    `select (extract(epoch from slot_at) * 1000)::float8 as slot,
            (extract(epoch from case when state in ('sending', 'sent') and claimed_at is not null then ${countsAtSql()} else slot_at end) * 1000)::float8 as eff
       from email_outbox
      where organization_id = ? and owner_id = ? and state in ('queued', 'sending', 'sent')
        and ((slot_at >= ? and slot_at < ?) or (state in ('sending', 'sent') and claimed_at >= ?::timestamptz - interval '10 minutes' and claimed_at < ?))`,
    [organizationId, ownerId, new Date(from), new Date(to), new Date(from), new Date(to)],
  );
  const windowTimes = rows
    .map((r) => r.eff)
    .filter((x): x is number => x !== null)
    .map(Math.round)
    .sort((a, b) => a - b);
  const spacingTimes = [
    ...new Set([
      ...windowTimes,
      ...rows
        .map((r) => r.slot)
        .filter((x): x is number => x !== null)
        .map(Math.round),
    ]),
  ].sort((a, b) => a - b);
  return { windowTimes, spacingTimes };
}

/**
 * The mailbox's first free slot at or after `from` (read-only: the panel's 'Leaves …' asks this;
 * to hold the slot, call it under lockMailbox and write it in the same transaction — reserveSlot).
 */
export async function firstSlot(
  em: EntityManager,
  organizationId: string,
  ownerId: string,
  from: Date,
  align?: (d: Date) => Date,
): Promise<Date> {
  const rules: SlotRules = {
    perMinute: MAILBOX_LIMITS.messagesPerMinute,
    spacingMs: SLOT_SPACING_MS,
    align: align ? (t) => align(new Date(t)).getTime() : undefined,
  };
  let upTo = Math.max(from.getTime(), rules.align?.(from.getTime()) ?? 0) + HORIZON_MS;
  for (;;) {
    const { windowTimes, spacingTimes } = await ledger(em, organizationId, ownerId, from.getTime() - RATE_WINDOW_MS, upTo);
    const t = firstFreeSlot(windowTimes, spacingTimes, from.getTime(), rules);
    // Everything that can touch t's minutes was read: done; else read further.
    if (t + RATE_WINDOW_MS < upTo) return new Date(t);
    upTo = t + RATE_WINDOW_MS + HORIZON_MS;
  }
}

/** Holds a slot for the caller's outbox row: the mailbox lock is taken until the transaction ends, so the caller must write slot_at in it. */
export async function reserveSlot(
  tem: EntityManager,
  organizationId: string,
  ownerId: string,
  from: Date,
  align?: (d: Date) => Date,
): Promise<Date> {
  await lockMailbox(tem, organizationId, ownerId);
  return firstSlot(tem, organizationId, ownerId, from, align);
}

/**
 * A 429 from the mailbox (Retry-After): the throttled row and every waiting row of that mailbox
 * whose slot falls before `until` take new slots from `until` on, in their order. Rows held by a
 * claim at this moment are skipped (their claim counts the limits itself). Their pg-boss jobs are
 * not moved: a job that comes before its row's new slot is sent on to it by the claim. Answers
 * the throttled row's new slot. Runs in the caller's transaction.
 */
export async function shiftMailbox(
  tem: EntityManager,
  organizationId: string,
  ownerId: string,
  throttledId: string,
  until: Date,
): Promise<Date> {
  await lockMailbox(tem, organizationId, ownerId);
  const sql = tenantSql(tem, organizationId);
  const waiting = await sql.all<{ id: string }>(
    `select id from email_outbox where organization_id = ? and owner_id = ? and state = 'queued' and slot_at < ? and id <> ? order by
      slot_at, id for update skip locked`,
    [organizationId, ownerId, until, throttledId],
  );
  const ids = [throttledId, ...waiting.map((w) => w.id)];
  await sql.run(
    `update email_outbox set slot_at = null, updated_at = clock_timestamp() where organization_id = ? and id in (${ids.map(() => '?').join(', ')})`,
    [organizationId, ...ids],
  );
  let first: Date | null = null;
  for (const id of ids) {
    const slot = await firstSlot(tem, organizationId, ownerId, until);
    await sql.run(
      `update email_outbox set slot_at = ?, send_after = ?, updated_at = clock_timestamp() where id = ? and organization_id = ?`,
      [slot, slot, id, organizationId],
    );
    first ??= slot;
  }
  return first!;
}
