import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it, onTestFinished } from 'vitest';
import { agent, harness, openProject, project, settle } from '../../test/harness';

/** Grid presets, merge / unmerge, balance and the named-layouts bar (issue 9 items 4–5). */

const cellIds = () => screen.getAllByTestId('cell').map((c) => c.dataset.nodeId);

async function menuAction(testid: string, cellIndex?: number) {
  if (cellIndex === undefined) {
    await fireEvent.click(screen.getByTestId('layout-menu'));
  } else {
    await fireEvent.click(within(screen.getAllByTestId('cell')[cellIndex]).getByTestId('cell-menu'));
  }
  await fireEvent.click(await screen.findByTestId(testid));
}

describe('grid layouts', () => {
  it('arranges a 2×2 grid, merges two cells and unmerges them', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);

    await menuAction('preset-2x2');
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(4));
    expect(h.gateway.callsOf('layout.edit')[0][1]).toMatchObject({ kind: 'preset', preset: '2x2' });
    const cellIdsBefore = cellIds();
    expect(cellIdsBefore[0]).toBe('n1'); // the old cell is the first of the grid

    await menuAction('merge-right', 0);
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(3));
    const merged = h.gateway.callsOf('layout.edit')[1][1] as { kind: string; nodeIds: string[] };
    expect(merged).toEqual({ kind: 'merge', nodeIds: ['n1', cellIdsBefore[1]] });
    expect((screen.getAllByTestId('cell')[0].parentElement as HTMLElement).style.gridArea).toContain('span 2');

    await menuAction('unmerge-cell', 0);
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(4));
    expect(h.gateway.callsOf('layout.edit')[2][1]).toEqual({ kind: 'unmerge', nodeId: 'n1' });

    // No merge is offered towards a spanning neighbour that would not make a rectangle.
    await menuAction('preset-1+2');
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(3));
    await fireEvent.click(within(screen.getAllByTestId('cell')[1]).getByTestId('cell-menu'));
    expect(screen.queryByTestId('merge-left')).not.toBeInTheDocument();
    expect(screen.getByTestId('merge-below')).toBeInTheDocument();
  });

  it('says why an empty grid cell cannot be closed, and offers no dead button', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await menuAction('preset-2x2');
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(4));
    const close = within(screen.getAllByTestId('cell')[1]).getByTestId('close-cell');
    expect(close).toBeDisabled();
    expect(close.getAttribute('title')).toContain('A grid keeps its cells');
    await fireEvent.click(close);
    expect(h.gateway.callsOf('layout.edit').map((c) => (c[1] as { kind: string }).kind)).not.toContain('close');
  });

  it('balances the layout and undoes it', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await fireEvent.click(screen.getByTestId('split-row'));
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(2));
    await menuAction('layout-balance');
    await settle();
    expect(h.gateway.callsOf('layout.edit').at(-1)?.[1]).toEqual({ kind: 'balance' });
  });
});

describe('grid splitters', () => {
  /** A 2×2 grid 1004 × 604 px (4 px gaps): the handles need the grid's measured size. */
  async function twoByTwo() {
    const size = (el: Element, axis: 'width' | 'height') => (el.classList.contains('grid') ? (axis === 'width' ? 1004 : 604) : 0);
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get(this: Element) { return size(this, 'width'); } });
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get(this: Element) { return size(this, 'height'); } });
    onTestFinished(() => {
      // The stand-ins shadow Element.prototype's getters: deleting them brings those back.
      Reflect.deleteProperty(HTMLElement.prototype, 'clientWidth');
      Reflect.deleteProperty(HTMLElement.prototype, 'clientHeight');
    });
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await menuAction('preset-2x2');
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(4));
    const grid = screen.getAllByTestId('cell')[0].closest('.grid') as HTMLElement;
    grid.getBoundingClientRect = () => ({ x: 0, y: 0, left: 0, top: 0, width: 1004, height: 604, right: 1004, bottom: 604, toJSON: () => ({}) });
    const handles = await screen.findAllByTestId('grid-splitter');
    const col = handles.find((e) => e.dataset.axis === 'col')!;
    const row = handles.find((e) => e.dataset.axis === 'row')!;
    return { h, grid, col, row };
  }

  const lastResize = (h: ReturnType<typeof harness>) => h.gateway.callsOf('layout.edit').at(-1)?.[1] as { kind: string; colWeights?: number[]; rowWeights?: number[] };

  it('are focusable separators: arrows resize columns / rows, saved like a drag', async () => {
    const { h, grid, col, row } = await twoByTwo();
    expect(col).toHaveAttribute('tabindex', '0');
    expect(col).toHaveAttribute('aria-orientation', 'vertical');
    expect(row).toHaveAttribute('aria-orientation', 'horizontal');
    expect(col).toHaveAttribute('aria-valuenow', '50');

    await fireEvent.keyDown(col, { key: 'ArrowRight', shiftKey: true });
    await waitFor(() => expect(lastResize(h)).toMatchObject({ kind: 'resize', nodeId: grid.dataset.nodeId }));
    expect(lastResize(h).colWeights?.[0]).toBeCloseTo(1.16); // 500 + 80 px of 1000
    expect(lastResize(h).rowWeights).toBeUndefined();
    await waitFor(() => expect(screen.getAllByTestId('grid-splitter').find((e) => e.dataset.axis === 'col')).toHaveAttribute('aria-valuenow', '58'));

    await fireEvent.keyDown(row, { key: 'ArrowDown' });
    await waitFor(() => expect(lastResize(h).rowWeights?.[0]).toBeCloseTo(1.0533)); // 316 px of 600
  });

  it('Home / End stop at the minimum cell size; Enter and double-click share equally', async () => {
    const { h, col, row } = await twoByTwo();
    await fireEvent.keyDown(col, { key: 'Home' });
    await waitFor(() => expect(lastResize(h).colWeights).toEqual([0.24, 1.76])); // 120 px of 1000
    await fireEvent.keyDown(row, { key: 'End' });
    await waitFor(() => expect(lastResize(h).rowWeights?.[1]).toBeCloseTo((80 / 600) * 2)); // 80 px of 600
    await fireEvent.keyDown(col, { key: 'Enter' });
    await waitFor(() => expect(lastResize(h).colWeights).toEqual([1, 1]));
    const handle = screen.getAllByTestId('grid-splitter').find((e) => e.dataset.axis === 'row')!;
    await fireEvent.dblClick(handle);
    await waitFor(() => expect(lastResize(h).rowWeights).toEqual([1, 1]));
  });

  it('drags a column boundary live and saves on release', async () => {
    const { h, grid, col } = await twoByTwo();
    await fireEvent.pointerDown(col, { button: 0, clientX: 500, clientY: 100, pointerId: 1 });
    await fireEvent.pointerMove(col, { clientX: 400, clientY: 100, pointerId: 1 });
    expect(grid.style.gridTemplateColumns).toBe('minmax(0, 40fr) minmax(0, 60fr)');
    await fireEvent.pointerUp(col, { clientX: 400, clientY: 100, pointerId: 1 });
    await waitFor(() => expect(lastResize(h).colWeights).toEqual([0.8, 1.2]));
  });
});

describe('named layouts bar', () => {
  const doc = (h: ReturnType<typeof harness>) => h.gateway.callsOf('layout.edit');

  it('creates, switches, renames, duplicates and deletes layouts (deleting asks first)', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    const tabs = () => screen.getAllByTestId('layout-tab').map((t) => [t.textContent?.trim(), t.getAttribute('aria-selected')]);
    expect(tabs()).toEqual([['Default', 'true']]);

    await fireEvent.click(screen.getByTestId('layout-new'));
    const input = await screen.findByTestId('layout-name-input');
    await fireEvent.input(input, { target: { value: 'Review' } });
    await fireEvent.click(screen.getByTestId('layout-name-ok'));
    await waitFor(() => expect(tabs()).toEqual([['Default', 'false'], ['Review', 'true']]));
    expect(doc(h)[0][1]).toEqual({ kind: 'createLayout', name: 'Review' });
    expect(screen.queryByTestId('layout-name-dialog')).not.toBeInTheDocument();

    // A name already taken: the backend's message shows in the dialog, which stays open.
    await menuAction('layout-rename');
    await fireEvent.input(await screen.findByTestId('layout-name-input'), { target: { value: 'default' } });
    await fireEvent.click(screen.getByTestId('layout-name-ok'));
    expect(await screen.findByTestId('layout-name-error')).toHaveTextContent(/^a layout named 'default' already exists$/);
    await fireEvent.input(screen.getByTestId('layout-name-input'), { target: { value: 'Tests' } });
    await fireEvent.click(screen.getByTestId('layout-name-ok'));
    await waitFor(() => expect(tabs()).toEqual([['Default', 'false'], ['Tests', 'true']]));

    await fireEvent.click(screen.getAllByTestId('layout-tab')[0]);
    await waitFor(() => expect(tabs()[0][1]).toBe('true'));
    expect(doc(h).at(-1)?.[1]).toMatchObject({ kind: 'switchLayout' });

    await menuAction('layout-duplicate');
    await waitFor(() => expect(tabs().map((t) => t[0])).toEqual(['Default', 'Default copy', 'Tests']));

    await menuAction('layout-delete');
    const dialog = await screen.findByTestId('layout-delete-dialog');
    expect(dialog).toHaveTextContent('Delete the layout “Default copy”?');
    await fireEvent.click(within(dialog).getByText('Cancel'));
    expect(tabs()).toHaveLength(3);
    await menuAction('layout-delete');
    await fireEvent.click(await screen.findByTestId('layout-delete-confirm'));
    await waitFor(() => expect(tabs().map((t) => t[0])).toEqual(['Default', 'Tests']));
    expect(tabs()[0][1]).toBe('true');
  });

  it('keeps the agent running when switching away, and shows it again on switching back', async () => {
    const h = harness({ projects: [project('/p', { agents: [agent('a1', 'Coder')] })] });
    await openProject(h);
    await fireEvent.click(screen.getByTestId('launch-agent'));
    await fireEvent.click(await screen.findByTestId('launch-agent-option'));
    const terminal = await screen.findByTestId('terminal');
    const session = terminal.dataset.sessionId;

    await fireEvent.click(screen.getByTestId('layout-new'));
    await fireEvent.click(await screen.findByTestId('layout-name-ok'));
    await waitFor(() => expect(screen.queryByTestId('terminal')).not.toBeInTheDocument());
    expect(h.gateway.callsOf('terminals.kill')).toEqual([]);

    await fireEvent.click(screen.getAllByTestId('layout-tab')[0]);
    await waitFor(() => expect(screen.getByTestId('terminal').dataset.sessionId).toBe(session));
    const last = doc(h).at(-1)?.[1] as { kind: string };
    expect(last.kind).toBe('switchLayout');
  });
});
