import { describe, expect, it } from 'vitest';
import { chordOf, formatChord, parseChord, sameChord } from './keychord';
import { fuzzyFilter, fuzzyScore } from './fuzzy';

describe('keychord', () => {
  it('parses modifiers and keys into KeyboardEvent codes', () => {
    expect(parseChord('Ctrl+Shift+P')).toEqual({ ctrl: true, shift: true, alt: false, meta: false, code: 'KeyP' });
    expect(parseChord('alt+Left').code).toBe('ArrowLeft');
    expect(parseChord('Ctrl+=').code).toBe('Equal');
    expect(parseChord('Ctrl++').code).toBe('Equal');
    expect(parseChord('Ctrl+-').code).toBe('Minus');
    expect(parseChord('Ctrl+0').code).toBe('Digit0');
    expect(parseChord('Ctrl+PgDn').code).toBe('PageDown');
    expect(() => parseChord('Hyper+X')).toThrow(/unknown modifier/);
  });

  it('matches events by code and formats for people', () => {
    const event = { ctrlKey: true, shiftKey: true, altKey: false, metaKey: false, code: 'KeyF' };
    expect(sameChord(chordOf(event), parseChord('Ctrl+Shift+F'))).toBe(true);
    expect(sameChord(chordOf({ ...event, altKey: true }), parseChord('Ctrl+Shift+F'))).toBe(false);
    expect(formatChord(parseChord('ctrl+alt+shift+z'))).toBe('Ctrl+Alt+Shift+Z');
    expect(formatChord(parseChord('Alt+Up'))).toBe('Alt+↑');
    expect(formatChord(parseChord('Ctrl+='))).toBe('Ctrl+=');
  });
});

describe('fuzzy', () => {
  it('needs every query character in order, case-insensitively', () => {
    expect(fuzzyScore('spr', 'Split right')).not.toBeNull();
    expect(fuzzyScore('xyz', 'Split right')).toBeNull();
    expect(fuzzyScore('', 'anything')).toBe(0);
  });

  it('ranks consecutive runs and word starts first', () => {
    const labels = ['Stop process', 'Split right', 'Show sessions'];
    expect(fuzzyFilter('spl', labels, (l) => l)[0]).toBe('Split right');
    expect(fuzzyFilter('sess', labels, (l) => l)[0]).toBe('Show sessions');
    expect(fuzzyFilter('sessz', labels, (l) => l)).toEqual([]);
    expect(fuzzyFilter('  ', labels, (l) => l)).toEqual(labels);
  });
});
