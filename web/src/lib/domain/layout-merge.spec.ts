import { describe, expect, it } from 'vitest';
import type { GridCell, LayoutNode } from '../ports';
import { mergeChoices, mergeLabel, mergedCell, parentOf } from './layout-merge';

const leaf = (id: string): LayoutNode => ({ type: 'leaf', node: { id } });
const cell = (id: string, row: number, col: number, rowSpan = 1, colSpan = 1): GridCell => ({ node: leaf(id), row, col, rowSpan, colSpan });
const grid = (cols: number, rows: number, cells: GridCell[]): LayoutNode => ({
  type: 'grid',
  node: { id: 'g', colWeights: Array.from({ length: cols }, () => 1), rowWeights: Array.from({ length: rows }, () => 1), cells },
});

describe('mergeChoices', () => {
  it('offers each neighbour of a 2×2 grid cell', () => {
    const g = grid(2, 2, [cell('a', 0, 0), cell('b', 0, 1), cell('c', 1, 0), cell('d', 1, 1)]);
    expect(mergeChoices(g, 'a')).toEqual([
      { side: 'right', nodeIds: ['a', 'b'] },
      { side: 'below', nodeIds: ['a', 'c'] },
    ]);
    expect(mergeChoices(g, 'd')).toEqual([
      { side: 'left', nodeIds: ['d', 'c'] },
      { side: 'above', nodeIds: ['d', 'b'] },
    ]);
  });

  it('takes every cell along a spanning side, and refuses what is not a rectangle', () => {
    // a spans both rows on the left; b, c stacked on the right.
    const g = grid(2, 2, [cell('a', 0, 0, 2, 1), cell('b', 0, 1), cell('c', 1, 1)]);
    expect(mergeChoices(g, 'a')).toEqual([{ side: 'right', nodeIds: ['a', 'b', 'c'] }]);
    // b's left neighbour a is taller than b: merging them would not be a rectangle.
    expect(mergeChoices(g, 'b')).toEqual([{ side: 'below', nodeIds: ['b', 'c'] }]);
  });

  it('offers the siblings of a split by its direction', () => {
    const row: LayoutNode = { type: 'split', node: { id: 's', direction: 'row', children: [{ node: leaf('a'), weight: 1 }, { node: leaf('b'), weight: 1 }, { node: leaf('c'), weight: 1 }] } };
    expect(mergeChoices(row, 'b')).toEqual([
      { side: 'right', nodeIds: ['b', 'c'] },
      { side: 'left', nodeIds: ['b', 'a'] },
    ]);
    const column: LayoutNode = { type: 'split', node: { id: 's', direction: 'column', children: [{ node: leaf('a'), weight: 1 }, { node: row, weight: 1 }] } };
    expect(mergeChoices(column, 'a')).toEqual([]); // below is a split, not a cell
    expect(mergeChoices(leaf('a'), 'a')).toEqual([]);
  });

  it('finds merged cells and parents', () => {
    const g = grid(2, 2, [cell('a', 0, 0, 2, 1), cell('b', 0, 1), cell('c', 1, 1)]);
    expect(mergedCell(g, 'a')?.rowSpan).toBe(2);
    expect(mergedCell(g, 'b')).toBeNull();
    expect(parentOf(g, 'c')?.node.id).toBe('g');
    expect(parentOf(g, 'zz')).toBeNull();
    expect(mergeLabel('right')).toBe('Merge with the cell on the right');
    expect(mergeLabel('below')).toBe('Merge with the cell below');
  });
});
