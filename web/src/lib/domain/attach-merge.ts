/**
 * Exact merge of a repainted scrollback with pushed output (no loss, no duplicate).
 *
 * The backend numbers each session's output by offset: UTF-16 code units (JS string length)
 * since the session started. `terminals.attach` answers the scrollback and `end`, the offset
 * just after it; each pushed chunk carries the offset of its first unit. A view writes the
 * scrollback, then only the part of each chunk at or beyond `end`.
 */
export function unseenPart(text: string, offset: number | undefined, end: number): string {
  if (offset === undefined) return text; // an older backend without offsets: keep everything
  const skip = end - offset;
  if (skip <= 0) return text;
  return skip >= text.length ? '' : text.slice(skip);
}

/** Output pushed while `attach` was in flight, with the offset of each chunk. */
export interface PendingChunk {
  text: string;
  offset: number | undefined;
}
