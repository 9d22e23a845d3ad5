import { describe, expect, it } from 'vitest';
import type { DelegationDTO } from '../ports';
import { arrowLabel, arrowsFor, attentionFor, attentionMessage, capArrows, finishedTurnConcernsUser, requesterInText, waitingOn, workingFor } from './delegations';

const d = (ticket: string, from: string, to: string, state: DelegationDTO['state'], kind: DelegationDTO['kind'] = 'ask'): DelegationDTO => ({
  ticket,
  from,
  to,
  kind,
  state,
});

describe('delegation arrows', () => {
  const all = [d('t1', 'a1', 'a2', 'active'), d('t2', 'user', 'a2', 'queued'), d('t3', 'a2', 'a3', 'queued'), d('t4', 'a3', 'a1', 'done')];

  it('shows on a target the tasks it runs, and on a requester what it asked for', () => {
    expect(arrowsFor('a2', all)).toEqual([
      { ticket: 't1', direction: 'from', peer: 'a1', kind: 'ask', state: 'active' },
      { ticket: 't3', direction: 'to', peer: 'a3', kind: 'ask', state: 'queued' },
    ]);
    expect(arrowsFor('a1', all)).toEqual([
      { ticket: 't1', direction: 'to', peer: 'a2', kind: 'ask', state: 'active' },
      { ticket: 't4', direction: 'from', peer: 'a3', kind: 'ask', state: 'done' },
    ]);
    expect(arrowsFor('a9', all)).toEqual([]);
  });

  it('tells who an agent works for and waits on', () => {
    const more = [...all, d('t5', 'a1', 'a2', 'active')];
    expect(workingFor('a2', more)).toEqual(['a1']);
    expect(workingFor('a3', more)).toEqual([]);
    expect(waitingOn('a2', more)).toEqual(['a3']);
    expect(waitingOn('a1', more)).toEqual(['a2']);
  });

  it('never has a message make its sender wait or ask: at most a queued "sent to"', () => {
    const messages = [d('m1', 'a1', 'a2', 'queued', 'message'), d('m2', 'a1', 'a3', 'active', 'message'), d('m3', 'a1', 'a3', 'done', 'message')];
    expect(waitingOn('a1', messages)).toEqual([]);
    expect(arrowsFor('a1', messages)).toEqual([{ ticket: 'm1', direction: 'to', peer: 'a2', kind: 'message', state: 'queued' }]);
    expect(arrowLabel(arrowsFor('a1', messages)[0], 'Beta')).toBe('⇢ sent to Beta (queued)');
    // the target still shows whom it works for
    expect(workingFor('a3', messages)).toEqual(['a1']);
    expect(arrowsFor('a3', messages).map((a) => arrowLabel(a, 'Alpha'))).toEqual(['⇠ from Alpha', '⇠ from Alpha ✓']);
  });

  it('words an arrow with its state', () => {
    const arrow = (direction: 'from' | 'to', state: DelegationDTO['state']) => ({ ticket: 't', direction, peer: 'x', kind: 'ask' as const, state });
    expect(arrowLabel(arrow('to', 'active'), 'Beta')).toBe('⇢ asking Beta');
    expect(arrowLabel(arrow('to', 'queued'), 'Beta')).toBe('⇢ asking Beta (queued)');
    expect(arrowLabel(arrow('from', 'done'), 'you')).toBe('⇠ from you ✓');
    expect(arrowLabel(arrow('from', 'failed'), 'Alpha')).toBe('⇠ from Alpha ✗');
  });

  it('shows at most two arrows and folds the others into +N', () => {
    const many = arrowsFor('a1', [d('t1', 'a1', 'a2', 'active'), d('t2', 'a1', 'a3', 'queued'), d('t3', 'a1', 'a4', 'queued'), d('t4', 'a5', 'a1', 'active')]);
    const { shown, more } = capArrows(many);
    expect(shown.map((a) => a.ticket)).toEqual(['t1', 't2']);
    expect(more).toBe(2);
    expect(capArrows(many.slice(0, 2)).more).toBe(0);
  });
});

describe('attention', () => {
  it('notices a finished turn, a stop during a turn and a wait for the user', () => {
    expect(attentionFor('busy', 'idle')).toBe('finished');
    expect(attentionFor('waiting', 'idle')).toBe('finished');
    expect(attentionFor('busy', 'stopped')).toBe('stopped');
    expect(attentionFor('waiting', 'stopped')).toBe('stopped');
    expect(attentionFor('busy', 'waiting')).toBe('waiting');
    expect(attentionFor(undefined, 'waiting')).toBe('waiting');
    expect(attentionFor('blocked', 'idle')).toBe('finished');
    expect(attentionFor('blocked', 'stopped')).toBe('stopped');
    expect(attentionFor('blocked', 'waiting')).toBe('waiting');
  });

  it('stays quiet otherwise', () => {
    expect(attentionFor('starting', 'idle')).toBeNull();
    expect(attentionFor('idle', 'busy')).toBeNull();
    expect(attentionFor('idle', 'stopped')).toBeNull();
    expect(attentionFor('waiting', 'waiting')).toBeNull();
    expect(attentionFor('waiting', 'busy')).toBeNull();
    expect(attentionFor('busy', 'blocked')).toBeNull();
    expect(attentionFor('blocked', 'busy')).toBeNull();
  });

  it('words it for a toast', () => {
    expect(attentionMessage('finished', 'Beta')).toBe('Beta finished');
    expect(attentionMessage('waiting', 'Beta')).toBe('Beta is waiting for your input');
    expect(attentionMessage('stopped', 'Beta')).toBe('Beta stopped');
    expect(attentionMessage('finished', 'Beta', 1)).toBe('Beta finished');
    expect(attentionMessage('finished', 'Beta', 7)).toBe('Beta finished 7 tasks');
  });

  it("finds a finished turn the user's business when the user sent it, or nobody knows who did", () => {
    expect(finishedTurnConcernsUser('user')).toBe(true);
    expect(finishedTurnConcernsUser(undefined)).toBe(true);
    expect(finishedTurnConcernsUser('a1')).toBe(false);
  });
});

describe('requesterInText', () => {
  it('reads the requester of a delivered text', () => {
    expect(requesterInText('[IdeA · task from Alpha · ticket t1] review (answer …)')).toBe('Alpha');
    expect(requesterInText('plain text')).toBeNull();
  });
  it('reads it in the shell no-op a Shell agent gets too', () => {
    expect(requesterInText(": '[IdeA · task from Alpha · ticket t1] it'\\''s (answer with: idea reply …)'")).toBe('Alpha');
    expect(requesterInText(": '[IdeA · task from O'\\''Neil · ticket t1] x'")).toBe("O'Neil");
  });
});
