import type { Turn, TurnSource } from '../ports';

/**
 * Pure view rules of the conversation browser (SPEC C8 "each pair's log", C9): what to call
 * the parties, which turns a search finds and where, when a turn's text is long enough to fold.
 */

/** Looks an agent's name up; `null` when the tab does not know it (deleted since). */
export type NameOf = (agentId: string) => string | null;

/** The other party of a conversation: "You" for the user, else the agent's name. */
export function peerLabel(peer: string | null, nameOf: NameOf): string {
  if (peer === null) return 'You';
  return nameOf(peer) ?? `Unknown agent (${peer})`;
}

/** Who said a turn: "You" for the user, else the agent's name. */
export function speakerLabel(source: TurnSource, nameOf: NameOf): string {
  return source.kind === 'human' ? 'You' : peerLabel(source.agentId, nameOf);
}

/**
 * What a turn's speaker did: "asked" (an ask, or a prompt of an older log that does not say),
 * "messaged" (a message: no answer awaited), "answered".
 */
export function roleLabel(turn: Pick<Turn, 'role' | 'ticketKind'>): string {
  if (turn.role === 'response') return 'answered';
  return turn.ticketKind === 'message' ? 'messaged' : 'asked';
}

/** The search, as typed: blank = no search. Case-insensitive, Unicode-aware. */
export function searchPattern(query: string): RegExp | null {
  const needle = query.trim();
  if (needle === '') return null;
  return new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
}

/** Ids of the turns whose text contains the query; `null` when there is no search. */
export function matchingTurnIds(turns: readonly Turn[], query: string): Set<string> | null {
  const pattern = searchPattern(query);
  if (!pattern) return null;
  const found = new Set<string>();
  for (const turn of turns) {
    pattern.lastIndex = 0;
    if (pattern.test(turn.text)) found.add(turn.id);
  }
  return found;
}

/** A piece of text, marked when the search found it there. */
export interface Segment {
  text: string;
  match: boolean;
}

/** `text` cut into plain and matching pieces (one plain piece when nothing matches). */
export function highlightSegments(text: string, query: string): Segment[] {
  const pattern = searchPattern(query);
  if (!pattern || text === '') return [{ text, match: false }];
  const segments: Segment[] = [];
  let at = 0;
  for (const found of text.matchAll(pattern)) {
    const start = found.index;
    if (start > at) segments.push({ text: text.slice(at, start), match: false });
    segments.push({ text: found[0], match: true });
    at = start + found[0].length;
  }
  if (at < text.length) segments.push({ text: text.slice(at), match: false });
  return segments;
}

/** "3 of 12 turns match", "1 of 12 turns matches", "No turn matches". */
export function matchSummary(matches: number, total: number): string {
  if (matches === 0) return 'No turn matches';
  return `${matches} of ${total} ${total === 1 ? 'turn' : 'turns'} ${matches === 1 ? 'matches' : 'match'}`;
}

/** A turn longer than this many lines or characters is folded until asked. */
export const FOLD_LINES = 12;
export const FOLD_CHARS = 1200;

export function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length;
}

/** Whether the turn's text is folded by default. */
export function isLongText(text: string): boolean {
  return lineCount(text) > FOLD_LINES || text.length > FOLD_CHARS;
}

/** The start of a long text, as shown folded (whole lines, at most `FOLD_CHARS`), with "…". */
export function foldedText(text: string): string {
  if (!isLongText(text)) return text;
  const head = text.split('\n').slice(0, FOLD_LINES).join('\n');
  return `${head.length > FOLD_CHARS ? head.slice(0, FOLD_CHARS) : head.trimEnd()}…`;
}

/** A time stamp in the user's local time ("Jun 3, 2026, 14:05:09"); `—` for none (0). */
export function localTime(ms: number, withSeconds = true): string {
  if (!ms) return '—';
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: withSeconds ? 'medium' : 'short' });
}

/** The ISO form of a time stamp (a `<time datetime>`); empty for none. */
export function isoTime(ms: number): string {
  return ms ? new Date(ms).toISOString() : '';
}
