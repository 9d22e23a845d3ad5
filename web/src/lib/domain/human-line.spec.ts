import { describe, expect, it } from 'vitest';
import { HumanLine } from './human-line';

function fed(...chunks: string[]): HumanLine {
  const line = new HumanLine();
  for (const chunk of chunks) line.feed(chunk);
  return line;
}

function lineAfter(...chunks: string[]): number {
  return fed(...chunks).length;
}

const emptyAfter = (...chunks: string[]) => fed(...chunks).empty;

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

  it('ignores cursor keys, function keys, Alt+key, Escape, focus and mouse reports', () => {
    const sequences = ['\x1b[D', '\x1b[1;5C', '\x1b[H', '\x1b[F', '\x1bOH', '\x1bOP', '\x1b[15~', '\x1bb', '\x1b', '\x1b[I', '\x1b[<0;12;5M', '\x1b[<0;12;5m', '\x1b[M !!'];
    for (const seq of sequences) expect(emptyAfter(seq), JSON.stringify(seq)).toBe(true);
    expect(lineAfter('ab', '\x1b[D', '\x1b[C', '\x1b[H', '\x1b[F')).toBe(2);
  });

  it('does not reset on an escape sequence either', () => {
    expect(lineAfter('abc', '\x1b[D', '\x1bOC')).toBe(3);
  });

  it('counts what is typed after the Escape key or an Alt+key', () => {
    expect(lineAfter('\x1b', 'x')).toBe(1);
    expect(lineAfter('\x1b\x1b', 'xy')).toBe(2);
    expect(lineAfter('\x1bP', 'ab')).toBe(2);
  });

  it('follows an escape sequence whose body is split across chunks', () => {
    expect(lineAfter('\x1b[', '1;5', 'A')).toBe(0);
    expect(lineAfter('\x1b]0;title', '\x07', 'x')).toBe(1);
    expect(lineAfter('\x1b]0;t\x1b', '\\', 'xy')).toBe(2);
  });

  it('ignores other control characters', () => {
    expect(emptyAfter('\x17', '\x01', '\x00', '\x0b', '\x04')).toBe(true);
  });

  it('counts pasted text, ignoring the bracketed-paste markers and keeping a multi-line paste', () => {
    expect(lineAfter('hello world')).toBe(11);
    expect(lineAfter('\x1b[200~abc\x1b[201~')).toBe(3);
    expect(lineAfter('\x1b[200~one\rtwo\x1b[201~')).toBe(6);
    expect(lineAfter('\x1b[200~one\rtwo\x1b[201~', '\r')).toBe(0);
  });

  it('counts a Tab inside a bracketed paste as text, not as completion', () => {
    const line = fed('\x1b[200~a\tb\x1b[201~');
    expect(line.length).toBe(3);
    expect(line.uncertain).toBe(false);
  });

  it('is empty again after reset', () => {
    const line = new HumanLine();
    line.feed('abc');
    expect(line.empty).toBe(false);
    line.reset();
    expect(line.empty).toBe(true);
  });
});

describe('HumanLine: an uncertain line (history, completion, yank)', () => {
  const uncertainKeys: Record<string, string> = {
    Up: '\x1b[A',
    Down: '\x1b[B',
    'Ctrl+Up': '\x1b[1;5A',
    'Up (application mode)': '\x1bOA',
    'Down (application mode)': '\x1bOB',
    Tab: '\t',
    'Ctrl-R': '\x12',
    'Ctrl-P': '\x10',
    'Ctrl-N': '\x0e',
    'Ctrl-Y': '\x19',
    'Ctrl-S': '\x13',
    'Ctrl-_': '\x1f',
    'Alt+Y': '\x1by',
    'Alt+.': '\x1b.',
    'Alt+_': '\x1b_',
    'Alt+P': '\x1bP',
  };

  it('is not empty after a key that may bring text back', () => {
    for (const [name, key] of Object.entries(uncertainKeys)) {
      const line = fed(key);
      expect(line.empty, name).toBe(false);
      expect(line.uncertain, name).toBe(true);
    }
  });

  it('stays not empty after "echo hi", Enter, Up (the recalled command is on the line)', () => {
    expect(emptyAfter('echo hi', '\r', '\x1b[A')).toBe(false);
  });

  it('cannot be emptied with Backspace', () => {
    expect(emptyAfter('\x1b[A', '\x7f', '\x7f', '\x7f', '\x7f', '\x7f', '\x7f', '\x7f', '\x7f')).toBe(false);
    expect(emptyAfter('ab', '\t', '\x7f', '\x7f', '\x7f')).toBe(false);
  });

  it('keeps its state through cursor keys', () => {
    expect(emptyAfter('\x1b[A', '\x1b[D', '\x1b[C', '\x1b[H', '\x1b[F', '\x1bOH')).toBe(false);
  });

  it('is empty again after Enter, newline, Ctrl-C or Ctrl-U', () => {
    for (const reset of ['\r', '\n', '\x03', '\x15']) {
      const line = fed('x', '\x1b[A', reset);
      expect(line.empty, JSON.stringify(reset)).toBe(true);
      expect(line.uncertain).toBe(false);
    }
  });

  it('is not emptied by a newline inside a bracketed paste', () => {
    expect(emptyAfter('\t', '\x1b[200~one\rtwo\x1b[201~', '\x7f'.repeat(6))).toBe(false);
  });

  it('can be seeded (a line another view left with text) and is cleared by reset', () => {
    const line = new HumanLine();
    line.markUncertain();
    expect(line.empty).toBe(false);
    line.feed('\x7f');
    expect(line.empty).toBe(false);
    line.reset();
    expect(line.empty).toBe(true);
  });
});
