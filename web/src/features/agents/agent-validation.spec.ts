import { describe, expect, it } from 'vitest';
import type { AgentDTO } from '../../lib/ports';
import { hasErrors, validateAgent } from './agent-validation';

const existing: AgentDTO[] = [
  { agentId: 'a1', name: 'Reviewer', mdPath: 'agents/reviewer.md', profileId: 'shell', synchronized: false, skills: [], running: false, activity: 'stopped', queueDepth: 0 },
];

describe('validateAgent', () => {
  it('accepts a new, named agent with a known profile', () => {
    expect(hasErrors(validateAgent({ name: 'Coder', persona: '', profileId: 'shell' }, existing, ['shell']))).toBe(false);
  });

  it('requires a name and a profile', () => {
    const errors = validateAgent({ name: '  ', persona: '', profileId: '' }, existing, ['shell']);
    expect(errors.name).toMatch(/required/);
    expect(errors.profileId).toMatch(/profile/);
  });

  it('refuses a duplicate name except for the agent being edited', () => {
    expect(validateAgent({ name: 'reviewer', persona: '', profileId: 'shell' }, existing, ['shell']).name).toMatch(/already exists/);
    expect(validateAgent({ name: 'reviewer', persona: '', profileId: 'shell' }, existing, ['shell'], 'a1').name).toBeUndefined();
  });
});
