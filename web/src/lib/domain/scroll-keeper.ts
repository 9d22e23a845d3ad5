/** What the keeper needs of an xterm.js terminal (the real one, or `@xterm/headless`). */
export interface ScrollView {
  readonly buffer: { readonly active: { readonly viewportY: number; readonly baseY: number } };
  scrollToLine(line: number): void;
}

const ERASE_SCROLLBACK = '\x1b[3J';
const SYNC_BEGIN = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';
const SYNC_PREFIX = '\x1b[?2026';

/**
 * Keeps a scrolled-back view where it is while a TUI repaints everything (Claude Code: `CSI 3 J`
 * then the whole transcript, inside DEC 2026 synchronized-output blocks). Without it xterm.js
 * drops the viewport to the top when the scrollback is erased, then leaves it wherever the
 * repaint ends. Call `before(view, chunk)` when a chunk is queued and `after(view)` in its
 * write callback: from an erase seen while scrolled back until the synchronized block (if any)
 * closes, the view is put back on the line it showed. At the bottom, nothing is done (the view
 * follows the output as usual).
 */
export class ScrollKeeper {
  #line: number | null = null;
  #syncOpen = false;

  before(view: ScrollView, chunk: string): void {
    // Cheapest checks first: a flood's chunks are scanned once, for the DEC 2026 prefix.
    if (this.#line === null) {
      const { viewportY, baseY } = view.buffer.active;
      if (viewportY < baseY && chunk.includes(ERASE_SCROLLBACK)) this.#line = viewportY;
    }
    if (!chunk.includes(SYNC_PREFIX)) return;
    const begin = chunk.lastIndexOf(SYNC_BEGIN);
    const end = chunk.lastIndexOf(SYNC_END);
    if (begin >= 0 || end >= 0) this.#syncOpen = begin > end;
  }

  after(view: ScrollView): void {
    if (this.#line === null) return;
    view.scrollToLine(Math.min(this.#line, view.buffer.active.baseY));
    if (!this.#syncOpen) this.#line = null;
  }

  /** The user scrolled: the line to keep is where they are now. */
  get holding(): boolean {
    return this.#line !== null;
  }
}
