import { describe, expect, it } from 'vitest';
import { Terminal } from '@xterm/headless';
import { repaintSteps } from './repaint';
import { ScrollKeeper } from './scroll-keeper';

/** Writes and waits for xterm's parser (writes are asynchronous). */
function write(term: Terminal, text: string): Promise<void> {
  return new Promise((resolve) => term.write(text, resolve));
}

function lines(term: Terminal): string[] {
  const buffer = term.buffer.active;
  const out: string[] = [];
  for (let i = 0; i < buffer.length; i++) out.push(buffer.getLine(i)?.translateToString(true) ?? '');
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

describe('repaintSteps', () => {
  it('cuts the scrollback at its size marks', () => {
    expect(repaintSteps('abcdef', [{ at: 0, cols: 80, rows: 24 }, { at: 4, cols: 40, rows: 10 }])).toEqual([
      { cols: 80, rows: 24, text: 'abcd' },
      { cols: 40, rows: 10, text: 'ef' },
    ]);
    expect(repaintSteps('abc', undefined)).toEqual([{ cols: 0, rows: 0, text: 'abc' }]);
    expect(repaintSteps('', [])).toEqual([]);
    expect(repaintSteps('abc', [{ at: 9, cols: 80, rows: 24 }])).toEqual([{ cols: 0, rows: 0, text: 'abc' }]);
  });

  it('replayed at the width it was written for, a line reflows instead of garbling (real xterm model)', async () => {
    // A program drew a 60-column ruler with a cursor move back to column 1, then a label over it.
    const output = `${'-'.repeat(60)}\r\x1b[2Clabel\r\n$ `;
    const sizes = [{ at: 0, cols: 60, rows: 5 }];

    const raw = new Terminal({ cols: 30, rows: 5, allowProposedApi: true });
    await write(raw, output); // the old way: raw bytes at the view's width
    const replayed = new Terminal({ cols: 30, rows: 5, allowProposedApi: true });
    for (const step of repaintSteps(output, sizes)) {
      replayed.resize(step.cols, step.rows);
      await write(replayed, step.text);
    }
    replayed.resize(30, 5);
    // The label sits on the ruler's first row, where the program put it.
    expect(lines(replayed)[0]).toBe(`--label${'-'.repeat(23)}`);
    expect(lines(raw)[0]).not.toBe(lines(replayed)[0]);
  });
});

describe('ScrollKeeper', () => {
  it('keeps a scrolled-back view on its line through a synchronized full repaint', async () => {
    const term = new Terminal({ cols: 20, rows: 5, scrollback: 1000, allowProposedApi: true });
    const transcript = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\r\n');
    await write(term, transcript);
    term.scrollToLine(10);
    expect(term.buffer.active.viewportY).toBe(10);

    const keeper = new ScrollKeeper();
    const repaint = `\x1b[?2026h\x1b[2J\x1b[3J\x1b[H${transcript}\r\nmore`;
    const parts = [repaint.slice(0, 30), repaint.slice(30), '\x1b[?2026l'];
    for (const part of parts) {
      keeper.before(term, part);
      await write(term, part);
      keeper.after(term);
    }
    const { viewportY, baseY } = term.buffer.active;
    expect(viewportY).toBe(10); // neither the top (0) …
    expect(viewportY).toBeLessThan(baseY); // … nor the bottom
    expect(keeper.holding).toBe(false);
  });

  it('leaves a view at the bottom alone', async () => {
    const term = new Terminal({ cols: 20, rows: 5, scrollback: 1000, allowProposedApi: true });
    await write(term, Array.from({ length: 20 }, (_, i) => `l${i}`).join('\r\n'));
    const keeper = new ScrollKeeper();
    const chunk = `\x1b[3J\x1b[2J\x1b[H${Array.from({ length: 30 }, (_, i) => `m${i}`).join('\r\n')}`;
    keeper.before(term, chunk);
    await write(term, chunk);
    keeper.after(term);
    expect(term.buffer.active.viewportY).toBe(term.buffer.active.baseY);
  });
});
