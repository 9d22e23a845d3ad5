/** Longest overlap looked for between a repainted scrollback and output pushed meanwhile. */
const MAX_OVERLAP_CHARS = 256 * 1024;
/** Shorter overlaps are too likely to be coincidences (a prompt, a line break) to drop. */
const MIN_OVERLAP_CHARS = 8;

/**
 * Output pushed while `terminals.attach` was in flight may already be part of the scrollback
 * it returns. Returns the part of `pending` that is not: the longest prefix of `pending` that is
 * also a suffix of `scrollback` (at least 8 characters) is dropped. Pure; O(n²) worst case,
 * bounded by 256 KiB.
 */
export function unseenAfterScrollback(scrollback: string, pending: string): string {
  if (!pending || !scrollback) return pending;
  const max = Math.min(pending.length, scrollback.length, MAX_OVERLAP_CHARS);
  for (let k = max; k >= MIN_OVERLAP_CHARS; k--) {
    if (scrollback.endsWith(pending.slice(0, k))) return pending.slice(k);
  }
  return pending;
}
