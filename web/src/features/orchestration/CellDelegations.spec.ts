import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { agent, harness, layoutDoc, openProject, project, settle, splitOf } from '../../test/harness';

/** Alpha in cell n1 and Beta in cell n2, side by side. */
async function alphaAndBeta() {
  const h = harness({
    projects: [project('/p', { agents: [agent('a1', 'Alpha'), agent('a2', 'Beta')], layouts: layoutDoc(splitOf(['n1', 'n2'])) })],
  });
  await openProject(h);
  const tab = h.workspace.activeTab!;
  await tab.launchAgent('a1', 'n1', 80, 24);
  await tab.launchAgent('a2', 'n2', 80, 24);
  await settle();
  const cell = (nodeId: string) => screen.getAllByTestId('cell').find((c) => c.dataset.nodeId === nodeId)!;
  return { h, cell };
}

describe('agent cell headers', () => {
  it('show the activity from agentActivity pushes', async () => {
    const { h, cell } = await alphaAndBeta();
    expect(within(cell('n2')).getByTestId('cell-activity')).toHaveAttribute('data-activity', 'idle');
    h.gateway.push({ events: [{ type: 'agentActivity', root: '/p', agentId: 'a2', activity: 'busy', queueDepth: 1 }] });
    await settle();
    expect(within(cell('n2')).getByTestId('cell-activity')).toHaveAttribute('data-activity', 'busy');
    expect(within(cell('n1')).getByTestId('cell-activity')).toHaveAttribute('data-activity', 'idle');
  });

  it('draw "⇠ from Alpha" on the target and "⇢ asking Beta" on the requester while a delegation runs', async () => {
    const { h, cell } = await alphaAndBeta();
    h.gateway.backend.ask('/p', 'a1', 'a2', 'check the tests');
    await settle();

    const onBeta = within(cell('n2')).getByTestId('delegation-badge');
    expect(onBeta).toHaveTextContent('⇠ from Alpha');
    expect(onBeta).toHaveAttribute('data-direction', 'from');
    expect(onBeta).toHaveAttribute('data-ticket', 't1');
    const onAlpha = within(cell('n1')).getByTestId('delegation-badge');
    expect(onAlpha).toHaveTextContent('⇢ asking Beta');
    expect(onAlpha).toHaveAttribute('data-state', 'active');

    h.gateway.backend.finishTurn('a2');
    await settle();
    expect(within(cell('n2')).getByTestId('delegation-badge')).toHaveAttribute('data-state', 'done');
    await waitFor(() => expect(screen.queryAllByTestId('delegation-badge')).toHaveLength(0), { timeout: 6000 });
  }, 10_000);

  it('show a queued ask only on the requester until its turn starts', async () => {
    const { h, cell } = await alphaAndBeta();
    h.gateway.backend.ask('/p', 'a1', 'a2', 'first');
    h.gateway.backend.ask('/p', 'a1', 'a2', 'second');
    await settle();
    expect(within(cell('n2')).getAllByTestId('delegation-badge').map((b) => b.dataset.ticket)).toEqual(['t1']);
    expect(within(cell('n1')).getAllByTestId('delegation-badge').map((b) => b.textContent?.trim())).toEqual([
      '⇢ asking Beta',
      '⇢ asking Beta (queued)',
    ]);
  });
});
