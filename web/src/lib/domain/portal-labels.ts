import type { AgentActivity } from '../ports';

/** Words of the write portal's overlay and cell notice (pure, see `write-portal.ts`). */

/** Tickets are UUIDs: their first 8 characters name them well enough on screen. */
export const SHORT_TICKET_CHARS = 8;

export function shortTicket(ticket: string): string {
  return ticket.slice(0, SHORT_TICKET_CHARS);
}

/**
 * "1 task waits: the terminal shows “Sign in with ChatGPT” — answer it; IdeA types the task once
 * the prompt is back" (the CLI waits for its human: a menu would take the task's characters).
 */
export function screenWaitingNotice(queued: number, screen: string): string {
  const what = queued === 1 ? '1 task waits' : `${queued} tasks wait`;
  return `${what}: the terminal shows “${screen}” — answer it; IdeA types the task once the prompt is back`;
}

/** "1 task waits for an empty prompt line — press Enter or Ctrl-U" (the way to clear the line). */
export function waitingNotice(queued: number): string {
  const what = queued === 1 ? '1 task waits' : `${queued} tasks wait`;
  return `${what} for an empty prompt line — press Enter or Ctrl-U`;
}

/**
 * An agent's activity as shown while its terminal shows `screen`, a text of its profile's
 * `waitingScreens` (null: none): "needs you" (`waiting`) instead of starting / idle / busy, the
 * CLI waiting for its human (a sign-in menu, a folder-trust question). `why` is the badge's title.
 */
export function activityOnScreen(activity: AgentActivity, screen: string | null): { activity: AgentActivity; why: string | null } {
  if (screen === null || !(['starting', 'idle', 'busy'] as AgentActivity[]).includes(activity)) return { activity, why: null };
  return { activity: 'waiting', why: `Needs you: the terminal shows “${screen}” (answer it there)` };
}
