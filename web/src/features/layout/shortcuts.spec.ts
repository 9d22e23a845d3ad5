import { describe, expect, it } from 'vitest';
import { layoutCommand } from './shortcuts';

const key = (code: string, mods: Partial<KeyboardEventInit> = {}) =>
  new KeyboardEvent('keydown', { code, ctrlKey: true, ...mods });

describe('layoutCommand', () => {
  it('maps split and close shortcuts', () => {
    expect(layoutCommand(key('KeyD', { shiftKey: true }), true)).toBe('split-row');
    expect(layoutCommand(key('KeyE', { shiftKey: true }), false)).toBe('split-column');
    expect(layoutCommand(key('KeyW', { shiftKey: true }), true)).toBe('close');
  });

  it('leaves Ctrl+Z to the terminal and to text fields', () => {
    expect(layoutCommand(key('KeyZ'), true)).toBeNull();
    expect(layoutCommand(key('KeyZ'), false, true)).toBeNull();
    expect(layoutCommand(key('KeyZ'), false)).toBe('undo');
    expect(layoutCommand(key('KeyZ', { shiftKey: true }), false)).toBe('redo');
  });

  it('always accepts Ctrl+Alt+Z for undo/redo', () => {
    expect(layoutCommand(key('KeyZ', { altKey: true }), true)).toBe('undo');
    expect(layoutCommand(key('KeyZ', { altKey: true, shiftKey: true }), true)).toBe('redo');
  });

  it('ignores keys without Ctrl', () => {
    expect(layoutCommand(new KeyboardEvent('keydown', { code: 'KeyD', shiftKey: true }), false)).toBeNull();
  });
});
