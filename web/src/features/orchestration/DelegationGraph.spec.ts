import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../lib/ports';
import { agent, harness, openProject, project, settle } from '../../test/harness';

function setup() {
  return harness({ projects: [project('/p', { agents: [agent('a1', 'Alpha'), agent('a2', 'Beta'), agent('a3', 'Gamma')] })] });
}

const edges = () =>
  screen.queryAllByTestId('graph-edge').map((e) => `${e.dataset.from}>${e.dataset.to}:${e.dataset.state}`);

describe('the delegation graph', () => {
  it('opens from the agents panel header with what orchestration.graph says, named', async () => {
    const h = setup();
    // Delegations from before this window opened the project: no push of them reached it.
    h.gateway.backend.ask('/p', 'a1', 'a2', 'review');
    h.gateway.backend.ask('/p', 'user', 'a1', 'plan');
    await openProject(h);
    await settle();
    expect(screen.queryByTestId('delegation-graph')).not.toBeInTheDocument();

    await fireEvent.click(screen.getByTestId('open-graph'));
    const graph = screen.getByTestId('delegation-graph');
    await waitFor(() => expect(edges()).toEqual(['a1>a2:queued', 'user>a1:queued']));
    // read when the tab opened, and again when the graph opened
    expect(h.gateway.callsOf('orchestration.graph')).toEqual([['/p'], ['/p']]);
    const rows = within(graph).getAllByTestId('graph-edge');
    expect(rows[0]).toHaveTextContent('Alpha → Beta queued');
    expect(rows[1]).toHaveTextContent('You → Alpha queued');
    expect(rows[0]).toHaveAttribute('data-ticket', 't1');

    await fireEvent.click(screen.getByTestId('open-graph'));
    expect(screen.queryByTestId('delegation-graph')).not.toBeInTheDocument();
  });

  it('stays live from the delegation pushes: a turn starts, ends, a new ask appears', async () => {
    const h = setup();
    await openProject(h);
    await fireEvent.click(screen.getByTestId('open-graph'));
    expect(await screen.findByTestId('graph-empty')).toHaveTextContent('Nobody waits on anybody.');

    h.gateway.backend.ask('/p', 'a1', 'a2', 'review');
    h.gateway.backend.ask('/p', 'a3', 'a2', 'also review');
    await settle();
    expect(edges()).toEqual(['a1>a2:queued', 'a3>a2:queued']);

    await h.workspace.activeTab!.launchAgent('a2', 'n1', 80, 24);
    await waitFor(() => expect(edges()).toEqual(['a1>a2:active', 'a3>a2:queued']));
    expect(screen.getAllByTestId('graph-edge')[0]).toHaveTextContent('Alpha → Beta working on it');

    h.gateway.backend.finishTurn('a2');
    await settle();
    expect(edges()).toEqual(['a3>a2:active']);
    h.gateway.backend.finishTurn('a2', { state: 'failed', reason: 'TIMEOUT' });
    await settle();
    expect(edges()).toEqual([]);
    expect(h.gateway.callsOf('orchestration.graph')).toHaveLength(2); // the tab's and the dialog's reads
  });

  it("draws a message (the user's send) with a lighter arrow: nobody waits on it", async () => {
    const h = setup();
    await openProject(h);
    await h.workspace.activeTab!.sendTask(['a2'], 'fyi');
    h.gateway.backend.ask('/p', 'a1', 'a2', 'review');
    await fireEvent.click(screen.getByTestId('open-graph'));
    await waitFor(() => expect(edges()).toEqual(['user>a2:queued', 'a1>a2:queued']));
    const [message, ask] = screen.getAllByTestId('graph-edge');
    expect(message).toHaveAttribute('data-kind', 'message');
    expect(within(message).getByLabelText('sent a message to')).toBeInTheDocument();
    expect(ask).toHaveAttribute('data-kind', 'ask');
    expect(within(ask).getByLabelText('waits on')).toBeInTheDocument();
  });

  it('keeps what a push said while the graph was being read', async () => {
    const h = setup();
    h.gateway.backend.ask('/p', 'a1', 'a2', 'review');
    await openProject(h);
    const tab = h.workspace.activeTab!;
    const reading = tab.loadGraph();
    // Heard while the call is under way: newer than the snapshot, which still lists t1 queued.
    h.gateway.push({
      events: [
        { type: 'delegation', root: '/p', ticket: 't1', from: 'a1', to: 'a2', kind: 'ask', state: 'done' },
        { type: 'delegation', root: '/p', ticket: 't9', from: 'a3', to: 'a1', kind: 'ask', state: 'active' },
      ],
    });
    await reading;
    expect(tab.graph.map((d) => `${d.ticket}:${d.state}`)).toEqual(['t9:active']);
  });

  it('says when the graph cannot be read, and still follows the pushes', async () => {
    const h = setup();
    await openProject(h);
    await settle();
    h.gateway.failNext('orchestration.graph', new GatewayError('INTERNAL', 'orchestrator gone'));
    await fireEvent.click(screen.getByTestId('open-graph'));
    expect(await screen.findByTestId('graph-error')).toHaveTextContent('orchestrator gone');
    h.gateway.backend.ask('/p', 'user', 'a3', 'hello');
    await settle();
    expect(edges()).toEqual(['user>a3:queued']);

    await fireEvent.click(screen.getByTestId('graph-refresh'));
    await waitFor(() => expect(screen.queryByTestId('graph-error')).not.toBeInTheDocument());
  });
});
