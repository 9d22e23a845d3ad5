/**
 * Pure geometry of the layout tree: weights → flex/grid sizes, and splitter drags → new weights.
 * Weights are relative floats > 0 (docs/contracts.md §1); sizes are CSS percentages or px.
 */

/** Minimum size of a pane while dragging a splitter, in px. */
export const MIN_PANE_PX = 48;

/** Relative weights → percentages that sum to 100. Non-positive or NaN weights count as 1. */
export function toPercentages(weights: readonly number[]): number[] {
  const safe = weights.map((w) => (Number.isFinite(w) && w > 0 ? w : 1));
  const total = safe.reduce((sum, w) => sum + w, 0);
  return safe.map((w) => (w / total) * 100);
}

/** CSS `flex` shorthand for a child of a split with the given weights. */
export function flexFor(weights: readonly number[], index: number): string {
  const pct = toPercentages(weights)[index] ?? 0;
  return `${pct} ${pct} 0px`;
}

/**
 * New weights after dragging the splitter between child `index` and `index + 1` by `deltaPx`
 * (positive = towards the end). `totalPx` is the size of the split along its axis, excluding
 * splitters. Only the two neighbours change; their sum is kept, and each stays ≥ `minPx`
 * (or half their joint size when the two together are smaller than 2 × minPx).
 */
export function resizeWeights(
  weights: readonly number[],
  index: number,
  deltaPx: number,
  totalPx: number,
  minPx: number = MIN_PANE_PX,
): number[] {
  if (index < 0 || index + 1 >= weights.length || totalPx <= 0) return [...weights];
  const pct = toPercentages(weights);
  const sizes = pct.map((p) => (p / 100) * totalPx);
  const pair = sizes[index] + sizes[index + 1];
  const floor = Math.min(minPx, pair / 2);
  const before = Math.min(Math.max(sizes[index] + deltaPx, floor), pair - floor);
  sizes[index] = before;
  sizes[index + 1] = pair - before;
  const totalWeight = weights.reduce((sum, w) => sum + (Number.isFinite(w) && w > 0 ? w : 1), 0);
  return sizes.map((px) => round((px / totalPx) * totalWeight));
}

/** CSS `grid-template-columns`/`-rows` for the given weights, as `fr` units. */
export function gridTemplate(weights: readonly number[]): string {
  return toPercentages(weights)
    .map((p) => `minmax(0, ${round(p)}fr)`)
    .join(' ');
}

/** CSS `grid-area` for a cell at 0-based `row`/`col` spanning `rowSpan`×`colSpan` tracks. */
export function gridArea(cell: { row: number; col: number; rowSpan: number; colSpan: number }): string {
  const rowSpan = Math.max(1, cell.rowSpan || 1);
  const colSpan = Math.max(1, cell.colSpan || 1);
  return `${cell.row + 1} / ${cell.col + 1} / span ${rowSpan} / span ${colSpan}`;
}

/** Terminal grid that fits a box of `widthPx`×`heightPx` with the given character cell size. */
export function estimateGrid(
  widthPx: number,
  heightPx: number,
  charWidthPx = 7.8,
  charHeightPx = 17,
): { cols: number; rows: number } {
  const cols = Math.floor(widthPx / charWidthPx);
  const rows = Math.floor(heightPx / charHeightPx);
  return { cols: Math.max(20, Number.isFinite(cols) ? cols : 80), rows: Math.max(5, Number.isFinite(rows) ? rows : 24) };
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}
