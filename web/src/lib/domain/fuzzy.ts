/**
 * Fuzzy matching for the command palette: every character of the query must appear in the
 * label in order (case-insensitive); runs of consecutive characters and word starts score
 * higher, so "spr" ranks "Split right" above "Stop process".
 */

/** The score of `label` for `query` (higher is better), or `null` when it does not match. */
export function fuzzyScore(query: string, label: string): number | null {
  const q = query.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!q) return 0;
  const text = label.toLowerCase();
  let score = 0;
  let from = 0;
  let previous = -2;
  for (const ch of q) {
    if (ch === ' ') continue;
    const at = text.indexOf(ch, from);
    if (at < 0) return null;
    const wordStart = at === 0 || /[\s\-_/.(]/.test(text[at - 1]);
    score += 1 + (at === previous + 1 ? 3 : 0) + (wordStart ? 2 : 0);
    previous = at;
    from = at + 1;
  }
  // The query as one run (at a word start, better) beats the same letters scattered.
  const run = text.indexOf(q.replace(/ /g, ''));
  if (run >= 0) score += 3 * q.length + (run === 0 || /[\s\-_/.(]/.test(text[run - 1]) ? 5 : 0);
  // Shorter labels win ties: the query covers more of them.
  return score - label.length / 100;
}

/** `items` matching `query`, best first (stable among equals); all of them for an empty query. */
export function fuzzyFilter<T>(query: string, items: readonly T[], labelOf: (item: T) => string): T[] {
  if (!query.trim()) return [...items];
  return items
    .map((item, index) => ({ item, index, score: fuzzyScore(query, labelOf(item)) }))
    .filter((entry): entry is { item: T; index: number; score: number } => entry.score !== null)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.item);
}
