/**
 * WebGL contexts a page may hold for terminals (ADR 008). Chromium keeps at most 16 live WebGL
 * contexts per page and silently loses the oldest beyond that; terminals past the budget keep
 * xterm.js's DOM renderer (which never drops output either).
 */
export const WEBGL_CONTEXTS_MAX = 16;

/** Counts the contexts taken; `take()` is false once the budget is spent. */
export class ContextBudget {
  readonly max: number;
  #holders = new Set<string>();

  constructor(max: number = WEBGL_CONTEXTS_MAX) {
    this.max = max;
  }

  /** `holder` wants a context: true when it has one (already, or taken now). */
  take(holder: string): boolean {
    if (this.#holders.has(holder)) return true;
    if (this.#holders.size >= this.max) return false;
    this.#holders.add(holder);
    return true;
  }

  /** `holder` gave its context back (no error when it had none). */
  give(holder: string): void {
    this.#holders.delete(holder);
  }

  get used(): number {
    return this.#holders.size;
  }
}
