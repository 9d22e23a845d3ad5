import type { AgentDTO, AgentInput } from '../../lib/ports';

export const MAX_AGENT_NAME = 64;

export interface AgentFormErrors {
  name?: string;
  profileId?: string;
}

/**
 * Checks an agent form before it is sent: a name (≤ 64 characters, unique in the project,
 * case-insensitive) and a known profile. `editingId` is the agent being edited, if any.
 */
export function validateAgent(
  input: AgentInput,
  agents: readonly AgentDTO[],
  profileIds: readonly string[],
  editingId: string | null = null,
): AgentFormErrors {
  const errors: AgentFormErrors = {};
  const name = input.name.trim();
  if (!name) errors.name = 'Name is required.';
  else if (name.length > MAX_AGENT_NAME) errors.name = `Name is longer than ${MAX_AGENT_NAME} characters.`;
  else if (agents.some((a) => a.agentId !== editingId && a.name.trim().toLowerCase() === name.toLowerCase())) {
    errors.name = `An agent named “${name}” already exists.`;
  }
  if (!input.profileId) errors.profileId = 'Choose a profile.';
  else if (profileIds.length > 0 && !profileIds.includes(input.profileId)) errors.profileId = 'Unknown profile.';
  return errors;
}

export function hasErrors(errors: AgentFormErrors): boolean {
  return Object.keys(errors).length > 0;
}
