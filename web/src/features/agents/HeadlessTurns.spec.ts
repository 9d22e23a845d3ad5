import { fireEvent, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { agent, harness, openProject, project, settle } from '../../test/harness';

const card = (agentId: string) => screen.getAllByTestId('agent-item').find((c) => c.dataset.agentId === agentId)!;

describe("an agent's headless turns on its card", () => {
  it('shows the task, the tools, the answer as it streams then the final, or the CLI words', async () => {
    const h = harness({ projects: [project('/p', { agents: [agent('a1', 'Alpha'), agent('a2', 'Gem')] })] });
    await openProject(h);
    expect(within(card('a2')).queryByTestId('headless-turns')).not.toBeInTheDocument();

    h.gateway.backend.headless('a2', 't1', 'started', 'review app/x.py');
    h.gateway.backend.headless('a2', 't1', 'text', 'Hello ');
    h.gateway.backend.headless('a2', 't1', 'tool', 'Run ls execute');
    await settle();
    const turn = within(card('a2')).getByTestId('headless-turn');
    expect(turn).toHaveAttribute('data-state', 'running');
    expect(turn).toHaveTextContent('review app/x.py');
    expect(within(turn).getByTestId('headless-line')).toHaveTextContent('Run ls execute');
    expect(within(turn).getByTestId('headless-answer')).toHaveTextContent('Hello');

    h.gateway.backend.headless('a2', 't1', 'final', 'Hello world');
    h.gateway.backend.headless('a2', 't2', 'started', 'deploy');
    h.gateway.backend.headless('a2', 't2', 'error', 'Not logged in · Please run /login');
    await settle();
    const last = within(card('a2')).getByTestId('headless-turn');
    expect(last).toHaveAttribute('data-state', 'failed');
    expect(within(last).getByTestId('headless-error')).toHaveTextContent('Not logged in · Please run /login');
    await fireEvent.click(within(card('a2')).getByTestId('headless-earlier'));
    const all = within(card('a2')).getAllByTestId('headless-turn');
    expect(all.map((t) => t.dataset.ticket)).toEqual(['t2', 't1']);
    expect(within(all[1]).getByTestId('headless-answer')).toHaveTextContent('Hello world');
  });

  it('a window opening the project sees the turns already done (orchestration.transcript)', async () => {
    const h = harness({ projects: [project('/p', { agents: [agent('a2', 'Gem')] })] });
    await openProject(h);
    h.gateway.backend.headless('a2', 't1', 'started', 'summarise');
    h.gateway.backend.headless('a2', 't1', 'final', 'a summary');
    await h.workspace.close('/p');
    await settle();
    await h.workspace.open('/p');
    await settle();
    expect(within(card('a2')).getByTestId('headless-answer')).toHaveTextContent('a summary');
    expect(h.gateway.callsOf('orchestration.transcript')).toContainEqual(['/p', 'a2']);
  });
});
