import { describe, expect, it } from 'vitest';
import type { LayoutNode } from '../ports';
import {
  MIN_CELL_HEIGHT_PX,
  MIN_CELL_WIDTH_PX,
  estimateGrid,
  flexFor,
  gridArea,
  gridTemplate,
  isCompactHeader,
  minExtent,
  resizeWeights,
  trackHandles,
  trackMins,
  trackSpans,
  toPercentages,
} from './layout-geometry';

const leaf = (id: string): LayoutNode => ({ type: 'leaf', node: { id } });
const split = (direction: 'row' | 'column', ...children: LayoutNode[]): LayoutNode => ({
  type: 'split',
  node: { id: `s-${direction}`, direction, children: children.map((node) => ({ node, weight: 1 })) },
});

describe('toPercentages', () => {
  it('turns relative weights into percentages summing to 100', () => {
    expect(toPercentages([1, 1])).toEqual([50, 50]);
    expect(toPercentages([1, 3])).toEqual([25, 75]);
  });

  it('treats invalid weights as 1', () => {
    expect(toPercentages([0, Number.NaN, 2])).toEqual([25, 25, 50]);
  });
});

describe('flexFor', () => {
  it('gives a flex shorthand with the percentage as grow and shrink', () => {
    expect(flexFor([1, 3], 1)).toBe('75 75 0px');
  });
});

describe('resizeWeights', () => {
  it('moves size between the two neighbours of the splitter and keeps the total', () => {
    const next = resizeWeights([1, 1], 0, 100, 1000);
    expect(next[0]).toBeCloseTo(1.2);
    expect(next[1]).toBeCloseTo(0.8);
  });

  it('leaves other children alone', () => {
    const next = resizeWeights([1, 1, 2], 1, -100, 1000);
    expect(next[0]).toBeCloseTo(1);
    expect(next[1]).toBeCloseTo(0.6);
    expect(next[2]).toBeCloseTo(2.4);
  });

  it('clamps each neighbour to the minimum size', () => {
    const next = resizeWeights([1, 1], 0, 10_000, 1000, 50);
    expect(next[0]).toBeCloseTo(1.9);
    expect(next[1]).toBeCloseTo(0.1);
  });

  it('takes one minimum per child, so a nested split keeps all its cells ≥ 120 px', () => {
    // 1000 px: the second child is itself two cells side by side (≥ 2 × 120 + 4 px).
    const next = resizeWeights([1, 1], 0, 10_000, 1000, [120, 244]);
    expect(next[1]).toBeCloseTo(0.488);
    expect(next[0]).toBeCloseTo(1.512);
    const other = resizeWeights([1, 1], 0, -10_000, 1000, [120, 244]);
    expect(other[0]).toBeCloseTo(0.24);
  });

  it('shares a pair smaller than its minimums in proportion to them', () => {
    const next = resizeWeights([1, 1], 0, 50, 200, [120, 120]);
    expect(next).toEqual([1, 1]);
  });

  it('returns a copy when the splitter index is out of range', () => {
    expect(resizeWeights([1, 2], 3, 10, 100)).toEqual([1, 2]);
  });
});

describe('minExtent', () => {
  it('is the minimum cell size for a leaf', () => {
    expect(minExtent(leaf('a'), 'row')).toBe(MIN_CELL_WIDTH_PX);
    expect(minExtent(leaf('a'), 'column')).toBe(MIN_CELL_HEIGHT_PX);
  });

  it('adds children along the split (plus splitters) and takes the largest across it', () => {
    const tree = split('row', leaf('a'), split('column', leaf('b'), leaf('c')), leaf('d'));
    expect(minExtent(tree, 'row')).toBe(3 * 120 + 2 * 4);
    expect(minExtent(tree, 'column')).toBe(2 * 80 + 4);
  });

  it('adds grid tracks, a spanning cell shared by its tracks', () => {
    const grid: LayoutNode = {
      type: 'grid',
      node: {
        id: 'g',
        colWeights: [1, 1],
        rowWeights: [1, 1],
        cells: [
          { node: leaf('a'), row: 0, col: 0, rowSpan: 2, colSpan: 1 },
          { node: split('row', leaf('b'), leaf('c')), row: 0, col: 1, rowSpan: 1, colSpan: 1 },
          { node: leaf('d'), row: 1, col: 1, rowSpan: 1, colSpan: 1 },
        ],
      },
    };
    expect(minExtent(grid, 'row')).toBe(120 + 244 + 4);
    expect(minExtent(grid, 'column')).toBe(80 + 80 + 4);
  });
});

describe('isCompactHeader', () => {
  it('collapses the header tools of a narrow cell, not of an unmeasured one', () => {
    expect(isCompactHeader(120)).toBe(true);
    expect(isCompactHeader(400)).toBe(false);
    expect(isCompactHeader(0)).toBe(false);
  });
  it('collapses them sooner when the header also shows an agent\'s badges', () => {
    expect(isCompactHeader(246)).toBe(false);
    expect(isCompactHeader(246, true)).toBe(true);
    expect(isCompactHeader(400, true)).toBe(false);
  });
});

describe('grid helpers', () => {
  it('builds fr tracks from weights', () => {
    expect(gridTemplate([1, 1])).toBe('minmax(0, 50fr) minmax(0, 50fr)');
  });

  it('places a spanning cell with 1-based lines', () => {
    expect(gridArea({ row: 0, col: 1, rowSpan: 2, colSpan: 1 })).toBe('1 / 2 / span 2 / span 1');
  });
});

describe('estimateGrid', () => {
  it('fits whole characters and never goes below 20×5', () => {
    expect(estimateGrid(780, 170)).toEqual({ cols: 100, rows: 10 });
    expect(estimateGrid(0, 0)).toEqual({ cols: 20, rows: 5 });
  });
});

describe('grid track handles', () => {
  const leafAt = (id: string, row: number, col: number, rowSpan = 1, colSpan = 1) => ({ node: { type: 'leaf' as const, node: { id } }, row, col, rowSpan, colSpan });

  it('puts one handle per boundary in the middle of the gap', () => {
    expect(trackSpans([1, 1], 204)).toEqual([[0, 100], [104, 204]]);
    const g = { id: 'g', colWeights: [1, 1], rowWeights: [1, 1], cells: [leafAt('a', 0, 0), leafAt('b', 0, 1), leafAt('c', 1, 0), leafAt('d', 1, 1)] };
    expect(trackHandles(g, 'row', g.colWeights, g.rowWeights, 204, 104)).toEqual([{ index: 0, at: 102, from: 0, to: 104 }]);
    expect(trackHandles(g, 'column', g.colWeights, g.rowWeights, 204, 104)).toEqual([{ index: 0, at: 52, from: 0, to: 204 }]);
  });

  it('leaves out the part of a boundary a merged cell spans', () => {
    // top row merged across both columns: the column boundary only exists in the bottom row.
    const g = { id: 'g', colWeights: [1, 1], rowWeights: [1, 1], cells: [leafAt('a', 0, 0, 1, 2), leafAt('c', 1, 0), leafAt('d', 1, 1)] };
    expect(trackHandles(g, 'row', g.colWeights, g.rowWeights, 204, 104)).toEqual([{ index: 0, at: 102, from: 54, to: 104 }]);
    expect(trackMins(g, 'row')).toEqual([120, 120]);
    expect(trackHandles(g, 'row', g.colWeights, g.rowWeights, 0, 0)).toEqual([]);
  });
});
