import { describe, expect, it } from 'vitest';
import { BIG_STEP_FACTOR, KEY_STEP_PX, equalWeights, splitterKeyAction, splitterValue } from './splitter';

const key = (k: string, mods: Partial<Pick<KeyboardEvent, 'shiftKey' | 'ctrlKey' | 'altKey' | 'metaKey'>> = {}) => ({
  key: k,
  shiftKey: false,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  ...mods,
});

describe('splitterKeyAction', () => {
  it('moves a splitter between columns with ←/→ and one between rows with ↑/↓', () => {
    expect(splitterKeyAction(key('ArrowRight'), true, 1000)).toEqual({ kind: 'move', deltaPx: KEY_STEP_PX });
    expect(splitterKeyAction(key('ArrowLeft'), true, 1000)).toEqual({ kind: 'move', deltaPx: -KEY_STEP_PX });
    expect(splitterKeyAction(key('ArrowDown'), false, 1000)).toEqual({ kind: 'move', deltaPx: KEY_STEP_PX });
    expect(splitterKeyAction(key('ArrowUp'), true, 1000)).toBeNull();
    expect(splitterKeyAction(key('ArrowLeft'), false, 1000)).toBeNull();
  });

  it('takes a bigger step with Shift, goes to the limits with Home/End, shares equally with Enter', () => {
    expect(splitterKeyAction(key('ArrowRight', { shiftKey: true }), true, 1000)).toEqual({ kind: 'move', deltaPx: KEY_STEP_PX * BIG_STEP_FACTOR });
    expect(splitterKeyAction(key('Home'), true, 800)).toEqual({ kind: 'move', deltaPx: -800 });
    expect(splitterKeyAction(key('End'), false, 800)).toEqual({ kind: 'move', deltaPx: 800 });
    expect(splitterKeyAction(key('Enter'), true, 800)).toEqual({ kind: 'reset' });
  });

  it('leaves chords with Ctrl, Alt or Meta to the app (Alt+Arrows move between cells)', () => {
    expect(splitterKeyAction(key('ArrowRight', { altKey: true }), true, 1000)).toBeNull();
    expect(splitterKeyAction(key('Enter', { ctrlKey: true, shiftKey: true }), true, 1000)).toBeNull();
    expect(splitterKeyAction(key('a'), true, 1000)).toBeNull();
  });
});

describe('equalWeights', () => {
  it('gives every pane the same weight when the room allows it', () => {
    expect(equalWeights([120, 120, 120], 1000)).toEqual([1, 1, 1]);
    expect(equalWeights([120, 120], 0)).toEqual([1, 1]);
    expect(equalWeights([], 500)).toEqual([]);
  });

  it('keeps a pane that cannot shrink to the equal share at its minimum, the others share the rest', () => {
    // 700 px for three: 233 each, but the first needs 364 (three cells side by side).
    const w = equalWeights([364, 120, 120], 700);
    expect(w[0]).toBeCloseTo((364 / 700) * 3, 3);
    expect(w[1]).toBeCloseTo((168 / 700) * 3, 3);
    expect(w[1]).toBe(w[2]);
    expect(w.reduce((a, b) => a + b, 0)).toBeCloseTo(3, 3);
  });

  it('shares in proportion to the minimums when they exceed the room', () => {
    const w = equalWeights([300, 100], 200);
    expect(w[0]).toBeCloseTo(1.5);
    expect(w[1]).toBeCloseTo(0.5);
  });
});

describe('splitterValue', () => {
  it('is the first pane’s share of the pair, in %, within what the minimums allow', () => {
    expect(splitterValue([1, 1], 0, 1000, [120, 120])).toEqual({ now: 50, min: 12, max: 88 });
    expect(splitterValue([1, 3, 1], 1, 1000, [120, 120, 120])).toMatchObject({ now: 75 });
  });

  it('spans 0–100 while the room is not measured', () => {
    expect(splitterValue([2, 1], 0, 0, [])).toEqual({ now: 67, min: 0, max: 100 });
  });
});
