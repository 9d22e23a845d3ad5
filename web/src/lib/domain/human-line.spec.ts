import { describe, expect, it } from 'vitest';
import { HumanLine } from './human-line';

function lineAfter(...chunks: string[]): number {
  const line = new HumanLine();
  for (const chunk of chunks) line.feed(chunk);
  return line.length;
}

describe('HumanLine', () => {
  it('counts printable characters, one per code point', () => {
    expect(lineAfter('a')).toBe(1);
    expect(lineAfter('l', 's', ' ', '-')).toBe(4);
    expect(lineAfter('é', '日本', '😀')).toBe(4);
  });

  it('takes one off per DEL or backspace, never below zero', () => {
    expect(lineAfter('abc', '\x7f')).toBe(2);
    expect(lineAfter('ab', '\b')).toBe(1);
    expect(lineAfter('a', '\x7f', '\x7f', '\x7f')).toBe(0);
    expect(lineAfter('\x7f', 'x')).toBe(1);
  });

  it('starts a new line on Enter, newline, Ctrl-C and Ctrl-U', () => {
    for (const reset of ['\r', '\n', '\x03', '\x15']) expect(lineAfter('abc', reset)).toBe(0);
    expect(lineAfter('abc\rde')).toBe(2);
  });

  it('ignores arrows, function keys, Alt+key, focus and mouse reports', () => {
    const sequences = ['\x1b[A', '\x1b[1;5D', '\x1bOP', '\x1b[15~', '\x1bb', '\x1b', '\x1b[I', '\x1b[<0;12;5M', '\x1b[M !!'];
    for (const seq of sequences) expect(lineAfter(seq), JSON.stringify(seq)).toBe(0);
    expect(lineAfter('ab', '\x1b[D', '\x1b[C')).toBe(2);
  });

  it('does not reset on an escape sequence either', () => {
    expect(lineAfter('abc', '\x1b[A', '\x1b[B')).toBe(3);
  });

  it('follows an escape sequence split across chunks', () => {
    expect(lineAfter('\x1b', '[', '1;5', 'A')).toBe(0);
    expect(lineAfter('\x1b]0;title', '\x07', 'x')).toBe(1);
    expect(lineAfter('\x1b]0;t\x1b', '\\', 'xy')).toBe(2);
  });

  it('ignores other control characters', () => {
    expect(lineAfter('\t', '\x17', '\x01', '\x00')).toBe(0);
  });

  it('counts pasted text, ignoring the bracketed-paste markers and keeping a multi-line paste', () => {
    expect(lineAfter('hello world')).toBe(11);
    expect(lineAfter('\x1b[200~abc\x1b[201~')).toBe(3);
    expect(lineAfter('\x1b[200~one\rtwo\x1b[201~')).toBe(6);
    expect(lineAfter('\x1b[200~one\rtwo\x1b[201~', '\r')).toBe(0);
  });

  it('is empty again after reset', () => {
    const line = new HumanLine();
    line.feed('abc');
    expect(line.empty).toBe(false);
    line.reset();
    expect(line.empty).toBe(true);
  });
});
