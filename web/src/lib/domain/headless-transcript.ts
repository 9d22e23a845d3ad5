import type { HeadlessEntry, HeadlessKind } from '../ports';

/** How many turns of an agent the window keeps (the backend keeps its own bounded list). */
export const KEPT_TURNS = 20;

/** One line of a headless turn as shown: a tool used, a permission asked, a rate limit. */
export interface TurnLine {
  kind: Exclude<HeadlessKind, 'started' | 'text' | 'final' | 'error'>;
  text: string;
}

/** A headless turn folded from its entries: the task, what it did, its answer or its error. */
export interface HeadlessTurn {
  ticket: string;
  task: string;
  startedAtMs: number;
  lines: TurnLine[];
  /** The answer as it streams (text pieces joined), replaced by the final answer at the end. */
  answer: string;
  state: 'running' | 'done' | 'failed';
  error: string | null;
}

/**
 * Folds `entries` (oldest first, any mix of turns) into turns, oldest first, keeping the last
 * `KEPT_TURNS`. An entry of a turn whose `started` was not seen (the window opened mid-turn, the
 * backend's list was cut) opens the turn with an empty task. Pure.
 */
export function foldTranscript(entries: readonly HeadlessEntry[]): HeadlessTurn[] {
  const turns: HeadlessTurn[] = [];
  const byTicket = new Map<string, HeadlessTurn>();
  for (const entry of entries) {
    let turn = byTicket.get(entry.ticket);
    if (!turn) {
      turn = { ticket: entry.ticket, task: '', startedAtMs: entry.atMs, lines: [], answer: '', state: 'running', error: null };
      byTicket.set(entry.ticket, turn);
      turns.push(turn);
    }
    switch (entry.kind) {
      case 'started':
        turn.task = entry.text;
        turn.startedAtMs = entry.atMs;
        break;
      case 'text':
        turn.answer += entry.text;
        break;
      case 'final':
        turn.answer = entry.text;
        turn.state = 'done';
        break;
      case 'error':
        turn.error = entry.text;
        turn.state = 'failed';
        break;
      default:
        turn.lines.push({ kind: entry.kind, text: entry.text });
    }
  }
  return turns.slice(-KEPT_TURNS);
}

/**
 * `entries` with `entry` added unless already there (the same ticket, kind, time and text: a
 * push that also came with the `orchestration.transcript` snapshot), oldest first, bounded.
 */
export function addEntry(entries: readonly HeadlessEntry[], entry: HeadlessEntry, max = 500): HeadlessEntry[] {
  const seen = entries.some((e) => e.ticket === entry.ticket && e.kind === entry.kind && e.atMs === entry.atMs && e.text === entry.text);
  if (seen) return [...entries];
  const next = [...entries, entry];
  next.sort((a, b) => a.atMs - b.atMs);
  return next.slice(-max);
}
