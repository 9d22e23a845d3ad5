import type { DelegationDTO } from '../ports';

/**
 * The wait-for graph as the UI shows it (SPEC C8 "who asked whom"): the delegations under way
 * (`active`: the target works on it; `queued`: it waits in the target's mailbox), seeded by an
 * `orchestration.graph` snapshot and kept live by the `delegation` pushes.
 */

/** Whether a delegation is still an edge of the graph (not done, not failed). */
export function isPending(delegation: DelegationDTO): boolean {
  return delegation.state === 'active' || delegation.state === 'queued';
}

/**
 * `known` (from the pushes) brought up to date with a `snapshot` fetched meanwhile. A ticket
 * heard of since the fetch started (`heardSince`) keeps what the push said (the snapshot may be
 * older); otherwise the snapshot wins, and a pending ticket it no longer lists ended unheard
 * (it is dropped). Ended tickets stay: they drop out on their own timer.
 */
export function mergeSnapshot(
  known: Readonly<Record<string, DelegationDTO>>,
  snapshot: readonly DelegationDTO[],
  heardSince: (ticket: string) => boolean,
): Record<string, DelegationDTO> {
  const merged: Record<string, DelegationDTO> = { ...known };
  const listed = new Set<string>();
  for (const { ticket, from, to, kind, state } of snapshot) {
    listed.add(ticket);
    if (!heardSince(ticket)) merged[ticket] = { ticket, from, to, kind, state };
  }
  for (const [ticket, delegation] of Object.entries(known)) {
    if (isPending(delegation) && !listed.has(ticket) && !heardSince(ticket)) delete merged[ticket];
  }
  return merged;
}

/** The graph's edges: the pending delegations, running ones first, otherwise in their order. */
export function graphEdges(delegations: readonly DelegationDTO[]): DelegationDTO[] {
  const pending = delegations.filter(isPending);
  return [...pending.filter((d) => d.state === 'active'), ...pending.filter((d) => d.state === 'queued')];
}
