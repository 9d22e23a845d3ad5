import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../App.svelte';
import { BUILTIN_PROFILES } from '../../lib/adapters/mock';
import { agent, harness, project } from '../../test/harness';

describe('AgentsPanel', () => {
  it('shows the raw id, with a warning, for an agent whose profile is not configured', async () => {
    const h = harness({
      profiles: BUILTIN_PROFILES.filter((p) => p.id === 'shell'),
      projects: [project('/p', { agents: [agent('a1', 'Coder', 'claude-code'), agent('a2', 'Helper', 'shell')] })],
    });
    render(App, { props: { services: h }, context: h.context });
    await h.workspace.start();
    await h.workspace.open('/p');

    const items = await screen.findAllByTestId('agent-item');
    expect(items).toHaveLength(2);
    const missing = screen.getByTestId('agent-profile-missing');
    expect(items[0]).toContainElement(missing);
    expect(missing).toHaveTextContent('claude-code');
    expect(missing).toHaveClass('missing');
    expect(items[1]).toHaveTextContent('Shell');
    expect(screen.getAllByTestId('agent-profile-missing')).toHaveLength(1);
  });
});
