import { fireEvent, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { AgentActivity, PushEvent } from '../../lib/ports';
import { agent, harness, openProject, project, settle } from '../../test/harness';

const alpha = agent('a1', 'Alpha');
const beta = agent('a2', 'Beta');

/** /p with Beta launched in its cell n1 (session s1), and /q; `/q` shown when `away`. */
async function twoProjects(away: boolean) {
  const h = harness({ projects: [project('/p', { agents: [alpha, beta] }), project('/q')] });
  await openProject(h, '/p');
  await h.workspace.activeTab!.launchAgent('a2', 'n1', 80, 24);
  await screen.findByTestId('terminal');
  await settle();
  if (away) await h.workspace.open('/q');
  await settle();
  return h;
}

const activity = (a: AgentActivity): PushEvent => ({ type: 'agentActivity', root: '/p', agentId: 'a2', activity: a, queueDepth: 0 });

describe('notifications about agents out of sight', () => {
  it('toasts "Beta finished" and dots its tab when Beta ends a turn in another tab; the toast leads there', async () => {
    const h = await twoProjects(true);
    h.gateway.push({ events: [activity('busy')] });
    await settle();
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();

    h.gateway.push({ events: [activity('idle')] });
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Beta finished');
    expect(screen.getByTestId('tab-p')).toContainElement(screen.getByTestId('tab-attention'));

    await fireEvent.click(toast.querySelector('button')!);
    expect(h.workspace.activeRoot).toBe('/p');
    expect(screen.queryByTestId('tab-attention')).not.toBeInTheDocument();
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
    expect(h.workspace.activeTab!.highlightedNodeId).toBe('n1');
  });

  it('says when an agent in another tab waits for input', async () => {
    const h = await twoProjects(true);
    h.gateway.push({ events: [activity('busy'), activity('waiting')] });
    expect(await screen.findByTestId('toast')).toHaveTextContent('Beta is waiting for your input');
    expect(screen.getByTestId('tab-attention')).toBeInTheDocument();
  });

  it('stays quiet for an agent whose cell is in sight', async () => {
    const h = await twoProjects(false);
    h.gateway.push({ events: [activity('busy'), activity('idle'), activity('waiting')] });
    await settle();
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
    expect(screen.queryByTestId('tab-attention')).not.toBeInTheDocument();
  });

  it('toasts for an agent of the shown tab that no cell shows, without a tab dot', async () => {
    const h = harness({ projects: [project('/p', { agents: [beta] })] });
    await openProject(h, '/p');
    h.gateway.push({ events: [activity('busy'), activity('waiting')] });
    expect(await screen.findByTestId('toast')).toHaveTextContent('Beta is waiting for your input');
    expect(screen.queryByTestId('tab-attention')).not.toBeInTheDocument();
  });

  it('clears the tab dot when the tab is shown', async () => {
    const h = await twoProjects(true);
    h.gateway.push({ events: [activity('busy'), activity('stopped')] });
    expect(await screen.findByTestId('toast')).toHaveTextContent('Beta stopped');
    await fireEvent.click(screen.getByTestId('tab-p'));
    await waitFor(() => expect(screen.queryByTestId('tab-attention')).not.toBeInTheDocument());
    expect(h.workspace.activeRoot).toBe('/p');
  });

  it('counts finished turns in one toast per agent instead of piling them up', async () => {
    const h = await twoProjects(true);
    for (let i = 0; i < 7; i++) h.gateway.push({ events: [activity('busy'), activity('idle')] });
    await settle();
    const toasts = screen.getAllByTestId('toast');
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toHaveTextContent('Beta finished 7 tasks');
  });

  it("toasts the turns the user sent, not those one agent asked of another (unless they fail)", async () => {
    const h = await twoProjects(true);
    h.gateway.backend.ask('/p', 'a1', 'a2', 'review');
    await settle();
    h.gateway.backend.finishTurn('a2');
    await settle();
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
    expect(screen.queryByTestId('tab-attention')).not.toBeInTheDocument();

    await h.gateway.orchestration.send('/p', ['a2'], 'status?');
    await settle();
    h.gateway.backend.finishTurn('a2');
    expect(await screen.findByTestId('toast')).toHaveTextContent('Beta finished');

    h.gateway.backend.ask('/p', 'a1', 'a2', 'again');
    await settle();
    h.gateway.backend.finishTurn('a2', { state: 'failed', reason: 'TIMEOUT' });
    await settle();
    expect(screen.getAllByTestId('toast').map((t) => t.textContent)).toEqual([
      expect.stringContaining('Beta finished'),
      expect.stringContaining('Task for Beta from Alpha failed: TIMEOUT'),
    ]);
  });

  it('says an ask whose asker gave up is withdrawn, without an alarm', async () => {
    const h = await twoProjects(false);
    h.gateway.push({ events: [{ type: 'delegation', root: '/p', ticket: 't5', from: 'a1', to: 'a2', kind: 'ask', state: 'failed', reason: 'CANCELLED' }] });
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Alpha gave up on its task for Beta: withdrawn');
    expect(toast).not.toHaveAttribute('role', 'alert');
  });

  it('toasts a failed delegation with its reason code, in sight or not', async () => {
    const h = await twoProjects(false);
    h.gateway.push({ events: [{ type: 'delegation', root: '/p', ticket: 't4', from: 'user', to: 'a2', kind: 'ask', state: 'failed', reason: 'TIMEOUT' }] });
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Task for Beta from you failed: TIMEOUT');
    expect(toast).toHaveAttribute('role', 'alert');
  });
});
