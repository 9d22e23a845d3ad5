import { describe, expect, it } from 'vitest';
import type { Profile } from '../../lib/ports';
import { escapeKeys, freshId, fromForm, parseEnv, toForm, unescapeKeys, unknownEscapes } from './profile-form';

const claude: Profile = {
  id: 'claude-code',
  name: 'Claude Code',
  command: 'claude',
  args: [],
  contextInjection: { strategy: 'conventionFile', target: 'CLAUDE.md' },
  projectAccess: { args: ['--add-dir', '{projectRoot}'] },
  session: { assignFlag: '--session-id', resumeFlag: '--resume' },
  structured: { protocol: 'claude-stream-json' },
  projector: 'claude-code',
};

describe('profile form', () => {
  it('round-trips a profile, keeping the keys it does not show', () => {
    expect(fromForm(claude, toForm(claude))).toEqual({ ...claude, cwdTemplate: '{agentRunDir}' });
  });

  it('drops emptied optional fields and keeps the other session keys', () => {
    const form = { ...toForm(claude), structured: '' as const, resumeFlag: '', projectAccess: '' };
    const out = fromForm(claude, form);
    expect(out.structured).toBeUndefined();
    expect(out.session).toEqual({ assignFlag: '--session-id' });
    expect(out.projectAccess).toEqual({ args: [] });
  });

  it('edits the waiting screens one a line; emptied, they stay an empty list (none wanted)', () => {
    const codex: Profile = { ...claude, id: 'codex-cli', waitingScreens: ['Sign in with ChatGPT'] };
    expect(toForm(codex).waitingScreens).toBe('Sign in with ChatGPT');
    const more = fromForm(codex, { ...toForm(codex), waitingScreens: 'Sign in with ChatGPT\n  Trust this folder  \n' });
    expect(more.waitingScreens).toEqual(['Sign in with ChatGPT', 'Trust this folder']);
    expect(fromForm(codex, { ...toForm(codex), waitingScreens: '' }).waitingScreens).toEqual([]);
    expect(fromForm(claude, toForm(claude))).not.toHaveProperty('waitingScreens');
  });

  it('prefers resume arguments over a resume flag', () => {
    const out = fromForm(claude, { ...toForm(claude), resumeArgs: 'resume\n{resumeId}' });
    expect(out.session).toEqual({ assignFlag: '--session-id', resumeArgs: ['resume', '{resumeId}'] });
  });

  it('escapes the submit keys both ways and reads KEY=value lines', () => {
    expect(unescapeKeys('\\r\\n\\e\\\\x\\q')).toBe('\r\n\x1b\\x\\q');
    expect(escapeKeys('\r\n\x1b\\')).toBe('\\r\\n\\e\\');
    // A trial typed `\q\z`: kept as typed, it came back doubled (`\\q\\z`) on reopening.
    for (const typed of ['\\q\\z', '\\\\r', '\\', 'a\\\\', '\\\r', '\\q\\\\']) {
      expect(unescapeKeys(escapeKeys(unescapeKeys(typed)))).toBe(unescapeKeys(typed));
    }
    expect(escapeKeys(unescapeKeys('\\q\\z'))).toBe('\\q\\z');
    expect(parseEnv('=x\nA=1\n=y')).toEqual({ env: { A: '1' }, bad: [1, 3] });
    expect(parseEnv('A=1\nbad\n\nB==2')).toEqual({ env: { A: '1', B: '=2' }, bad: [2] });
  });

  it('names the escapes that are no key, as unescapeKeys reads them', () => {
    expect(unknownEscapes('\\q\\z\\q\\r')).toEqual(['\\q', '\\z']);
    expect(unknownEscapes('\\\\q')).toEqual([]); // an escaped backslash, then q
    expect(unknownEscapes('\\r\\n\\t\\e')).toEqual([]);
  });

  it('picks a fresh id for a copy', () => {
    expect(freshId('shell', ['shell'])).toBe('shell-copy');
    expect(freshId('shell', ['shell', 'shell-copy'])).toBe('shell-copy-2');
  });
});
