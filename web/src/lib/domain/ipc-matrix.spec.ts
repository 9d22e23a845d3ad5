import { describe, expect, it } from 'vitest';
import { choiceLabel, choicesFor, draftOf, hasValue, matrixOf, summarizeIpc, withValue } from './ipc-matrix';

describe('drafts of a matrix', () => {
  it('starts unrestricted without a matrix, every field "any"', () => {
    expect(draftOf(null)).toEqual({ unrestricted: true, fields: { receivesFrom: null, sendsTo: null, signals: null, zoneAccess: null } });
    expect(matrixOf(draftOf(null))).toBeNull();
  });

  it('round-trips a declared matrix: left-out keys stay out, an empty list stays empty', () => {
    const matrix = { receivesFrom: ['human', 'Alpha'], sendsTo: [], signals: ['SPAWN', 'RETURN'] };
    const draft = draftOf(matrix);
    expect(draft.unrestricted).toBe(false);
    expect(draft.fields.zoneAccess).toBeNull();
    expect(matrixOf(draft)).toEqual(matrix);
  });

  it('declares nothing when every field is "any", and nothing when unrestricted whatever the fields', () => {
    expect(matrixOf({ unrestricted: false, fields: { receivesFrom: null, sendsTo: null, signals: null, zoneAccess: null } })).toBeNull();
    expect(matrixOf({ unrestricted: true, fields: { receivesFrom: ['human'], sendsTo: null, signals: null, zoneAccess: null } })).toBeNull();
  });
});

describe('choices', () => {
  it('offers human, anyone and the other agents, then keeps what the file names beyond them', () => {
    expect(choicesFor('receivesFrom', ['Alpha', 'Beta', 'Gamma'], 'Beta', ['alpha', 'Ghost', 'user'])).toEqual(['human', '*', 'Alpha', 'Gamma', 'Ghost', 'user']);
    expect(choicesFor('signals', [], 'Beta', ['SHOUT'])).toEqual(['SPAWN', 'RETURN', 'BLOCKED_ON', 'CHECKPOINT', 'HANDOFF', 'ESCALATE', 'ERROR', 'SHOUT']);
    expect(choicesFor('zoneAccess', [], 'Beta', null)).toEqual(['kernel', 'project', 'personal']);
  });

  it('matches names case-insensitively when checking and unchecking', () => {
    expect(hasValue(['alpha'], 'Alpha')).toBe(true);
    expect(hasValue(null, 'Alpha')).toBe(false);
    expect(withValue(['alpha', 'human'], 'Alpha', false)).toEqual(['human']);
    expect(withValue(['human'], 'Alpha', true)).toEqual(['human', 'Alpha']);
    expect(withValue(['Alpha'], 'alpha', true)).toEqual(['alpha']);
  });

  it('reads * and human plainly', () => {
    expect(choiceLabel('sendsTo', '*')).toBe('anyone (*)');
    expect(choiceLabel('receivesFrom', 'human')).toBe('you (human)');
    expect(choiceLabel('signals', 'SPAWN')).toBe('SPAWN');
  });
});

describe('the card summary', () => {
  it('names the declared fields only', () => {
    expect(summarizeIpc({ receivesFrom: ['human'], sendsTo: ['Alpha'] })).toBe('from: human · to: Alpha');
    expect(summarizeIpc({ sendsTo: [], zoneAccess: ['project'], signals: [] })).toBe('to: nobody · signals: none · zones: project');
    expect(summarizeIpc(null)).toBeNull();
    expect(summarizeIpc({})).toBeNull();
  });
});
