import { describe, expect, it } from 'vitest';
import type { DelegationDTO } from '../ports';
import { graphEdges, mergeSnapshot } from './delegation-graph';

const d = (ticket: string, from: string, to: string, state: DelegationDTO['state'], kind: DelegationDTO['kind'] = 'ask'): DelegationDTO => ({
  ticket,
  from,
  to,
  kind,
  state,
});
const byTicket = (list: DelegationDTO[]) => Object.fromEntries(list.map((x) => [x.ticket, x]));
const never = () => false;

describe('merging a graph snapshot', () => {
  it('adds what only the snapshot knows (delegations from before the window opened)', () => {
    expect(mergeSnapshot({}, [d('t1', 'a1', 'a2', 'active'), d('t2', 'user', 'a2', 'queued')], never)).toEqual(
      byTicket([d('t1', 'a1', 'a2', 'active'), d('t2', 'user', 'a2', 'queued')]),
    );
  });

  it('lets a push heard during the fetch win over the older snapshot', () => {
    const known = byTicket([d('t1', 'a1', 'a2', 'done'), d('t3', 'a2', 'a3', 'queued')]);
    const snapshot = [d('t1', 'a1', 'a2', 'active')];
    expect(mergeSnapshot(known, snapshot, (t) => t === 't1' || t === 't3')).toEqual(known);
  });

  it('drops a pending delegation the snapshot no longer lists (it ended unheard), keeps ended ones', () => {
    const known = byTicket([d('t1', 'a1', 'a2', 'active'), d('t2', 'a1', 'a3', 'failed')]);
    expect(mergeSnapshot(known, [], never)).toEqual(byTicket([d('t2', 'a1', 'a3', 'failed')]));
  });

  it('takes the snapshot’s state for a ticket not heard of since', () => {
    const known = byTicket([d('t1', 'a1', 'a2', 'queued')]);
    expect(mergeSnapshot(known, [{ ...d('t1', 'a1', 'a2', 'active'), reason: 'x' }], never)).toEqual(byTicket([d('t1', 'a1', 'a2', 'active')]));
  });
});

describe('graph edges', () => {
  it('are the pending delegations, running ones first', () => {
    const all = [d('t1', 'a1', 'a2', 'queued'), d('t2', 'a1', 'a3', 'done'), d('t3', 'user', 'a1', 'active'), d('t4', 'a2', 'a3', 'failed'), d('t5', 'a3', 'a2', 'active')];
    expect(graphEdges(all).map((e) => e.ticket)).toEqual(['t3', 't5', 't1']);
  });
});
