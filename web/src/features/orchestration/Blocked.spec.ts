import { screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { agent, harness, openProject, project, settle } from '../../test/harness';

/** Beta launched in cell n1 and working on a task from Alpha. */
async function betaWorking() {
  const h = harness({ projects: [project('/p', { agents: [agent('a1', 'Alpha'), agent('a2', 'Beta')] })] });
  await openProject(h);
  await h.workspace.activeTab!.launchAgent('a2', 'n1', 80, 24);
  await screen.findByTestId('terminal');
  await settle();
  h.gateway.backend.ask('/p', 'a1', 'a2', 'publish the package');
  await settle();
  return h;
}

const card = (agentId: string) => screen.getAllByTestId('agent-item').find((c) => c.dataset.agentId === agentId)!;
const cell = () => screen.getByTestId('cell');

describe('a blocked agent', () => {
  it('shows what it is blocked on, on its card and in its cell header, until its turn ends', async () => {
    const h = await betaWorking();
    expect(screen.queryByTestId('agent-blocked')).not.toBeInTheDocument();

    h.gateway.backend.reply('a2', { signal: 'BLOCKED_ON', context: 'no npm token in the environment' });
    await settle();

    expect(within(card('a2')).getByTestId('agent-activity')).toHaveAttribute('data-activity', 'blocked');
    expect(within(card('a2')).getByTestId('agent-blocked')).toHaveTextContent('blocked on: no npm token in the environment');
    const header = within(cell()).getByTestId('agent-blocked');
    expect(header).toHaveTextContent('no npm token in the environment');
    expect(header).toHaveAttribute('title', 'Blocked on: no npm token in the environment');
    expect(within(cell()).getByTestId('cell-activity')).toHaveAttribute('data-activity', 'blocked');
    expect(within(card('a1')).queryByTestId('agent-blocked')).not.toBeInTheDocument();

    h.gateway.backend.reply('a2', { signal: 'RETURN', result: 'published' });
    await settle();
    expect(screen.queryByTestId('agent-blocked')).not.toBeInTheDocument();
    expect(within(card('a2')).getByTestId('agent-activity')).toHaveAttribute('data-activity', 'idle');
  });

  it('says "blocked" when the backend gave no description, and forgets it on the next activity', async () => {
    const h = await betaWorking();
    h.gateway.push({ events: [{ type: 'agentActivity', root: '/p', agentId: 'a2', activity: 'blocked', queueDepth: 0, blockedOn: null }] });
    await settle();
    expect(within(card('a2')).getByTestId('agent-blocked')).toHaveTextContent(/^⊘ blocked$/);

    h.gateway.push({ events: [{ type: 'agentActivity', root: '/p', agentId: 'a2', activity: 'blocked', queueDepth: 0, blockedOn: 'disk full' }] });
    await settle();
    expect(within(card('a2')).getByTestId('agent-blocked')).toHaveTextContent('disk full');
    h.gateway.push({ events: [{ type: 'agentActivity', root: '/p', agentId: 'a2', activity: 'busy', queueDepth: 0 }] });
    await settle();
    expect(screen.queryByTestId('agent-blocked')).not.toBeInTheDocument();
    expect(h.workspace.activeTab!.agents.find((a) => a.agentId === 'a2')).not.toHaveProperty('blockedOn');
  });
});
