import { describe, expect, it } from 'vitest';
import type { Turn } from '../ports';
import {
  FOLD_CHARS,
  FOLD_LINES,
  foldedText,
  highlightSegments,
  isLongText,
  isoTime,
  localTime,
  matchSummary,
  matchingTurnIds,
  peerLabel,
  roleLabel,
  speakerLabel,
} from './conversation-view';

const names: Record<string, string> = { a1: 'Alpha', a2: 'Beta' };
const nameOf = (id: string) => names[id] ?? null;

const turn = (id: string, text: string): Turn => ({ id, conversation: 'c', atMs: 1, source: { kind: 'human' }, role: 'prompt', text });

describe('parties', () => {
  it('calls the user "You" and an agent by its name', () => {
    expect(peerLabel(null, nameOf)).toBe('You');
    expect(peerLabel('a2', nameOf)).toBe('Beta');
    expect(peerLabel('gone', nameOf)).toBe('Unknown agent (gone)');
    expect(speakerLabel({ kind: 'human' }, nameOf)).toBe('You');
    expect(speakerLabel({ kind: 'agent', agentId: 'a1' }, nameOf)).toBe('Alpha');
  });
});

describe('roles', () => {
  it('says asked for an ask (or an older log), messaged for a message, answered', () => {
    expect(roleLabel({ role: 'prompt', ticketKind: 'ask' })).toBe('asked');
    expect(roleLabel({ role: 'prompt' })).toBe('asked');
    expect(roleLabel({ role: 'prompt', ticketKind: 'message' })).toBe('messaged');
    expect(roleLabel({ role: 'response' })).toBe('answered');
  });
});

describe('search', () => {
  const turns = [turn('t1', 'Run the TESTS'), turn('t2', 'all green'), turn('t3', 'the tests pass; tests done')];

  it('finds the turns containing the text, case-insensitively; blank is no search', () => {
    expect(matchingTurnIds(turns, 'tests')).toEqual(new Set(['t1', 't3']));
    expect(matchingTurnIds(turns, '  Green ')).toEqual(new Set(['t2']));
    expect(matchingTurnIds(turns, 'nothing')).toEqual(new Set());
    expect(matchingTurnIds(turns, '   ')).toBeNull();
  });

  it('treats the query as text, not as a pattern', () => {
    expect(matchingTurnIds([turn('t1', 'a+b (c)'), turn('t2', 'aab c')], 'a+b (')).toEqual(new Set(['t1']));
    expect(matchingTurnIds([turn('t1', 'x.y'), turn('t2', 'xzy')], '.')).toEqual(new Set(['t1']));
  });

  it('cuts a text into plain and matching pieces', () => {
    expect(highlightSegments('the tests pass; Tests done', 'tests')).toEqual([
      { text: 'the ', match: false },
      { text: 'tests', match: true },
      { text: ' pass; ', match: false },
      { text: 'Tests', match: true },
      { text: ' done', match: false },
    ]);
    expect(highlightSegments('nothing here', 'x')).toEqual([{ text: 'nothing here', match: false }]);
    expect(highlightSegments('anything', '')).toEqual([{ text: 'anything', match: false }]);
    expect(highlightSegments('ÉCOLE et école', 'école').filter((s) => s.match).map((s) => s.text)).toEqual(['ÉCOLE', 'école']);
  });

  it('says how many turns match', () => {
    expect(matchSummary(0, 5)).toBe('No turn matches');
    expect(matchSummary(1, 5)).toBe('1 of 5 turns matches');
    expect(matchSummary(3, 5)).toBe('3 of 5 turns match');
    expect(matchSummary(1, 1)).toBe('1 of 1 turn matches');
  });
});

describe('long texts', () => {
  it('folds beyond FOLD_LINES lines or FOLD_CHARS characters, keeping whole lines', () => {
    const lines = Array.from({ length: FOLD_LINES + 3 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(isLongText(lines)).toBe(true);
    expect(foldedText(lines)).toBe(`${lines.split('\n').slice(0, FOLD_LINES).join('\n')}…`);
    expect(isLongText('short\ntext')).toBe(false);
    expect(foldedText('short\ntext')).toBe('short\ntext');
    const wide = 'x'.repeat(FOLD_CHARS + 10);
    expect(isLongText(wide)).toBe(true);
    expect(foldedText(wide)).toHaveLength(FOLD_CHARS + 1);
  });
});

describe('time stamps', () => {
  it('shows local time, ISO for machines, a dash for none', () => {
    const ms = Date.UTC(2026, 2, 18, 9, 30, 5);
    expect(localTime(ms)).toBe(new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }));
    expect(isoTime(ms)).toBe('2026-03-18T09:30:05.000Z');
    expect(localTime(0)).toBe('—');
    expect(isoTime(0)).toBe('');
  });
});
