import { describe, expect, it } from 'vitest';
import { isTerminalReply } from './terminal-replies';

describe('isTerminalReply', () => {
  it('recognises what xterm.js answers to a program starting vi (a trial saw it at the prompt)', () => {
    const answers = '\x1b[O\x1b[2;2R\x1b[3;1R\x1b[>0;276;0c\x1b]10;rgb:cccc/cccc/cccc\x1b\\'
      + '\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\\x1b[?12;2$y';
    expect(isTerminalReply(answers)).toBe(true);
    for (const one of ['\x1b[?1;2c', '\x1b[0n', '\x1b[?5;1R', '\x1b[8;24;80t', '\x1b[I',
      '\x1b]11;rgb:0000/0000/0000\x07', '\x1bP1$r0m\x1b\\', '\x1b[12;2$y']) {
      expect(isTerminalReply(one), JSON.stringify(one)).toBe(true);
    }
  });

  it('never takes what a human types for an answer', () => {
    for (const key of ['a', 'ls\r', '\x03', '\x1b', '\x1b[A', '\x1b[1;2D', '\x1bOA', '\x1bOP',
      '\x1b[15~', '\x1b[H', '\x1b[F', '\x1bc', '\x1b[', '\x1b[200~pasted \x1b[c\x1b[201~',
      '\x1b[?1;2cls', 'x\x1b[0n', '']) {
      expect(isTerminalReply(key), JSON.stringify(key)).toBe(false);
    }
  });
});
