import { describe, expect, it } from 'vitest';
import type { DelegationDTO } from '../ports';
import { arrowsFor, attentionFor, attentionMessage, requesterInText, waitingOn, workingFor } from './delegations';

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
      { ticket: 't1', direction: 'from', peer: 'a1', state: 'active' },
      { ticket: 't3', direction: 'to', peer: 'a3', state: 'queued' },
    ]);
    expect(arrowsFor('a1', all)).toEqual([
      { ticket: 't1', direction: 'to', peer: 'a2', state: 'active' },
      { ticket: 't4', direction: 'from', peer: 'a3', state: 'done' },
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
  });
});

describe('requesterInText', () => {
  it('reads the requester of a delivered text', () => {
    expect(requesterInText('[IdeA · task from Alpha · ticket t1] review (answer …)')).toBe('Alpha');
    expect(requesterInText('plain text')).toBeNull();
  });
});
