import type { AgentActivity, DelegationDTO } from '../ports';

/**
 * Pure view rules of delegation observability (SPEC C8 "who asked whom"): the arrows an agent's
 * cell shows, who an agent works for or waits on, and which activity changes deserve a notice.
 */

/**
 * One arrow in an agent's cell header: `from` = "⇠ from Alpha" (it works on Alpha's ticket),
 * `to` = "⇢ asking Beta" (an ask: it waits on Beta), or for a message it sent that still waits
 * in the target's mailbox the lighter "⇢ sent to Beta (queued)".
 */
export interface DelegationArrow {
  ticket: string;
  direction: 'from' | 'to';
  /** The other side: an agent id, or `'user'`. */
  peer: string;
  kind: DelegationDTO['kind'];
  state: DelegationDTO['state'];
}

/** Arrows a cell header shows before folding the rest into "+N". */
export const MAX_SHOWN_ARROWS = 2;

/**
 * Arrows of `agentId`'s cell: tasks it runs (active, or just ended; asks and messages alike) and
 * what it asked for (queued at the target, active, or just ended). A message it sent shows only
 * while queued (nobody waits for a message). Tasks merely queued in its own mailbox are counted
 * by the queue depth instead.
 */
export function arrowsFor(agentId: string, delegations: readonly DelegationDTO[]): DelegationArrow[] {
  const arrows: DelegationArrow[] = [];
  for (const d of delegations) {
    const { ticket, kind, state } = d;
    if (d.to === agentId && state !== 'queued') arrows.push({ ticket, direction: 'from', peer: d.from, kind, state });
    if (d.from === agentId && (isAsk(d) || state === 'queued')) arrows.push({ ticket, direction: 'to', peer: d.to, kind, state });
  }
  return arrows;
}

const STATE_SUFFIX: Record<DelegationDTO['state'], string> = { queued: ' (queued)', active: '', done: ' ✓', failed: ' ✗' };

/** "⇠ from Alpha", "⇢ asking Beta (queued)", "⇢ sent to Beta (queued)"; `peer` is the other side's name. */
export function arrowLabel(arrow: DelegationArrow, peer: string): string {
  const lead = arrow.direction === 'from' ? '⇠ from' : arrow.kind === 'ask' ? '⇢ asking' : '⇢ sent to';
  return `${lead} ${peer}${STATE_SUFFIX[arrow.state]}`;
}

/** The arrows shown (at most `max`, oldest first) and the number folded into "+N". */
export function capArrows(arrows: readonly DelegationArrow[], max = MAX_SHOWN_ARROWS): { shown: DelegationArrow[]; more: number } {
  return { shown: arrows.slice(0, max), more: Math.max(0, arrows.length - max) };
}

/** Requesters whose ticket (ask or message) `agentId` is working on now. */
export function workingFor(agentId: string, delegations: readonly DelegationDTO[]): string[] {
  return unique(delegations.filter((d) => d.to === agentId && d.state === 'active').map((d) => d.from));
}

/** Agents `agentId` asked something and has no answer from yet (messages make nobody wait). */
export function waitingOn(agentId: string, delegations: readonly DelegationDTO[]): string[] {
  return unique(delegations.filter((d) => d.from === agentId && isAsk(d) && (d.state === 'queued' || d.state === 'active')).map((d) => d.to));
}

/** An ask (the requester waits for the reply); anything else is a message. */
export function isAsk(delegation: DelegationDTO): boolean {
  return delegation.kind === 'ask';
}

/** What the user should hear about when an agent out of sight changes activity. */
export type AttentionKind = 'finished' | 'stopped' | 'waiting';

/**
 * A turn ending (busy, waiting or blocked → idle) = finished, → stopped = stopped; → waiting =
 * waiting. Being blocked is part of a turn (the agent carries on): no notice of its own.
 */
export function attentionFor(previous: AgentActivity | undefined, next: AgentActivity): AttentionKind | null {
  if (next === 'waiting') return previous === 'waiting' ? null : 'waiting';
  if (previous !== 'busy' && previous !== 'waiting' && previous !== 'blocked') return null;
  if (next === 'idle') return 'finished';
  if (next === 'stopped') return 'stopped';
  return null;
}

/**
 * Whether a finished turn is the user's business: a task the user sent, or one whose requester
 * is unknown. A turn one agent asked of another is not (unless it fails: that toast is separate).
 */
export function finishedTurnConcernsUser(requester: string | undefined): boolean {
  return requester === undefined || requester === 'user';
}

/**
 * "Beta finished" (and "Beta finished 7 tasks" when one toast counts several turns), "Beta
 * stopped", "Beta is waiting for your input".
 */
export function attentionMessage(kind: AttentionKind, name: string, count = 1): string {
  switch (kind) {
    case 'finished':
      return count > 1 ? `${name} finished ${count} tasks` : `${name} finished`;
    case 'stopped':
      return `${name} stopped`;
    case 'waiting':
      return `${name} is waiting for your input`;
  }
}

/**
 * The requester named in a delivered text's prefix `[IdeA · task from <A> · ticket <id>]`, also
 * in the shell no-op a Shell agent gets, `: '[IdeA · task from <A> · ticket <id>] …'` (its
 * `'\''` and `'\\'` read back as `'` and `\`; docs/contracts.md §7.2).
 */
export function requesterInText(text: string): string | null {
  const shell = text.startsWith(": '");
  const line = shell ? text.slice(3).replaceAll("'\\''", "'").replaceAll("'\\\\'", '\\') : text;
  const match = /^\[IdeA · (?:task|handoff) from (.+?) · ticket [^\]]*\]/.exec(line);
  return match ? match[1] : null;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
