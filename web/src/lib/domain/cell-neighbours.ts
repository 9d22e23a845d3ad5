/** A cell's box on screen (CSS pixels), as `getBoundingClientRect` gives it. */
export interface CellBox {
  id: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export type Direction = 'left' | 'right' | 'up' | 'down';

/**
 * The cell `Alt+Arrow` moves to from `fromId`: among the cells wholly on that side, the one
 * whose span across the direction overlaps most, then the nearest; `null` at the edge.
 */
export function neighbourCell(boxes: readonly CellBox[], fromId: string, direction: Direction): string | null {
  const from = boxes.find((b) => b.id === fromId);
  if (!from) return boxes[0]?.id ?? null;
  const horizontal = direction === 'left' || direction === 'right';
  const slack = 2; // splitters and borders: a neighbour may start a pixel or two early
  const candidates = boxes.filter((b) => {
    if (b.id === fromId) return false;
    switch (direction) {
      case 'left':
        return b.right <= from.left + slack;
      case 'right':
        return b.left >= from.right - slack;
      case 'up':
        return b.bottom <= from.top + slack;
      case 'down':
        return b.top >= from.bottom - slack;
    }
  });
  const overlap = (b: CellBox) =>
    horizontal ? Math.min(b.bottom, from.bottom) - Math.max(b.top, from.top) : Math.min(b.right, from.right) - Math.max(b.left, from.left);
  const distance = (b: CellBox) => {
    switch (direction) {
      case 'left':
        return from.left - b.right;
      case 'right':
        return b.left - from.right;
      case 'up':
        return from.top - b.bottom;
      case 'down':
        return b.top - from.bottom;
    }
  };
  const best = candidates
    .filter((b) => overlap(b) > 0)
    .sort((a, b) => distance(a) - distance(b) || overlap(b) - overlap(a))[0];
  return best?.id ?? null;
}
