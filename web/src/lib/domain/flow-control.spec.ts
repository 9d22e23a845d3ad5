import { describe, expect, it } from 'vitest';
import { AckCounter } from './ack-counter';
import { unseenAfterScrollback } from './attach-merge';
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

describe('AckCounter', () => {
  it('acknowledges once the threshold is reached, with everything consumed so far', () => {
    const acks = new AckCounter(5000);
    expect(acks.consumed(3000)).toBe(0);
    expect(acks.consumed(2500)).toBe(5500);
    expect(acks.pending).toBe(0);
  });

  it('flushes what is pending', () => {
    const acks = new AckCounter(5000);
    acks.consumed(10);
    expect(acks.flush()).toBe(10);
    expect(acks.flush()).toBe(0);
  });
});

describe('unseenAfterScrollback', () => {
  it('drops pushed output that the scrollback already ends with', () => {
    expect(unseenAfterScrollback('hello\r\nworld output', 'world output')).toBe('');
  });

  it('keeps the part that came after the scrollback', () => {
    expect(unseenAfterScrollback('abc 12345678', '12345678 tail')).toBe(' tail');
  });

  it('does not drop short coincidental overlaps', () => {
    expect(unseenAfterScrollback('$ \r\n', '\r\n$ ')).toBe('\r\n$ ');
  });
});
