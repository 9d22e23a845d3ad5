/**
 * Pure rules of a splitter between two panes or grid tracks, shared by the row/column splits and
 * the grid (`features/layout/Splitter.svelte`): which key moves it how far, what "share
 * equally" gives when some panes cannot shrink that much, and the ARIA value of its position.
 * Sizes are px along the splitter's axis; weights are the layout's relative floats > 0.
 */

import { resizeWeights, toPercentages } from './layout-geometry';

/** An arrow key moves a focused splitter by this much, in px; with Shift, `BIG_STEP_FACTOR` ×. */
export const KEY_STEP_PX = 16;
export const BIG_STEP_FACTOR = 5;

/** What a key asks of a focused splitter: move it by `deltaPx` (towards the end when > 0), or share equally. */
export type SplitterKeyAction = { kind: 'move'; deltaPx: number } | { kind: 'reset' };

type KeyLike = Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'altKey' | 'metaKey'>;

/**
 * The action of `event` on a splitter that resizes along x (`horizontal`: ←/→) or y (↑/↓),
 * `totalPx` being the room of the panes it shares. Home / End move it as far as the minimums
 * allow (a delta of the whole room, clamped by `resizeWeights`), Enter shares equally. `null`:
 * the key is not the splitter's (with Ctrl, Alt or Meta it never is: those are the app's chords).
 */
export function splitterKeyAction(event: KeyLike, horizontal: boolean, totalPx: number): SplitterKeyAction | null {
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  if (event.key === 'Enter') return { kind: 'reset' };
  const step = KEY_STEP_PX * (event.shiftKey ? BIG_STEP_FACTOR : 1);
  const back = horizontal ? 'ArrowLeft' : 'ArrowUp';
  const forth = horizontal ? 'ArrowRight' : 'ArrowDown';
  const room = Math.max(totalPx, 1);
  const deltas: Record<string, number> = { [back]: -step, [forth]: step, Home: -room, End: room };
  return event.key in deltas ? { kind: 'move', deltaPx: deltas[event.key] } : null;
}

/**
 * Weights that share `totalPx` equally between `mins.length` panes, except that a pane whose
 * minimum (`mins`, px) is above the equal share keeps its minimum and the others share the rest
 * equally. All equal gives `[1, 1, …]`; when the minimums together exceed the room, the panes
 * get it in proportion to them. The weights add up to the number of panes.
 */
export function equalWeights(mins: readonly number[], totalPx: number): number[] {
  const n = mins.length;
  if (n === 0) return [];
  if (!(totalPx > 0)) return mins.map(() => 1);
  const floor = mins.map((m) => (Number.isFinite(m) && m > 0 ? m : 0));
  const held = new Set<number>();
  for (;;) {
    const free = floor.map((_, i) => i).filter((i) => !held.has(i));
    if (free.length === 0) break;
    const rest = totalPx - [...held].reduce((sum, i) => sum + floor[i], 0);
    const share = rest / free.length;
    const over = free.filter((i) => floor[i] > share);
    if (over.length === 0) {
      const sizes = floor.map((m, i) => (held.has(i) ? m : share));
      if (held.size === 0) return mins.map(() => 1);
      return sizes.map((px) => round((px / totalPx) * n));
    }
    over.forEach((i) => held.add(i));
  }
  const sum = floor.reduce((a, b) => a + b, 0) || n;
  return floor.map((m) => round(((m || sum / n) / sum) * n));
}

/** The splitter after pane `index`: where it is and how far it can go, as % of the pair's room. */
export interface SplitterValue {
  now: number;
  min: number;
  max: number;
}

/**
 * `aria-valuenow` / `-valuemin` / `-valuemax` of the splitter between panes `index` and
 * `index + 1`: the first pane's share of the two, in whole percent; the range is what the
 * minimums (`mins`, px, over `totalPx`) allow (0–100 while the room is unknown).
 */
export function splitterValue(weights: readonly number[], index: number, totalPx: number, mins: readonly number[]): SplitterValue {
  const pct = toPercentages(weights);
  const pair = (pct[index] ?? 0) + (pct[index + 1] ?? 0);
  const share = (w: readonly number[]) => {
    const p = toPercentages(w);
    const both = (p[index] ?? 0) + (p[index + 1] ?? 0);
    return both > 0 ? Math.round(((p[index] ?? 0) / both) * 100) : 50;
  };
  const now = pair > 0 ? share(weights) : 50;
  if (!(totalPx > 0)) return { now, min: 0, max: 100 };
  const lowest = share(resizeWeights(weights, index, -totalPx, totalPx, mins));
  const highest = share(resizeWeights(weights, index, totalPx, totalPx, mins));
  return { now, min: Math.min(lowest, now), max: Math.max(highest, now) };
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}
