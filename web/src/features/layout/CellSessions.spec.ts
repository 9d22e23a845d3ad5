import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { leaves, activeRoot } from '../../lib/domain/layout-tree';
import { agent, harness, openProject, project, settle } from '../../test/harness';

const coder = agent('a1', 'Coder');

/** The leaves of the active layout as the mock backend has them on "disk". */
function storedLeaves(h: ReturnType<typeof harness>, root = '/p') {
  return leaves(activeRoot(h.gateway.backend.projects.get(root)!.layouts));
}

async function menuAction(cell: HTMLElement, testid: string) {
  await fireEvent.click(within(cell).getByTestId('cell-menu'));
  await fireEvent.click(within(cell).getByTestId(testid));
}

/** Coder launched into the project's one cell from its empty-cell buttons; its terminal shown. */
async function launchCoder() {
  const h = harness({ projects: [project('/p', { agents: [coder] })] });
  await openProject(h);
  await fireEvent.click(screen.getByTestId('launch-agent'));
  await fireEvent.click(await screen.findByTestId('launch-agent-option'));
  const terminal = await screen.findByTestId('terminal');
  await settle();
  return { h, terminal };
}

describe('launching into a cell', () => {
  it('takes the layouts agents.launch returns and sends no layout.edit (agentWasRunning survives)', async () => {
    const { h, terminal } = await launchCoder();
    expect(terminal.dataset.sessionId).toBe('s1');
    expect(h.gateway.callsOf('agents.launch')).toEqual([['/p', 'a1', 'n1', expect.any(Number), expect.any(Number)]]);
    expect(h.gateway.callsOf('layout.edit')).toEqual([]);
    expect(storedLeaves(h)).toEqual([{ id: 'n1', session: 's1', agent: 'a1', agentWasRunning: true }]);
    expect(leaves(h.workspace.activeTab!.layoutRoot)).toEqual(storedLeaves(h));
  });

  it("keeps the agent's name in its cell header while the agents cannot be read", async () => {
    // Trial: with agents.json broken, the header of a running agent's cell read "AGENT".
    const { h } = await launchCoder();
    const tab = h.workspace.activeTab!;
    tab.refresh({ ...project('/p'), agents: [], layouts: tab.layouts, sessions: [...tab.sessions] });
    await settle();
    expect(tab.agents).toEqual([]);
    await waitFor(() => expect(screen.getByTestId('cell').querySelector('.title')).toHaveTextContent(/^Coder$/));
  });

  it('shows the launched session from the reply alone, before any layoutChanged push', async () => {
    const h = harness({ projects: [project('/p', { agents: [coder] })] });
    await openProject(h);
    const tab = h.workspace.activeTab!;

    // resolve the launch without letting the backend's pushes (a tick later) run
    await tab.launchAgent('a1', 'n1', 80, 24);
    expect(leaves(tab.layoutRoot)).toEqual([{ id: 'n1', session: 's1', agent: 'a1', agentWasRunning: true }]);
  });

  it('opens a shell from the layouts openShell returns, with no assign', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await fireEvent.click(screen.getByTestId('open-shell'));
    await screen.findByTestId('terminal');
    await settle();
    expect(h.gateway.callsOf('layout.edit')).toEqual([]);
    expect(storedLeaves(h)).toEqual([{ id: 'n1', session: 's1' }]);
  });
});

describe('detached sessions', () => {
  it('detaches a shell without killing it, then “Show <title>” re-shows it with its scrollback', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await fireEvent.click(screen.getByTestId('open-shell'));
    await screen.findByTestId('terminal');
    await settle();

    const cell = screen.getByTestId('cell');
    await menuAction(cell, 'clear-cell');
    await waitFor(() => expect(screen.queryByTestId('terminal')).not.toBeInTheDocument());
    await settle(); // no view claims the terminal back: the hub disposes it
    expect(h.gateway.callsOf('layout.edit')).toEqual([['/p', { kind: 'assign', nodeId: 'n1' }]]);
    expect(h.gateway.callsOf('terminals.kill')).toEqual([]);
    expect(h.gateway.sessions.get('s1')?.alive).toBe(true);

    // it kept running while no cell showed it
    h.gateway.backend.sessions.get('s1')!.scrollback += 'ls\r\nREADME.md\r\n$ ';

    const show = await screen.findByTestId('show-session');
    expect(show).toHaveTextContent('Show Shell 1');
    expect(show.dataset.sessionId).toBe('s1');
    await fireEvent.click(show);

    const terminal = await screen.findByTestId('terminal');
    expect(terminal.dataset.sessionId).toBe('s1');
    expect(h.gateway.callsOf('layout.edit').at(-1)).toEqual(['/p', { kind: 'assign', nodeId: 'n1', session: 's1' }]);
    await settle();
    expect(h.gateway.callsOf('terminals.attach')).toEqual([['s1'], ['s1']]);
    expect(h.terminals.textOf('s1')).toBe('$ ls\nREADME.md\n$');
    expect(screen.queryByTestId('show-session')).not.toBeInTheDocument();
  });

  it('offers the same sessions in the ⋯ menu of an empty cell', async () => {
    const h = harness({
      projects: [project('/p', { sessions: [{ sessionId: 's7', kind: 'shell', alive: true, exitCode: null, title: 'bash' }] })],
    });
    await openProject(h);

    await fireEvent.click(screen.getByTestId('cell-menu'));
    const item = screen.getByTestId('menu-show-session');
    expect(item).toHaveTextContent('Show bash');
    expect(item.dataset.sessionId).toBe('s7');
    await fireEvent.click(item);
    expect((await screen.findByTestId('terminal')).dataset.sessionId).toBe('s7');
  });

  it('re-attaches a detached agent through agents.launch', async () => {
    const { h } = await launchCoder();

    await menuAction(screen.getByTestId('cell'), 'clear-cell');
    const show = await screen.findByTestId('show-session');
    expect(show).toHaveTextContent('Show Coder');
    await fireEvent.click(show);

    expect((await screen.findByTestId('terminal')).dataset.sessionId).toBe('s1');
    expect(h.gateway.callsOf('agents.launch')).toHaveLength(2);
    expect(h.gateway.callsOf('layout.edit')).toEqual([['/p', { kind: 'assign', nodeId: 'n1' }]]);
    expect(storedLeaves(h)).toEqual([{ id: 'n1', session: 's1', agent: 'a1', agentWasRunning: true }]);
  });

  it('offers only live sessions that no cell of the active layout shows', async () => {
    const h = harness({
      projects: [
        project('/p', {
          sessions: [
            { sessionId: 's1', kind: 'shell', alive: true, exitCode: null, title: 'shown' },
            { sessionId: 's2', kind: 'shell', alive: true, exitCode: null, title: 'detached' },
            { sessionId: 's3', kind: 'shell', alive: false, exitCode: 0, title: 'ended' },
          ],
        }),
      ],
    });
    h.gateway.backend.projects.get('/p')!.layouts!.layouts[0].tree.root = {
      type: 'split',
      node: {
        id: 'sp',
        direction: 'row',
        children: [
          { node: { type: 'leaf', node: { id: 'n1', session: 's1' } }, weight: 1 },
          { node: { type: 'leaf', node: { id: 'n2' } }, weight: 1 },
          { node: { type: 'leaf', node: { id: 'n3', session: 's3' } }, weight: 1 },
        ],
      },
    };
    await openProject(h);

    const offered = screen.getAllByTestId('show-session');
    expect(offered.map((b) => b.dataset.sessionId)).toEqual(['s2']);
    expect(within(screen.getAllByTestId('cell')[1]).getByTestId('show-session')).toBe(offered[0]);
  });
});

describe('session list of a tab', () => {
  it('starts from ProjectDTO.sessions and follows sessionStarted / sessionExited / sessionReleased', async () => {
    const h = harness({
      projects: [project('/p', { sessions: [{ sessionId: 's9', kind: 'shell', alive: true, exitCode: null, title: 'old' }] })],
    });
    await openProject(h);
    const tab = h.workspace.activeTab!;
    expect(tab.sessions.map((s) => s.sessionId)).toEqual(['s9']);

    h.gateway.push({
      events: [
        { type: 'sessionStarted', root: '/p', session: { sessionId: 's10', kind: 'agent', agentId: 'a1', alive: true, exitCode: null, title: 'Coder' } },
        { type: 'sessionStarted', root: '/other', session: { sessionId: 'x', kind: 'shell', alive: true, exitCode: null, title: 'x' } },
      ],
    });
    expect(tab.sessions.map((s) => s.sessionId)).toEqual(['s9', 's10']);
    await waitFor(() => expect(screen.getAllByTestId('show-session')).toHaveLength(2));

    h.gateway.push({ events: [{ type: 'sessionExited', root: '/p', sessionId: 's9', exitCode: 2 }] });
    expect(tab.sessions[0]).toMatchObject({ sessionId: 's9', alive: false, exitCode: 2 });
    await waitFor(() => expect(screen.getAllByTestId('show-session').map((b) => b.dataset.sessionId)).toEqual(['s10']));

    h.gateway.push({ events: [{ type: 'sessionReleased', root: '/p', sessionId: 's9' }] });
    expect(tab.sessions.map((s) => s.sessionId)).toEqual(['s10']);
  });

  it('follows the real life cycle: a closed cell’s shell runs on hidden and undo brings it back', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await fireEvent.click(screen.getByTestId('open-shell'));
    await screen.findByTestId('terminal');
    await settle();
    const tab = h.workspace.activeTab!;
    expect(tab.sessions).toEqual([{ sessionId: 's1', kind: 'shell', alive: true, exitCode: null, title: 'Shell 1' }]);

    await fireEvent.click(screen.getByTestId('split-row'));
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(2));
    await fireEvent.click(within(screen.getAllByTestId('cell')[0]).getByTestId('close-cell'));
    await settle();

    expect(h.gateway.callsOf('layout.edit').at(-1)).toEqual(['/p', { kind: 'close', nodeId: 'n1' }]);
    expect(tab.sessions).toEqual([{ sessionId: 's1', kind: 'shell', alive: true, exitCode: null, title: 'Shell 1' }]);
    expect(h.workspace.toasts.list.map((t) => t.message)).toEqual([
      'Shell 1 closed: undo (Ctrl+Alt+Z) within 30 s brings it back, still running',
    ]);

    await menuAction(screen.getAllByTestId('cell')[0], 'undo-layout');
    await waitFor(() => expect(screen.getByTestId('terminal').dataset.sessionId).toBe('s1'));
    expect(tab.sessions[0]).toMatchObject({ sessionId: 's1', alive: true });
    await waitFor(() => expect(h.workspace.toasts.list).toEqual([])); // it is back: the toast goes
  });

  it('kills a busy shell at once when the user confirms Kill on closing its cell', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await fireEvent.click(screen.getByTestId('open-shell'));
    await screen.findByTestId('terminal');
    await settle();
    h.gateway.backend.busySessions.set('s1', 'sleep');
    await fireEvent.click(screen.getByTestId('close-cell'));
    await fireEvent.click(await screen.findByTestId('confirm-kill'));
    await settle();

    expect(h.gateway.callsOf('layout.edit').at(-1)).toEqual(['/p', { kind: 'close', nodeId: 'n1', kill: true }]);
    expect(h.workspace.activeTab!.sessions).toEqual([]);
    expect(h.terminals.statusOf('s1')).toBeUndefined();
    expect(h.workspace.toasts.list).toEqual([]);
  });
});

describe('agents panel', () => {
  it('shows what agentStateChanged says, for its own project only', async () => {
    const h = harness({ projects: [project('/p', { agents: [coder] })] });
    await openProject(h);
    const dot = () => screen.getByTestId('agent-item').querySelector('.dot')!;
    expect(dot()).not.toHaveClass('running');

    h.gateway.push({ events: [{ type: 'agentStateChanged', root: '/other', agentId: 'a1', state: 'running', sessionId: 'x' }] });
    await settle();
    expect(dot()).not.toHaveClass('running');

    h.gateway.push({ events: [{ type: 'agentStateChanged', root: '/p', agentId: 'a1', state: 'running', sessionId: 's4' }] });
    await waitFor(() => expect(dot()).toHaveClass('running'));
    expect(h.workspace.activeTab!.agents[0]).toMatchObject({ running: true, sessionId: 's4' });
    expect(screen.getByTestId('launch-in-cell')).toHaveAttribute('title', 'Go to its cell');

    h.gateway.push({ events: [{ type: 'agentStateChanged', root: '/p', agentId: 'a1', state: 'stopped' }] });
    await waitFor(() => expect(dot()).not.toHaveClass('running'));
    expect(h.workspace.activeTab!.agents[0].sessionId).toBeUndefined();
  });

  it('does not guess: a launch marks the agent running only through the pushed event', async () => {
    const h = harness({ projects: [project('/p', { agents: [coder] })] });
    await openProject(h);
    const tab = h.workspace.activeTab!;

    await tab.launchAgent('a1', 'n1', 80, 24);
    expect(tab.agents[0].running).toBe(false);
    await settle();
    expect(tab.agents[0]).toMatchObject({ running: true, sessionId: 's1' });

    h.gateway.exit('s1', 0);
    await settle();
    expect(tab.agents[0].running).toBe(false);
  });
});
