import { describe, expect, it } from 'vitest';
import { neighbourCell, type CellBox } from './cell-neighbours';

// a | b
// --+--
//   c
const boxes: CellBox[] = [
  { id: 'a', left: 0, top: 0, right: 100, bottom: 50 },
  { id: 'b', left: 104, top: 0, right: 200, bottom: 50 },
  { id: 'c', left: 0, top: 54, right: 200, bottom: 100 },
];

describe('neighbourCell', () => {
  it('moves to the cell on that side, overlapping across the direction', () => {
    expect(neighbourCell(boxes, 'a', 'right')).toBe('b');
    expect(neighbourCell(boxes, 'b', 'left')).toBe('a');
    expect(neighbourCell(boxes, 'a', 'down')).toBe('c');
    expect(neighbourCell(boxes, 'b', 'down')).toBe('c');
    expect(neighbourCell(boxes, 'c', 'up')).not.toBeNull();
  });

  it('stays put at an edge', () => {
    expect(neighbourCell(boxes, 'a', 'left')).toBeNull();
    expect(neighbourCell(boxes, 'c', 'down')).toBeNull();
    expect(neighbourCell(boxes, 'b', 'up')).toBeNull();
  });
});
