import { describe, expect, it } from 'vitest';
import { unseenPart } from './attach-merge';
import { KeystrokeSequence, KeystrokeSequences } from './keystroke-sequence';

describe('KeystrokeSequence', () => {
  it('numbers writes from 0 in order', () => {
    const seq = new KeystrokeSequence();
    expect([seq.next(), seq.next(), seq.next()]).toEqual([0, 1, 2]);
    expect(seq.issued).toBe(3);
  });

  it('keeps one counter per session across lookups', () => {
    const all = new KeystrokeSequences();
    all.for('a').next();
    expect(all.for('a').next()).toBe(1);
    expect(all.for('b').next()).toBe(0);
    all.forget('a');
    expect(all.for('a').next()).toBe(0);
  });
});

describe('unseenPart', () => {
  it('drops a chunk entirely inside the repainted scrollback', () => {
    expect(unseenPart('world', 10, 20)).toBe('');
  });

  it('keeps the part of a chunk that comes after the scrollback', () => {
    expect(unseenPart('12345678 tail', 100, 108)).toBe(' tail');
  });

  it('keeps a chunk that starts at or after the scrollback end', () => {
    expect(unseenPart('$ ', 50, 50)).toBe('$ ');
    expect(unseenPart('next', 60, 50)).toBe('next');
  });

  it('keeps everything when the backend sent no offset', () => {
    expect(unseenPart('abc', undefined, 99)).toBe('abc');
  });
});
