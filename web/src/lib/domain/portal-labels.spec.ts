import { describe, expect, it } from 'vitest';
import { shortTicket, waitingNotice } from './portal-labels';

describe('portal labels', () => {
  it('shortens a ticket to its first 8 characters', () => {
    expect(shortTicket('6f1c2a9e-4b7d-4f0e-9a55-0c3d2e1f7b88')).toBe('6f1c2a9e');
    expect(shortTicket('t1')).toBe('t1');
  });

  it('says how many tasks wait and how to clear the line', () => {
    expect(waitingNotice(1)).toBe('1 task waits for an empty prompt line — press Enter or Ctrl-U');
    expect(waitingNotice(3)).toBe('3 tasks wait for an empty prompt line — press Enter or Ctrl-U');
  });
});
