import type { AgentActivity, DelegationDTO } from '../ports';

/**
 * Pure view rules of delegation observability (SPEC C8 "who asked whom"): the arrows an agent's
 * cell shows, who an agent works for or waits on, and which activity changes deserve a notice.
 */

/** One arrow in an agent's cell header: `from` = "⇠ from Alpha", `to` = "⇢ asking Beta". */
export interface DelegationArrow {
  ticket: string;
  direction: 'from' | 'to';
  /** The other side: an agent id, or `'user'`. */
  peer: string;
  state: DelegationDTO['state'];
}

/**
 * Arrows of `agentId`'s cell: tasks it runs (active, or just ended) and tasks it asked for
 * (queued at the target, active, or just ended). Tasks merely queued in its own mailbox are
 * counted by the queue depth instead.
 */
export function arrowsFor(agentId: string, delegations: readonly DelegationDTO[]): DelegationArrow[] {
  const arrows: DelegationArrow[] = [];
  for (const d of delegations) {
    if (d.to === agentId && d.state !== 'queued') arrows.push({ ticket: d.ticket, direction: 'from', peer: d.from, state: d.state });
    if (d.from === agentId) arrows.push({ ticket: d.ticket, direction: 'to', peer: d.to, state: d.state });
  }
  return arrows;
}

/** Requesters whose task `agentId` is running now. */
export function workingFor(agentId: string, delegations: readonly DelegationDTO[]): string[] {
  return unique(delegations.filter((d) => d.to === agentId && d.state === 'active').map((d) => d.from));
}

/** Agents `agentId` asked something and has no answer from yet. */
export function waitingOn(agentId: string, delegations: readonly DelegationDTO[]): string[] {
  return unique(delegations.filter((d) => d.from === agentId && (d.state === 'queued' || d.state === 'active')).map((d) => d.to));
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

/** "Beta finished", "Beta stopped", "Beta is waiting for your input". */
export function attentionMessage(kind: AttentionKind, name: string): string {
  switch (kind) {
    case 'finished':
      return `${name} finished`;
    case 'stopped':
      return `${name} stopped`;
    case 'waiting':
      return `${name} is waiting for your input`;
  }
}

/** The requester named in a delivered text's prefix `[IdeA · task from <A> · ticket <id>]`. */
export function requesterInText(text: string): string | null {
  const match = /^\[IdeA · task from (.+?) · ticket [^\]]*\]/.exec(text);
  return match ? match[1] : null;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
