import type { GridCell, GridNode, LayoutNode, SplitNode } from '../ports';

/** A side of a cell another cell can be merged from. */
export type MergeSide = 'left' | 'right' | 'above' | 'below';

/** One "Merge with the cell on the right" choice: the `merge` op's `nodeIds` (this cell first). */
export interface MergeChoice {
  side: MergeSide;
  nodeIds: string[];
}

const SIDES: MergeSide[] = ['right', 'below', 'left', 'above'];

type Parent = { type: 'split'; node: SplitNode } | { type: 'grid'; node: GridNode };

/** The split or grid whose direct child is the leaf `leafId` (null for the root or unknown). */
export function parentOf(root: LayoutNode | null, leafId: string): Parent | null {
  if (!root || root.type === 'leaf') return null;
  const kids = root.type === 'split' ? root.node.children.map((c) => c.node) : root.node.cells.map((c) => c.node);
  if (kids.some((k) => k.type === 'leaf' && k.node.id === leafId)) return root;
  for (const kid of kids) {
    const found = parentOf(kid, leafId);
    if (found) return found;
  }
  return null;
}

function cellOf(grid: GridNode, leafId: string): GridCell | undefined {
  return grid.cells.find((c) => c.node.type === 'leaf' && c.node.node.id === leafId);
}

/** The grid cell holding `leafId` when it spans several tracks (what "Unmerge" splits back). */
export function mergedCell(root: LayoutNode | null, leafId: string): GridCell | null {
  const parent = parentOf(root, leafId);
  if (parent?.type !== 'grid') return null;
  const cell = cellOf(parent.node, leafId);
  return cell && (cell.rowSpan > 1 || cell.colSpan > 1) ? cell : null;
}

function gridNeighbours(grid: GridNode, cell: GridCell, side: MergeSide): GridCell[] | null {
  const rowEnd = cell.row + cell.rowSpan;
  const colEnd = cell.col + cell.colSpan;
  const horizontal = side === 'left' || side === 'right';
  const touching = grid.cells.filter((c) => {
    if (side === 'right') return c.col === colEnd;
    if (side === 'left') return c.col + c.colSpan === cell.col;
    if (side === 'below') return c.row === rowEnd;
    return c.row + c.rowSpan === cell.row;
  });
  // The neighbours along this side: those overlapping the cell's rows (or columns).
  const along = touching.filter((c) =>
    horizontal ? c.row < rowEnd && c.row + c.rowSpan > cell.row : c.col < colEnd && c.col + c.colSpan > cell.col,
  );
  if (along.length === 0 || along.some((c) => c.node.type !== 'leaf')) return null;
  // Together they must exactly cover the side and share their far edge: a rectangle.
  const starts = along.map((c) => (horizontal ? c.row : c.col));
  const ends = along.map((c) => (horizontal ? c.row + c.rowSpan : c.col + c.colSpan));
  const lo = horizontal ? cell.row : cell.col;
  const hi = horizontal ? rowEnd : colEnd;
  if (Math.min(...starts) !== lo || Math.max(...ends) !== hi) return null;
  const covered = along.reduce((n, c) => n + (horizontal ? c.rowSpan : c.colSpan), 0);
  if (covered !== hi - lo) return null;
  const far = along.map((c) =>
    side === 'right' ? c.col + c.colSpan : side === 'left' ? c.col : side === 'below' ? c.row + c.rowSpan : c.row,
  );
  return far.every((f) => f === far[0]) ? along : null;
}

/**
 * The cells the leaf `leafId` can be merged with, one choice per side: in a grid the neighbours
 * along that side when together they make a rectangle with it; in a split the next/previous
 * sibling when it is a cell (a `row` split has left/right, a `column` split above/below).
 */
export function mergeChoices(root: LayoutNode | null, leafId: string): MergeChoice[] {
  const parent = parentOf(root, leafId);
  if (!parent) return [];
  if (parent.type === 'split') {
    const kids = parent.node.children.map((c) => c.node);
    const at = kids.findIndex((k) => k.type === 'leaf' && k.node.id === leafId);
    const [before, after]: MergeSide[] = parent.node.direction === 'row' ? ['left', 'right'] : ['above', 'below'];
    const out: MergeChoice[] = [];
    const next = kids[at + 1];
    const prev = kids[at - 1];
    if (next?.type === 'leaf') out.push({ side: after, nodeIds: [leafId, next.node.id] });
    if (prev?.type === 'leaf') out.push({ side: before, nodeIds: [leafId, prev.node.id] });
    return out.sort((a, b) => SIDES.indexOf(a.side) - SIDES.indexOf(b.side));
  }
  const cell = cellOf(parent.node, leafId);
  if (!cell) return [];
  return SIDES.flatMap((side) => {
    const along = gridNeighbours(parent.node, cell, side);
    if (!along) return [];
    const ids = along.map((c) => (c.node.type === 'leaf' ? c.node.node.id : ''));
    return [{ side, nodeIds: [leafId, ...ids] }];
  });
}

/** Menu label of a merge choice. */
export function mergeLabel(side: MergeSide): string {
  return side === 'above' || side === 'below' ? `Merge with the cell ${side}` : `Merge with the cell on the ${side}`;
}
