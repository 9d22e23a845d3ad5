import { describe, expect, it } from 'vitest';
import { closedShellMessage } from './closed-shell';

describe('closedShellMessage', () => {
  it('names the shell, the undo shortcut and the grace in seconds', () => {
    expect(closedShellMessage('bash 1', 30_000)).toBe('bash 1 closed: undo (Ctrl+Alt+Z) within 30 s brings it back, still running');
    expect(closedShellMessage(undefined, 400)).toBe('The shell closed: undo (Ctrl+Alt+Z) within 1 s brings it back, still running');
  });
});
