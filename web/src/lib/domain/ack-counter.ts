/** Characters consumed by xterm.js between two acks (VS Code uses 5 000). */
export const ACK_EVERY_CHARS = 5000;

/**
 * Flow-control counter (SPEC §5): call `consumed(n)` from xterm.js's write callback with the
 * number of characters just parsed; it returns the count to acknowledge once at least
 * `threshold` characters accumulated, else 0.
 */
export class AckCounter {
  readonly threshold: number;
  #pending = 0;

  constructor(threshold: number = ACK_EVERY_CHARS) {
    this.threshold = threshold;
  }

  consumed(chars: number): number {
    if (chars > 0) this.#pending += chars;
    if (this.#pending < this.threshold) return 0;
    return this.flush();
  }

  /** Returns and clears what is pending (e.g. when a view goes away). */
  flush(): number {
    const chars = this.#pending;
    this.#pending = 0;
    return chars;
  }

  get pending(): number {
    return this.#pending;
  }
}
