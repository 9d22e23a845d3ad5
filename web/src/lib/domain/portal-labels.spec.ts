import { describe, expect, it } from 'vitest';
import { activityOnScreen, shortTicket, waitingNotice } from './portal-labels';

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

describe('activityOnScreen', () => {
  it('shows "needs you" while the screen waits for the human, and the activity otherwise', () => {
    expect(activityOnScreen('idle', 'Sign in with ChatGPT')).toEqual({
      activity: 'waiting',
      why: 'Needs you: the terminal shows “Sign in with ChatGPT” (answer it there)',
    });
    expect(activityOnScreen('busy', 'Do you trust this folder?').activity).toBe('waiting');
    expect(activityOnScreen('idle', null)).toEqual({ activity: 'idle', why: null });
    expect(activityOnScreen('stopped', 'Sign in with ChatGPT')).toEqual({ activity: 'stopped', why: null });
    expect(activityOnScreen('blocked', 'Sign in with ChatGPT').activity).toBe('blocked');
  });
});
