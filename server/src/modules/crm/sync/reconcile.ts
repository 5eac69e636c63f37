// Which side wins when the CRM and Dealscout disagree on a mapped field (spec 002 §3 'Reconciliation
// values: use_latest, keep_existing'), per mapping:
//   use_latest     the later change wins: the CRM's modification stamp of the record against our
//                  last write of the value (the record's updated_at for built-in columns, the
//                  field value's updated_at for custom fields). A record sync just created takes
//                  the CRM's values.
//   keep_existing  a value Dealscout has is kept; the CRM only fills an empty one.
import type { Reconciliation } from '@dealscout/shared/contracts';

export function isEmptyValue(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (isEmptyValue(a) && isEmptyValue(b)) return true;
  if (isEmptyValue(a) || isEmptyValue(b)) return false;
  const s = (v: unknown) => (typeof v === 'object' ? JSON.stringify(v) : String(v)).trim();
  return s(a) === s(b);
}

/** True when the CRM's incoming value should replace Dealscout's current one. */
export function crmWins(
  rule: Reconciliation,
  current: unknown,
  incoming: unknown,
  ourChangedAt: Date | null,
  crmStamp: Date | null,
): boolean {
  if (sameValue(current, incoming)) return false;
  if (rule === 'keep_existing') return isEmptyValue(current);
  if (!ourChangedAt || !crmStamp) return true;
  return crmStamp.getTime() > ourChangedAt.getTime();
}
