import { describe, expect, it } from 'vitest';
import type { HeadlessEntry, HeadlessKind } from '../ports';
import { KEPT_TURNS, addEntry, foldTranscript } from './headless-transcript';

const entry = (ticket: string, kind: HeadlessKind, text: string, atMs: number): HeadlessEntry => ({ root: '/p', agentId: 'a2', ticket, kind, text, atMs });

describe('a headless transcript', () => {
  it('folds a turn: its task, the tools it used, the answer streaming then final', () => {
    const turns = foldTranscript([
      entry('t1', 'started', 'review app/x.py', 1),
      entry('t1', 'text', 'Hello ', 2),
      entry('t1', 'tool', 'Run ls execute', 3),
      entry('t1', 'text', 'world', 4),
    ]);
    expect(turns).toEqual([{ ticket: 't1', task: 'review app/x.py', startedAtMs: 1, lines: [{ kind: 'tool', text: 'Run ls execute' }], answer: 'Hello world', state: 'running', error: null }]);
    const done = foldTranscript([entry('t1', 'started', 'x', 1), entry('t1', 'text', 'Hel', 2), entry('t1', 'final', 'Hello', 3)]);
    expect(done[0]).toMatchObject({ answer: 'Hello', state: 'done' });
  });

  it('a failed turn keeps the CLI words; a turn seen mid-way has no task; only the last turns are kept', () => {
    const turns = foldTranscript([entry('t1', 'error', 'Not logged in · Please run /login', 5), entry('t2', 'started', 'next', 6)]);
    expect(turns.map((t) => [t.ticket, t.task, t.state, t.error])).toEqual([
      ['t1', '', 'failed', 'Not logged in · Please run /login'],
      ['t2', 'next', 'running', null],
    ]);
    const many = Array.from({ length: KEPT_TURNS + 5 }, (_, i) => entry(`t${i}`, 'started', `task ${i}`, i));
    expect(foldTranscript(many).map((t) => t.ticket)[0]).toBe('t5');
  });

  it('adding an entry the snapshot already had changes nothing; order follows time', () => {
    const snapshot = [entry('t1', 'started', 'a', 1), entry('t1', 'text', 'b', 3)];
    expect(addEntry(snapshot, entry('t1', 'text', 'b', 3))).toEqual(snapshot);
    expect(addEntry(snapshot, entry('t1', 'tool', 'ls', 2)).map((e) => e.kind)).toEqual(['started', 'tool', 'text']);
    expect(addEntry(snapshot, entry('t1', 'final', 'ab', 4), 2).map((e) => e.kind)).toEqual(['text', 'final']);
  });
});
