import type { SizeMark } from '../ports';

/** One piece of a scrollback and the PTY size it was produced at. */
export interface RepaintStep {
  cols: number;
  rows: number;
  text: string;
}

/**
 * Cuts a scrollback at its size marks (`attach` → `sizes`, oldest first, UTF-16 offsets), so a
 * view replays each piece at the width it was written for and lets xterm.js reflow once at
 * the end (docs/adr/007-terminal-repaint.md). No marks: one step with no size (`cols` 0).
 * Marks outside the text, or out of order, are skipped.
 */
export function repaintSteps(scrollback: string, sizes: readonly SizeMark[] | undefined): RepaintStep[] {
  const marks = (sizes ?? []).filter((m) => m.cols > 0 && m.rows > 0 && m.at >= 0 && m.at <= scrollback.length);
  if (marks.length === 0) return scrollback ? [{ cols: 0, rows: 0, text: scrollback }] : [];
  const steps: RepaintStep[] = [];
  let from = 0;
  let size = { cols: marks[0].cols, rows: marks[0].rows };
  for (const mark of marks) {
    if (mark.at < from) continue;
    if (mark.at > from) steps.push({ ...size, text: scrollback.slice(from, mark.at) });
    from = mark.at;
    size = { cols: mark.cols, rows: mark.rows };
  }
  if (from < scrollback.length || steps.length === 0) steps.push({ ...size, text: scrollback.slice(from) });
  return steps;
}
