// Typed projections of custom field values on the record row ("slots"). field_value stays the
// source of truth (value, info value, status, status message, details per cell); a custom field
// of a company or contact may also own one slot column of the record's table, written in the same
// transaction as its field_value row by writeFieldValue (field-values.ts), so that a filter on the
// field is tested on the same row visit as the search and a sort on it walks the slot's index.
//
//   num_1 … num_16   double precision   numeric types (the number) and boolean (1 / 0)
//   txt_1 … txt_16   text collate "C"   every other type: text types lowercased (filters and sorts
//                                        ignore case), date / time as their ISO text, objects as JSON
//
// Slot numbers in field_definition.slot: 1–16 are num_1–num_16, 17–32 are txt_1–txt_16; bit
// (slot − 1) of the generated column `filled_mask` is set when the slot holds a value. Each slot
// has a partial index (organization_id, value, id) where the value is not null; the name sort index
// INCLUDEs filled_mask, so the rows without a value can be walked in name order index-only; the
// number of filled slots is kept in slot_count by statement triggers (Migration20261122172000).
// Fields created when their family's 16 slots are taken have no slot: they are filtered and sorted
// through field_value (correct, but a join per request at a million rows).
import { NUMERIC_TYPES, TEMPORAL_TYPES, type FieldDataType } from '@dealscout/shared/domain';

export const NUM_SLOTS = 16;
export const TEXT_SLOTS = 16;

export type SlotFamily = 'num' | 'txt';

/** num: numeric types and boolean; txt: everything else. */
export function slotFamily(dataType: FieldDataType): SlotFamily {
  return NUMERIC_TYPES.includes(dataType) || dataType === 'boolean' ? 'num' : 'txt';
}

/** The slot numbers of a family, in the order they are handed out. */
export function familySlots(family: SlotFamily): number[] {
  return family === 'num'
    ? Array.from({ length: NUM_SLOTS }, (_, i) => i + 1)
    : Array.from({ length: TEXT_SLOTS }, (_, i) => NUM_SLOTS + i + 1);
}

/** The record column of a slot (1–32). */
export function slotColumn(slot: number): string {
  if (!Number.isInteger(slot) || slot < 1 || slot > NUM_SLOTS + TEXT_SLOTS) throw new Error(`no slot ${slot}`);
  return slot <= NUM_SLOTS ? `num_${slot}` : `txt_${slot - NUM_SLOTS}`;
}

/** The bit of a slot in filled_mask. */
export function slotBit(slot: number): bigint {
  return 1n << BigInt(slot - 1);
}

/** Text slots hold at most this many characters in their index (the sort key); filters read the whole value. */
export const TEXT_SORT_PREFIX = 200;

/** The value a slot holds for a stored (coerced) value of the field, or null for no value. */
export function projectionOf(dataType: FieldDataType, value: unknown): number | string | null {
  if (value === null || value === undefined) return null;
  if (slotFamily(dataType) === 'num') {
    if (dataType === 'boolean') return value ? 1 : 0;
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return TEMPORAL_TYPES.includes(dataType) ? text : text.toLowerCase();
}
