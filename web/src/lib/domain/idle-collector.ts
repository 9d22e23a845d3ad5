/**
 * A full garbage collection once the terminals went quiet after a lot of output (ADR 016).
 *
 * Every push is a script whose text, and what xterm.js parses out of it, is garbage right after;
 * V8 grows its heap to keep up with a flood and, in Qt WebEngine, keeps it once the page is
 * idle (measured: ~130 MiB of heap for ~25 MiB live, 30 s after the last output). When the
 * window exposes V8's `gc()` (`--js-flags=--expose-gc`, set by the window adapter), the page
 * collects once `QUIET_MS` passed without output after at least `COLLECT_AFTER_CHARS`
 * characters: never during a flood, at most once per that much output.
 */
export const COLLECT_AFTER_CHARS = 1024 * 1024;
export const QUIET_MS = 3000;

type Timer = ReturnType<typeof setTimeout>;

export class IdleCollector {
  #collect: () => void;
  #afterChars: number;
  #quietMs: number;
  #since = 0;
  #timer: Timer | null = null;
  /** Collections run so far. */
  collections = 0;

  constructor(collect: () => void, afterChars = COLLECT_AFTER_CHARS, quietMs = QUIET_MS) {
    this.#collect = collect;
    this.#afterChars = afterChars;
    this.#quietMs = quietMs;
  }

  /** `chars` characters of output arrived: (re)start the quiet wait once enough did. */
  wrote(chars: number): void {
    this.#since += chars;
    if (this.#since < this.#afterChars) return;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#run(), this.#quietMs);
  }

  #run(): void {
    this.#timer = null;
    this.#since = 0;
    this.collections += 1;
    try {
      this.#collect();
    } catch {
      // a collection that fails changes nothing the user sees
    }
  }
}

/**
 * V8's `gc()` when the page was started with `--js-flags=--expose-gc`, else nothing: a full
 * collection of the `last-resort` flavour, the one that also gives the emptied pages back
 * (V8's `src/extensions/gc-extension.cc`; a plain `gc()` collects but keeps the heap's size).
 */
export function exposedGc(): () => void {
  return () =>
    (globalThis as { gc?: (options?: object) => void }).gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
