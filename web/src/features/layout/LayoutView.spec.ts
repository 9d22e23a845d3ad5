import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../lib/ports';
import { agent, harness, openProject, project, settle } from '../../test/harness';

const coder = agent('a1', 'Coder');

describe('layout', () => {
  it('splits a cell right, then closes the new one', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);

    await fireEvent.click(screen.getByTestId('split-row'));
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(2));
    expect(screen.getAllByTestId('splitter')).toHaveLength(1);
    expect(h.gateway.callsOf('layout.edit')[0]).toEqual(['/p', { kind: 'split', nodeId: 'n1', direction: 'row' }]);

    const second = screen.getAllByTestId('cell')[1];
    await fireEvent.click(within(second).getByTestId('close-cell'));
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(1));
    expect(screen.queryByTestId('splitter')).not.toBeInTheDocument();
  });

  it('splits down with the keyboard and undoes with Ctrl+Alt+Z', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);

    await fireEvent.keyDown(window, { code: 'KeyE', key: 'E', ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(2));
    expect(h.gateway.callsOf('layout.edit')[0][1]).toEqual({ kind: 'split', nodeId: 'n1', direction: 'column' });

    await fireEvent.keyDown(window, { code: 'KeyZ', key: 'z', ctrlKey: true, altKey: true });
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(1));
  });

  it('renders a grid with spans', async () => {
    const h = harness({
      projects: [
        project('/p', {
          layouts: {
            version: 1,
            activeId: 'L1',
            layouts: [
              {
                id: 'L1',
                name: 'Default',
                kind: 'terminal',
                tree: {
                  root: {
                    type: 'grid',
                    node: {
                      id: 'g',
                      colWeights: [1, 1],
                      rowWeights: [1, 1],
                      cells: [
                        { node: { type: 'leaf', node: { id: 'a' } }, row: 0, col: 0, rowSpan: 2, colSpan: 1 },
                        { node: { type: 'leaf', node: { id: 'b' } }, row: 0, col: 1, rowSpan: 1, colSpan: 1 },
                        { node: { type: 'leaf', node: { id: 'c' } }, row: 1, col: 1, rowSpan: 1, colSpan: 1 },
                      ],
                    },
                  },
                },
              },
            ],
          },
        }),
      ],
    });
    await openProject(h);
    expect(screen.getAllByTestId('cell').map((c) => c.dataset.nodeId)).toEqual(['a', 'b', 'c']);
    expect((screen.getAllByTestId('cell')[0].parentElement as HTMLElement).style.gridArea).toContain('span 2');
  });

  it('opens a shell in an empty cell from the layouts openShell returns, sending no assign', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);

    await fireEvent.click(screen.getByTestId('open-shell'));
    const terminal = await screen.findByTestId('terminal');
    expect(terminal.dataset.sessionId).toBe('s1');
    expect(h.gateway.callsOf('terminals.openShell')).toEqual([['/p', 'n1', expect.any(Number), expect.any(Number)]]);
    await settle();
    expect(h.gateway.callsOf('layout.edit')).toEqual([]);
  });

  it('writes a launch failure in red inside the cell, without crashing', async () => {
    const h = harness({ installed: ['sh'], projects: [project('/p', { agents: [coder] })] });
    await openProject(h);

    await fireEvent.click(screen.getByTestId('launch-agent'));
    const option = await screen.findByTestId('launch-agent-option');
    expect(option).toHaveTextContent('· Claude Code'); // the profile by its name, not its id
    await fireEvent.click(option);

    expect(await screen.findByTestId('cell-error')).toHaveTextContent('command not found: claude');
    expect(screen.getByTestId('open-shell')).toBeInTheDocument();
  });

  it('offers “Go to cell” when the agent already runs elsewhere', async () => {
    const h = harness({ projects: [project('/p', { agents: [coder] })] });
    await openProject(h);
    await fireEvent.click(screen.getByTestId('split-row'));
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(2));
    const [first, second] = screen.getAllByTestId('cell');

    h.gateway.failNext('agents.launch', new GatewayError('AGENT_ALREADY_RUNNING', 'Coder is already running', { nodeId: first.dataset.nodeId }));
    await fireEvent.click(within(second).getByTestId('launch-agent'));
    await fireEvent.click(await within(second).findByTestId('launch-agent-option'));

    expect(await within(second).findByTestId('cell-error')).toHaveTextContent('Coder is already running');
    await fireEvent.click(within(second).getByTestId('go-to-cell'));
    await settle();
    expect(screen.getAllByTestId('cell')[0]).toHaveClass('highlighted');
  });

  it('shows “session ended” for a leaf whose session is no longer alive', async () => {
    const p = project('/p');
    p.layouts!.layouts[0].tree.root = { type: 'leaf', node: { id: 'n1', session: 'gone' } };
    const h = harness({ projects: [p] });
    await openProject(h);
    const ended = await screen.findByTestId('session-ended');
    expect(ended).toHaveTextContent('Session ended');
    // Its buttons come first, on the left: the toasts (bottom right) never cover them.
    expect(ended.firstElementChild).toBe(screen.getByTestId('reopen-shell'));
    await fireEvent.click(screen.getByTestId('reopen-shell'));
    await waitFor(() => expect(screen.getByTestId('terminal').dataset.sessionId).toBe('s1'));
  });
});

describe('keyboard focus', () => {
  /** The session id of the terminal holding the keyboard focus, if any. */
  function focusedSession(): string | undefined {
    return document.activeElement?.closest<HTMLElement>('[data-testid="terminal"]')?.dataset.sessionId;
  }

  it('gives the new terminal the focus after “Open shell”', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);

    await fireEvent.click(screen.getByTestId('open-shell'));
    await screen.findByTestId('terminal');
    await waitFor(() => expect(focusedSession()).toBe('s1'));
    expect(document.activeElement?.closest('.xterm')).not.toBeNull();
  });

  it('gives the launched agent’s terminal the focus', async () => {
    const h = harness({ projects: [project('/p', { agents: [coder] })] });
    await openProject(h);

    await fireEvent.click(screen.getByTestId('launch-agent'));
    await fireEvent.click(await screen.findByTestId('launch-agent-option'));
    const terminal = await screen.findByTestId('terminal');
    await waitFor(() => expect(focusedSession()).toBe(terminal.dataset.sessionId));
  });

  it('moves the focus to the new cell after a split from the keyboard', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await fireEvent.click(screen.getByTestId('open-shell'));
    await waitFor(() => expect(focusedSession()).toBe('s1'));

    await fireEvent.keyDown(document.activeElement!, { code: 'KeyD', key: 'D', ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(2));
    const added = screen.getAllByTestId('cell')[1];
    await waitFor(() => expect(added.contains(document.activeElement)).toBe(true));
    expect(added).toHaveClass('focused');
    expect(h.workspace.activeTab?.focusedNodeId).toBe(added.dataset.nodeId);
  });

  it('moves the focus to the new cell after a split from the cell menu', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);

    await fireEvent.click(screen.getByTestId('cell-menu'));
    await fireEvent.click(screen.getByRole('menuitem', { name: /Split down/ }));
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(2));
    const added = screen.getAllByTestId('cell')[1];
    await waitFor(() => expect(within(added).getByTestId('open-shell')).toHaveFocus());
  });
});

describe('splitter', () => {
  /** Opens /p split in two side by side, 1004 px wide (1000 px of cells + a 4 px splitter). */
  async function twoCells() {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await fireEvent.click(screen.getByTestId('split-row'));
    const splitter = await screen.findByTestId('splitter');
    const split = splitter.parentElement as HTMLElement;
    split.getBoundingClientRect = () => ({ x: 0, y: 0, left: 0, top: 0, width: 1004, height: 600, right: 1004, bottom: 600, toJSON: () => ({}) });
    return { h, splitter, split };
  }

  async function resizeOp(h: ReturnType<typeof harness>, nodeId: string | undefined) {
    await waitFor(() => expect(h.gateway.callsOf('layout.edit').at(-1)?.[1]).toMatchObject({ kind: 'resize', nodeId }));
    return h.gateway.callsOf('layout.edit').at(-1)?.[1] as { weights: number[] };
  }

  it('resizes locally while dragging and sends the new weights on release', async () => {
    const { h, splitter, split } = await twoCells();

    await fireEvent.pointerDown(splitter, { button: 0, clientX: 500, clientY: 10, pointerId: 1 });
    await fireEvent.pointerMove(splitter, { clientX: 600, clientY: 10, pointerId: 1 });
    const panes = split.querySelectorAll<HTMLElement>(':scope > .pane');
    expect(panes[0].style.flex).toMatch(/^60 60/);
    await fireEvent.pointerUp(splitter, { clientX: 600, clientY: 10, pointerId: 1 });

    const op = await resizeOp(h, split.dataset.nodeId);
    expect(op.weights[0]).toBeCloseTo(1.2);
    expect(op.weights[1]).toBeCloseTo(0.8);
  });

  it('stops a drag before a cell gets narrower than 120 px', async () => {
    const { h, splitter, split } = await twoCells();

    await fireEvent.pointerDown(splitter, { button: 0, clientX: 500, clientY: 10, pointerId: 1 });
    await fireEvent.pointerMove(splitter, { clientX: 990, clientY: 10, pointerId: 1 });
    await fireEvent.pointerUp(splitter, { clientX: 990, clientY: 10, pointerId: 1 });

    const op = await resizeOp(h, split.dataset.nodeId);
    // 1000 px between two cells: the second keeps 120 px = 0.24 of the total weight 2.
    expect(op.weights[1]).toBeCloseTo(0.24);
    expect(op.weights[0]).toBeCloseTo(1.76);
  });
  it('is a focusable separator whose value is the first pane’s share, in %', async () => {
    const { splitter } = await twoCells();
    expect(splitter).toHaveAttribute('tabindex', '0');
    expect(splitter).toHaveAttribute('role', 'separator');
    expect(splitter).toHaveAttribute('aria-orientation', 'vertical');
    expect(splitter).toHaveAttribute('aria-valuenow', '50');
    splitter.focus();
    await settle();
    // 1000 px for two cells of at least 120 px: it can go from 12 % to 88 %.
    expect(splitter).toHaveAttribute('aria-valuemin', '12');
    expect(splitter).toHaveAttribute('aria-valuemax', '88');
  });

  it('moves with the arrow keys (Shift: 5 steps), saved as a drag is', async () => {
    const { h, splitter, split } = await twoCells();
    await fireEvent.keyDown(splitter, { key: 'ArrowRight' });
    let op = await resizeOp(h, split.dataset.nodeId);
    expect(op.weights[0]).toBeCloseTo(1.032); // 516 px of 1000 for the first cell
    await waitFor(() => expect(splitter).toHaveAttribute('aria-valuenow', '52'));

    await fireEvent.keyDown(splitter, { key: 'ArrowLeft', shiftKey: true });
    await waitFor(() => expect(h.gateway.callsOf('layout.edit')).toHaveLength(3));
    op = await resizeOp(h, split.dataset.nodeId);
    expect(op.weights[0]).toBeCloseTo(0.872); // 516 - 80 = 436 px
    // ↑/↓ are not this splitter's: nothing is sent.
    await fireEvent.keyDown(splitter, { key: 'ArrowUp' });
    await settle();
    expect(h.gateway.callsOf('layout.edit')).toHaveLength(3);
  });

  it('Home / End go to the minimum / maximum, Enter and double-click share equally again', async () => {
    const { h, splitter, split } = await twoCells();
    await fireEvent.keyDown(splitter, { key: 'End' });
    let op = await resizeOp(h, split.dataset.nodeId);
    expect(op.weights).toEqual([1.76, 0.24]);
    await fireEvent.keyDown(splitter, { key: 'Home' });
    await waitFor(() => expect(h.gateway.callsOf('layout.edit')).toHaveLength(3));
    op = await resizeOp(h, split.dataset.nodeId);
    expect(op.weights).toEqual([0.24, 1.76]);
    await fireEvent.keyDown(splitter, { key: 'Enter' });
    await waitFor(() => expect(h.gateway.callsOf('layout.edit')).toHaveLength(4));
    expect((await resizeOp(h, split.dataset.nodeId)).weights).toEqual([1, 1]);
    // Already equal: a double-click sends nothing more.
    await fireEvent.dblClick(splitter);
    await settle();
    expect(h.gateway.callsOf('layout.edit')).toHaveLength(4);
    await fireEvent.keyDown(splitter, { key: 'End' });
    await waitFor(() => expect(h.gateway.callsOf('layout.edit')).toHaveLength(5));
    await fireEvent.dblClick(splitter);
    await waitFor(() => expect(h.gateway.callsOf('layout.edit')).toHaveLength(6));
    expect((await resizeOp(h, split.dataset.nodeId)).weights).toEqual([1, 1]);
  });
});
