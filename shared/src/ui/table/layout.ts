// Column layouts of a table (spec 002 §2 'a columns menu for tables, where column lists are saved
// per user'): order, width and visibility per column key, merged with the columns that exist now.
import type { z } from 'zod';
import type { LayoutColumn } from '../../contracts';

export type ColumnLayout = { key: string; order: number; width: number; visible: boolean };
export type LayoutColumnInput = z.input<typeof LayoutColumn>;

export interface ColumnDefault {
  key: string;
  width: number;
  /** Shown unless the user hid it (default true). */
  visible?: boolean;
}

const MIN = 40;
const MAX = 2000;
const clampWidth = (w: number) => Math.min(MAX, Math.max(MIN, Math.round(w)));

/**
 * The saved layout applied to the current columns: saved columns keep their order, width and
 * visibility; columns the layout does not know (a new custom field) follow at the end with their
 * defaults; saved columns that no longer exist are dropped.
 */
export function mergeLayout(saved: readonly LayoutColumnInput[] | null | undefined, defaults: readonly ColumnDefault[]): ColumnLayout[] {
  const known = new Map(defaults.map((d) => [d.key, d]));
  const out: ColumnLayout[] = [];
  const seen = new Set<string>();
  const sorted = [...(saved ?? [])].sort((a, b) => a.order - b.order);
  for (const c of sorted) {
    const d = known.get(c.key);
    if (!d || seen.has(c.key)) continue;
    seen.add(c.key);
    out.push({ key: c.key, order: 0, width: clampWidth(c.width ?? d.width), visible: c.visible ?? true });
  }
  for (const d of defaults) {
    if (seen.has(d.key)) continue;
    out.push({ key: d.key, order: 0, width: clampWidth(d.width), visible: d.visible ?? true });
  }
  if (out.length && !out.some((c) => c.visible)) out[0].visible = true;
  return out.map((c, i) => ({ ...c, order: i }));
}

export function setColumnVisible(layout: readonly ColumnLayout[], key: string, visible: boolean): ColumnLayout[] {
  // The last visible column stays visible.
  if (!visible && layout.filter((c) => c.visible).length <= 1) return [...layout];
  return layout.map((c) => (c.key === key ? { ...c, visible } : c));
}

export function moveColumn(layout: readonly ColumnLayout[], key: string, delta: number): ColumnLayout[] {
  const i = layout.findIndex((c) => c.key === key);
  const j = i + delta;
  if (i < 0 || j < 0 || j >= layout.length) return [...layout];
  const next = [...layout];
  [next[i], next[j]] = [next[j], next[i]];
  return next.map((c, k) => ({ ...c, order: k }));
}

export function setColumnWidth(layout: readonly ColumnLayout[], key: string, width: number): ColumnLayout[] {
  if (!Number.isFinite(width)) return [...layout];
  return layout.map((c) => (c.key === key ? { ...c, width: clampWidth(width) } : c));
}
