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

  it('never say "asking" for a message: a lighter "sent to … (queued)" while it waits, then nothing', async () => {
    const { h, cell } = await alphaAndBeta();
    h.gateway.push({ events: [{ type: 'agentActivity', root: '/p', agentId: 'a2', activity: 'busy', queueDepth: 0 }] });
    h.gateway.push({ events: [{ type: 'delegation', root: '/p', ticket: 'm1', from: 'a1', to: 'a2', kind: 'message', state: 'queued' }] });
    await settle();
    const sent = within(cell('n1')).getByTestId('delegation-badge');
    expect(sent).toHaveTextContent('⇢ sent to Beta (queued)');
    expect(sent).toHaveAttribute('data-kind', 'message');

    h.gateway.push({ events: [{ type: 'delegation', root: '/p', ticket: 'm1', from: 'a1', to: 'a2', kind: 'message', state: 'active' }] });
    await settle();
    expect(within(cell('n1')).queryByTestId('delegation-badge')).not.toBeInTheDocument();
    expect(within(cell('n2')).getByTestId('delegation-badge')).toHaveTextContent('⇠ from Alpha');
    expect(cell('n1').textContent).not.toMatch(/asking|waiting/);
  });

  it('show at most two arrows, then +N with the whole list in its tooltip', async () => {
    const { h, cell } = await alphaAndBeta();
    const asks = ['t1', 't2', 't3', 't4'].map((ticket, i) => ({
      type: 'delegation' as const,
      root: '/p',
      ticket,
      from: 'a1',
      to: 'a2',
      kind: 'ask' as const,
      state: i === 0 ? ('active' as const) : ('queued' as const),
    }));
    h.gateway.push({ events: asks });
    await settle();
    const header = within(cell('n1'));
    expect(header.getAllByTestId('delegation-badge').map((b) => b.dataset.ticket)).toEqual(['t1', 't2']);
    const more = header.getByTestId('delegation-more');
    expect(more).toHaveTextContent('+2');
    expect(more.getAttribute('title')?.split('\n')).toEqual(['⇢ asking Beta', '⇢ asking Beta (queued)', '⇢ asking Beta (queued)', '⇢ asking Beta (queued)']);
    expect(within(cell('n1')).getByText('Alpha')).toBeInTheDocument();
  });
});
