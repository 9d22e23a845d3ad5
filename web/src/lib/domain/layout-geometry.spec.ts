import { describe, expect, it } from 'vitest';
import { estimateGrid, flexFor, gridArea, gridTemplate, resizeWeights, toPercentages } from './layout-geometry';

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

  it('returns a copy when the splitter index is out of range', () => {
    expect(resizeWeights([1, 2], 3, 10, 100)).toEqual([1, 2]);
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
