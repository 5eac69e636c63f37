// Column widths the record tables choose when the user has not set one: from the column's kind
// (its type) and what it shows — the header's full label and the cells of the page — within the
// kind's bounds, so an enrichment answer or a score model's name is readable without a drag.
export type ColumnKind = 'text' | 'number' | 'date' | 'url' | 'status' | 'score' | 'enrichment' | 'icon';

/** [min, max] px of an automatic width, per kind. */
export const KIND_BOUNDS: Record<ColumnKind, readonly [number, number]> = {
  text: [100, 320],
  number: [80, 170],
  date: [110, 160],
  url: [130, 280],
  status: [90, 170],
  score: [100, 220],
  // 'Processing...' fits; long answers stop at 360 px (the tooltip and the drawer show the rest).
  enrichment: [130, 360],
  icon: [56, 110],
};

/** Cell padding (12 px each side) plus a little air. */
const CELL_PADDING = 28;
/** The sort arrow and its gap. */
const SORT_ICON = 20;
/** Share of the page's cells that fit without an ellipsis (one long outlier does not widen the column). */
const FIT_SHARE = 0.9;

export type MeasureText = (text: string, bold?: boolean) => number;

let canvas: CanvasRenderingContext2D | null | undefined;
/** Text width in the tables' font (Fluent's base 300: 14 px Segoe UI); a per-character estimate without a canvas. */
export const measureText: MeasureText = (text, bold = false) => {
  if (canvas === undefined) {
    try {
      canvas = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    } catch {
      canvas = null;
    }
  }
  if (canvas) {
    canvas.font =
      `${bold ? 600 : 400} 14px "Segoe UI", "Segoe UI Web (West European)", -apple-system, BlinkMacSystemFont, ` +
      `Roboto, "Helvetica Neue", sans-serif`;
    const w = canvas.measureText(text).width;
    if (Number.isFinite(w) && (w > 0 || text === '')) return w;
  }
  return text.length * (bold ? 8 : 7.4);
};

export interface AutoWidthInput {
  label: string;
  kind: ColumnKind;
  sortable: boolean;
  /** The texts of the column's cells on the page. */
  texts: readonly string[];
}

/**
 * The automatic width of a column: wide enough for its full header label and for nine in ten of
 * its cells on the page, within its kind's bounds.
 */
export function autoColumnWidth(c: AutoWidthInput, measure: MeasureText = measureText): number {
  const [min, max] = KIND_BOUNDS[c.kind];
  const header = measure(c.label, true) + CELL_PADDING + (c.sortable ? SORT_ICON : 0);
  const widths = c.texts
    .filter((t) => t.trim() !== '')
    .map((t) => measure(t))
    .sort((a, b) => a - b);
  const content = widths.length ? widths[Math.min(widths.length - 1, Math.floor((widths.length - 1) * FIT_SHARE + 0.5))] + CELL_PADDING : 0;
  return Math.round(Math.min(max, Math.max(min, header, content)));
}

/** Keyboard resizing: arrows move a column's edge by this much (Shift: RESIZE_STEP_LARGE). */
export const RESIZE_STEP = 10;
export const RESIZE_STEP_LARGE = 50;
