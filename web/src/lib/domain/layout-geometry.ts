/**
 * Pure geometry of the layout tree: weights → flex/grid sizes, and splitter drags → new weights.
 * Weights are relative floats > 0 (docs/contracts.md §1); sizes are CSS percentages or px.
 */

import type { GridNode, LayoutNode } from '../ports';

/** Minimum size of a pane while dragging a splitter, in px (when no per-child minimum is given). */
export const MIN_PANE_PX = 48;

/** No cell gets narrower / shorter than this by dragging a splitter, in px. */
export const MIN_CELL_WIDTH_PX = 120;
export const MIN_CELL_HEIGHT_PX = 80;

/** Thickness of a splitter and gap between grid tracks, in px (SplitView, GridView). */
export const SPLITTER_PX = 4;
export const GRID_GAP_PX = 4;

/** Below this width a cell header keeps only the ⋯ menu (split/close move into it), in px. */
export const COMPACT_HEADER_PX = 170;
/** The same for a header that also shows an agent's badges (activity, sandbox): they need room too. */
export const COMPACT_AGENT_HEADER_PX = 300;

/**
 * Whether a cell `widthPx` wide shows its header tools collapsed (0 = not measured yet);
 * `agentBadges`: the header shows an agent's activity and sandbox badges.
 */
export function isCompactHeader(widthPx: number, agentBadges = false): boolean {
  return widthPx > 0 && widthPx < (agentBadges ? COMPACT_AGENT_HEADER_PX : COMPACT_HEADER_PX);
}

/**
 * Smallest size (px) a subtree can take along `axis` (`row` = width, `column` = height) without
 * any of its cells going below MIN_CELL_WIDTH_PX × MIN_CELL_HEIGHT_PX: children of a split along
 * the axis add up (plus splitters), across it the largest wins; grid tracks take their largest
 * cell share and add up (plus gaps).
 */
export function minExtent(node: LayoutNode, axis: 'row' | 'column'): number {
  switch (node.type) {
    case 'leaf':
      return axis === 'row' ? MIN_CELL_WIDTH_PX : MIN_CELL_HEIGHT_PX;
    case 'split': {
      const sizes = node.node.children.map((c) => minExtent(c.node, axis));
      if (sizes.length === 0) return 0;
      if (node.node.direction !== axis) return Math.max(...sizes);
      return sizes.reduce((sum, px) => sum + px, 0) + SPLITTER_PX * (sizes.length - 1);
    }
    case 'grid': {
      const tracks = trackMins(node.node, axis);
      return tracks.reduce((sum, px) => sum + px, 0) + GRID_GAP_PX * Math.max(0, tracks.length - 1);
    }
  }
}

/**
 * Smallest size (px) of each column (`axis` = `row`) or row (`column`) of a grid: a cell's
 * minimum shared evenly by the tracks it spans, the largest share per track.
 */
export function trackMins(grid: GridNode, axis: 'row' | 'column'): number[] {
  const tracks = (axis === 'row' ? grid.colWeights : grid.rowWeights).map(() => 0);
  for (const cell of grid.cells) {
    const start = axis === 'row' ? cell.col : cell.row;
    const span = Math.max(1, (axis === 'row' ? cell.colSpan : cell.rowSpan) || 1);
    const share = minExtent(cell.node, axis) / span;
    for (let t = start; t < start + span && t < tracks.length; t++) tracks[t] = Math.max(tracks[t], share);
  }
  return tracks;
}

/** Start and end (px) of each track of these `weights` over `totalPx`, with gaps between. */
export function trackSpans(weights: readonly number[], totalPx: number, gapPx = GRID_GAP_PX): [number, number][] {
  const inner = Math.max(0, totalPx - gapPx * Math.max(0, weights.length - 1));
  const pct = toPercentages(weights);
  const out: [number, number][] = [];
  let at = 0;
  for (let k = 0; k < weights.length; k++) {
    const size = (pct[k] / 100) * inner;
    out.push([at, at + size]);
    at += size + gapPx;
  }
  return out;
}

/** A drag handle on the boundary after track `index`: at `at` px, from `from` to `to` px across. */
export interface TrackHandle {
  index: number;
  at: number;
  from: number;
  to: number;
}

/**
 * The handles between the columns (`axis` = `row`) or rows (`column`) of a grid `widthPx` ×
 * `heightPx` with these track weights: one piece per run of tracks across where the boundary is
 * a real gap, so no handle lies over a merged cell that spans the boundary.
 */
export function trackHandles(
  grid: GridNode,
  axis: 'row' | 'column',
  cols: readonly number[],
  rows: readonly number[],
  widthPx: number,
  heightPx: number,
): TrackHandle[] {
  if (widthPx <= 0 || heightPx <= 0) return [];
  const along = axis === 'row' ? trackSpans(cols, widthPx) : trackSpans(rows, heightPx);
  const across = axis === 'row' ? trackSpans(rows, heightPx) : trackSpans(cols, widthPx);
  const out: TrackHandle[] = [];
  for (let k = 0; k < along.length - 1; k++) {
    const at = (along[k][1] + along[k + 1][0]) / 2;
    let run: [number, number] | null = null;
    for (let t = 0; t < across.length; t++) {
      const crossed = grid.cells.some((c) => {
        const [start, span, other, otherSpan] = axis === 'row' ? [c.col, c.colSpan, c.row, c.rowSpan] : [c.row, c.rowSpan, c.col, c.colSpan];
        return start <= k && start + span - 1 > k && other <= t && other + otherSpan > t;
      });
      if (crossed) {
        if (run) out.push({ index: k, at, from: run[0], to: run[1] });
        run = null;
      } else {
        run = run ? [run[0], across[t][1]] : [across[t][0], across[t][1]];
      }
    }
    if (run) out.push({ index: k, at, from: run[0], to: run[1] });
  }
  return out;
}

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
 * splitters. Only the two neighbours change; their sum is kept, and each stays ≥ its minimum:
 * `minPx` for all children, or one entry per child (see `minExtent`). When the two together are
 * smaller than their minimums, the pair is shared in proportion to them.
 */
export function resizeWeights(
  weights: readonly number[],
  index: number,
  deltaPx: number,
  totalPx: number,
  minPx: number | readonly number[] = MIN_PANE_PX,
): number[] {
  if (index < 0 || index + 1 >= weights.length || totalPx <= 0) return [...weights];
  const pct = toPercentages(weights);
  const sizes = pct.map((p) => (p / 100) * totalPx);
  const pair = sizes[index] + sizes[index + 1];
  const minOf = (i: number) => Math.max(0, typeof minPx === 'number' ? minPx : (minPx[i] ?? MIN_PANE_PX));
  let [floorBefore, floorAfter] = [minOf(index), minOf(index + 1)];
  if (floorBefore + floorAfter > pair) {
    const scale = pair / (floorBefore + floorAfter || 1);
    [floorBefore, floorAfter] = [floorBefore * scale, floorAfter * scale];
  }
  const before = Math.min(Math.max(sizes[index] + deltaPx, floorBefore), pair - floorAfter);
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
