import { createEvent, fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { activeRoot, leaves } from '../../lib/domain/layout-tree';
import { agent, harness, openProject, project, settle, splitOf, layoutDoc } from '../../test/harness';
import { SESSION_DRAG_TYPE } from './drag';

const coder = agent('a1', 'Coder');

function storedLeaves(h: ReturnType<typeof harness>, root = '/p') {
  return leaves(activeRoot(h.gateway.backend.projects.get(root)!.layouts));
}

/** Two cells: a shell in n1, n2 empty; plus a shell detached to the background. */
async function twoShells() {
  const h = harness({ projects: [project('/p', { agents: [coder], layouts: layoutDoc(splitOf(['n1', 'n2'])) })] });
  await openProject(h);
  const tab = h.workspace.activeTab!;
  await tab.openShell('n1', 80, 24); // s1
  await tab.openShell('n2', 80, 24); // s2
  await settle();
  await tab.detachCell('n2'); // s2 runs in the background
  await settle();
  return { h, tab };
}

function row(sessionId: string): HTMLElement {
  return screen.getAllByTestId('session-item').find((r) => r.dataset.sessionId === sessionId)!;
}

describe('SessionsPanel', () => {
  it('lists every live session, shown or in the background, plain shells included', async () => {
    const { h } = await twoShells();
    const rows = screen.getAllByTestId('session-item');
    expect(rows.map((r) => [r.dataset.sessionId, r.dataset.kind, r.dataset.shown])).toEqual([
      ['s1', 'shell', 'cell'],
      ['s2', 'shell', 'background'],
    ]);
    expect(within(row('s2')).getByTestId('session-where')).toHaveTextContent('in the background');
    expect(within(row('s1')).getByTestId('session-where')).toHaveTextContent('Cell 1');
    expect(screen.getByTestId('sessions-count')).toHaveTextContent('2');
    expect(h.gateway.callsOf('terminals.kill')).toEqual([]);
  });

  it('“Open in cell” shows a background session in the focused cell (what it showed detaches)', async () => {
    const { h, tab } = await twoShells();
    tab.focusCell('n2');
    await settle();
    await fireEvent.click(within(row('s2')).getByTestId('session-open-here'));
    await waitFor(() => expect(storedLeaves(h)).toEqual([{ id: 'n1', session: 's1' }, { id: 'n2', session: 's2' }]));
    expect(h.gateway.callsOf('layout.showSession')).toEqual([['/p', 's2', 'n2']]);
  });

  it('“Move to…” moves a shown session to another cell', async () => {
    const { h } = await twoShells();
    const select = within(row('s1')).getByTestId<HTMLSelectElement>('session-move');
    expect([...select.options].map((o) => o.textContent)).toEqual(['Move to…', 'Cell 2 · empty']);
    await fireEvent.change(select, { target: { value: 'n2' } });
    await waitFor(() => expect(storedLeaves(h)).toEqual([{ id: 'n1' }, { id: 'n2', session: 's1' }]));
  });

  it('detach empties its cell and keeps it running; stop asks first, then kills', async () => {
    const { h } = await twoShells();
    await fireEvent.click(within(row('s1')).getByTestId('session-detach'));
    await waitFor(() => expect(row('s1').dataset.shown).toBe('background'));
    expect(h.gateway.callsOf('terminals.kill')).toEqual([]);

    await fireEvent.click(within(row('s1')).getByTestId('session-stop'));
    await fireEvent.click(within(row('s1')).getByTestId('cancel-stop-session'));
    expect(h.gateway.callsOf('terminals.kill')).toEqual([]);
    await fireEvent.click(within(row('s1')).getByTestId('session-stop'));
    await fireEvent.click(within(row('s1')).getByTestId('confirm-stop-session'));
    await waitFor(() => expect(h.gateway.callsOf('terminals.kill')).toEqual([['s1']]));
    await waitFor(() => expect(screen.getAllByTestId('session-item').map((r) => r.dataset.sessionId)).toEqual(['s2']));
  });

  it('a session dragged from the panel onto a cell shows there', async () => {
    const { h } = await twoShells();
    const target = screen.getAllByTestId('cell').find((c) => c.dataset.nodeId === 'n2')!;
    const data = new Map<string, string>();
    const dataTransfer = {
      types: [] as string[],
      setData: (type: string, value: string) => {
        data.set(type, value);
        dataTransfer.types = [...data.keys()];
      },
      getData: (type: string) => data.get(type) ?? '',
      effectAllowed: 'all',
      dropEffect: 'none',
    };
    await fireEvent.dragStart(row('s2'), { dataTransfer });
    expect(data.get(SESSION_DRAG_TYPE)).toBe('s2');
    const over = createEvent.dragOver(target, { dataTransfer });
    await fireEvent(target, over);
    expect(over.defaultPrevented).toBe(true); // the cell accepts the drop
    await fireEvent.drop(target, { dataTransfer });
    await waitFor(() => expect(storedLeaves(h)).toEqual([{ id: 'n1', session: 's1' }, { id: 'n2', session: 's2' }]));
  });

  it('a session shown in another named layout says which, not "in the background"', async () => {
    // Trial: an agent shown in Layout 2 was listed "in the background" while Default was shown.
    const { tab } = await twoShells();
    expect(await tab.editNamedLayout({ kind: 'createLayout', name: 'Work' })).toBeNull();
    await settle();
    expect(row('s1').dataset.shown).toBe('layout');
    expect(within(row('s1')).getByTestId('session-where')).toHaveTextContent('in layout Default');
    expect(within(row('s2')).getByTestId('session-where')).toHaveTextContent('in the background');
  });

  it('an agent whose CLI failed says so on its card, not just "stopped"', async () => {
    // Trial: an offline Claude Code quit with code 1 in its cell; its card read "stopped".
    const h = harness({ projects: [project('/p', { agents: [coder] })] });
    await openProject(h);
    const tab = h.workspace.activeTab!;
    await tab.launchAgent('a1', 'n1', 80, 24);
    await settle();
    const card = screen.getByTestId('agent-item');
    expect(within(card).queryByTestId('agent-exited')).not.toBeInTheDocument();
    h.gateway.push({ events: [{ type: 'sessionExited', root: '/p', sessionId: 's1', exitCode: 1 }, { type: 'agentStateChanged', root: '/p', agentId: 'a1', state: 'stopped' }] });
    await settle();
    expect(within(card).getByTestId('agent-exited')).toHaveTextContent('exit 1');
    expect(within(card).getByTestId('agent-exited')).toHaveAttribute('title', 'Its last run ended with exit code 1: its terminal shows why');
    // The user's Stop (a signal, 128 and above) is no failure.
    h.gateway.push({ events: [{ type: 'sessionExited', root: '/p', sessionId: 's1', exitCode: 143 }] });
    await settle();
    expect(within(card).queryByTestId('agent-exited')).not.toBeInTheDocument();
  });

  it('an agent shows its state; once detached it can be stopped, then deleted from its card', async () => {
    const h = harness({ projects: [project('/p', { agents: [coder] })] });
    await openProject(h);
    const tab = h.workspace.activeTab!;
    await tab.launchAgent('a1', 'n1', 80, 24);
    await settle();
    expect(within(row('s1')).getByTestId('session-activity')).toBeInTheDocument();
    await fireEvent.click(within(row('s1')).getByTestId('session-detach'));
    await waitFor(() => expect(row('s1').dataset.shown).toBe('background'));

    const card = screen.getByTestId('agent-item');
    // Running: Delete is off (a trial asked "Delete?" and then failed), and says why.
    expect(within(card).getByTestId('delete-agent')).toBeDisabled();
    expect(within(card).getByTestId('delete-agent')).toHaveAttribute('title', 'Stop Coder before deleting it');
    await fireEvent.click(within(card).getByTestId('stop-agent'));
    await fireEvent.click(within(card).getByTestId('confirm-stop-agent'));
    await waitFor(() => expect(h.gateway.callsOf('terminals.kill')).toEqual([['s1']]));
    await waitFor(() => expect(within(card).queryByTestId('stop-agent')).not.toBeInTheDocument());
    await fireEvent.click(within(card).getByTestId('delete-agent'));
    // The question says the persona file is kept (a trial's new agent of that name wrote over it).
    expect(card).toHaveTextContent('Delete Coder? Its persona file stays.');
    await fireEvent.click(within(card).getByTestId('confirm-delete-agent'));
    await waitFor(() => expect(screen.queryByTestId('agent-item')).not.toBeInTheDocument());
    expect(h.gateway.callsOf('agents.delete')).toEqual([['/p', 'a1']]);
  });
});
