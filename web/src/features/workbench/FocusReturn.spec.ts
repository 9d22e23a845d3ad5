import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { harness, openProject, project, settle, type Harness } from '../../test/harness';

/**
 * The keyboard goes back to the focused cell's terminal after the commands that used to leave
 * it on <body> (a user trial: the cell kept its `focused` outline while typing went nowhere).
 */

/** Presses a chord where the keyboard focus is (as the window receives it). */
const press = (code: string, mods: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(document.activeElement ?? document.body, { code, bubbles: true, ...mods });

/** The session id of the terminal holding the keyboard focus, if any. */
function focusedSession(): string | undefined {
  return document.activeElement?.closest<HTMLElement>('[data-testid="terminal"]')?.dataset.sessionId;
}

/** The terminal of the cell with the `focused` outline holds the keyboard focus. */
async function focusInFocusedCell(session: string): Promise<void> {
  await waitFor(() => expect(focusedSession()).toBe(session));
  const cell = document.activeElement?.closest('[data-testid="cell"]');
  expect(cell).toHaveClass('focused');
  expect(document.activeElement?.closest('.xterm')).not.toBeNull();
}

/** Opens /p with a shell in its one cell (s1), which has the keyboard. */
async function withShell(h: Harness = harness({ projects: [project('/p')] })): Promise<Harness> {
  await openProject(h);
  await fireEvent.click(screen.getByTestId('open-shell'));
  await focusInFocusedCell('s1');
  return h;
}

describe('the keyboard goes back to the focused cell', () => {
  it('after Ctrl+Shift+W closes a cell: the cell that stays focused has it', async () => {
    await withShell();
    await press('KeyD', { ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(2));
    const added = screen.getAllByTestId('cell')[1];
    await waitFor(() => expect(within(added).getByTestId('open-shell')).toHaveFocus());
    await fireEvent.click(within(added).getByTestId('open-shell'));
    await focusInFocusedCell('s2');

    await press('KeyW', { ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(1));
    await focusInFocusedCell('s1');
  });

  it('after the question of a busy shell’s close is cancelled', async () => {
    const h = await withShell();
    h.workspace.activeTab!.sessionStarted({ sessionId: 's1', kind: 'shell', alive: true, exitCode: null, title: 'bash 1' });
    h.gateway.backend.busySessions.set('s1', 'sleep');
    await press('KeyW', { ctrlKey: true, shiftKey: true });
    const question = await screen.findByTestId('confirm-dialog');
    await fireEvent.keyDown(question, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).not.toBeInTheDocument());
    expect(screen.getAllByTestId('cell')).toHaveLength(1);
    await focusInFocusedCell('s1');
  });

  it('after Ctrl+Alt+Z undoes a split', async () => {
    await withShell();
    await press('KeyD', { ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(2));
    await waitFor(() => expect(within(screen.getAllByTestId('cell')[1]).getByTestId('open-shell')).toHaveFocus());

    await press('KeyZ', { ctrlKey: true, altKey: true });
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(1));
    await focusInFocusedCell('s1');

    await press('KeyZ', { ctrlKey: true, altKey: true, shiftKey: true }); // redo
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(2));
    await waitFor(() => expect(screen.getAllByTestId('cell').find((c) => c.classList.contains('focused'))).toContainElement(document.activeElement as HTMLElement));
  });

  it('after Escape in the command palette, and after a command it ran', async () => {
    await withShell();
    await press('KeyP', { ctrlKey: true, shiftKey: true });
    const input = await screen.findByTestId('palette-input');
    expect(input).toHaveFocus();
    await fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByTestId('command-palette')).not.toBeInTheDocument();
    await focusInFocusedCell('s1');

    // A command that moves the focus nowhere itself (zoom) gives it back too.
    await press('KeyP', { ctrlKey: true, shiftKey: true });
    const again = await screen.findByTestId('palette-input');
    await fireEvent.input(again, { target: { value: 'font bigger' } });
    expect(screen.getAllByTestId('palette-item')[0].dataset.command).toBe('zoom-in');
    await fireEvent.keyDown(again, { key: 'Enter' });
    expect(screen.queryByTestId('command-palette')).not.toBeInTheDocument();
    await focusInFocusedCell('s1');
  });

  it('leaves the focus to a dialog the palette opened', async () => {
    await withShell();
    await press('KeyP', { ctrlKey: true, shiftKey: true });
    const input = await screen.findByTestId('palette-input');
    await fireEvent.input(input, { target: { value: 'settings' } });
    expect(screen.getAllByTestId('palette-item')[0].dataset.command).toBe('settings');
    await fireEvent.keyDown(input, { key: 'Enter' });
    const fontSize = await screen.findByTestId('settings-font-size');
    await settle();
    expect(fontSize).toHaveFocus();

    await fireEvent.keyDown(fontSize, { key: 'Escape' });
    expect(screen.queryByTestId('settings-dialog')).not.toBeInTheDocument();
    await focusInFocusedCell('s1');
  });

  it('leaves the focus to the agents panel’s New agent form the palette opened', async () => {
    await withShell();
    await press('KeyP', { ctrlKey: true, shiftKey: true });
    const input = await screen.findByTestId('palette-input');
    await fireEvent.input(input, { target: { value: 'new agent' } });
    await fireEvent.keyDown(input, { key: 'Enter' });
    const form = await screen.findByTestId('agent-form');
    await settle();
    expect(form.querySelector('#agent-name')).toHaveFocus();
  });

  it('after Escape in Settings (Ctrl+,)', async () => {
    await withShell();
    await press('Comma', { ctrlKey: true });
    const fontSize = await screen.findByTestId('settings-font-size');
    expect(fontSize).toHaveFocus();
    await fireEvent.keyDown(fontSize, { key: 'Escape' });
    expect(screen.queryByTestId('settings-dialog')).not.toBeInTheDocument();
    await focusInFocusedCell('s1');
  });

  it('after Escape in the find bar (as before)', async () => {
    await withShell();
    await press('KeyF', { ctrlKey: true, shiftKey: true });
    const input = await screen.findByTestId('find-input');
    expect(input).toHaveFocus();
    await fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByTestId('find-bar')).not.toBeInTheDocument();
    await focusInFocusedCell('s1');
  });

  it('after Ctrl+Tab / Ctrl+PgDn switch project tabs: the focused cell of the tab shown', async () => {
    const h = harness({ projects: [project('/p'), project('/q')] });
    await withShell(h);
    await h.workspace.open('/q');
    await waitFor(() => expect(h.workspace.activeRoot).toBe('/q'));
    const shown = () => document.querySelector<HTMLElement>('[data-testid="project-layout"][data-root="/q"]')!;
    await waitFor(() => expect(shown()).not.toBeNull());
    await fireEvent.click(within(shown()).getByTestId('open-shell'));
    await focusInFocusedCell('s2');

    await press('Tab', { ctrlKey: true });
    await waitFor(() => expect(h.workspace.activeRoot).toBe('/p'));
    await focusInFocusedCell('s1');

    await press('PageDown', { ctrlKey: true });
    await waitFor(() => expect(h.workspace.activeRoot).toBe('/q'));
    await focusInFocusedCell('s2');
  });

  it('after the layout bar’s Balance, a preset and Duplicate (its menu item went away with the menu)', async () => {
    await withShell();
    const bar = () => screen.getByTestId('layout-bar');
    const run = async (item: string) => {
      await fireEvent.click(within(bar()).getByTestId('layout-menu'));
      await fireEvent.click(within(bar()).getByTestId(item));
      await waitFor(() => expect(within(bar()).queryByTestId(item)).not.toBeInTheDocument());
    };
    for (const item of ['layout-balance', 'preset-2x2']) {
      await run(item);
      await focusInFocusedCell('s1');
    }
    await run('layout-duplicate'); // the copy shows its cells empty: the first one's first action
    await waitFor(() => expect(within(bar()).getAllByTestId('layout-tab')).toHaveLength(2));
    const first = () => screen.getAllByTestId('cell')[0];
    await waitFor(() => expect(within(first()).getByTestId('open-shell')).toHaveFocus());
    expect(first()).toHaveClass('focused');
  });

  it('at once after Balance, while the backend has not answered yet (keys typed then are not lost)', async () => {
    // CI: the "e" of "echo" typed right after Balance went to <body> while layout.edit ran.
    const h = await withShell();
    const layout = h.gateway.layout as { edit: (...args: unknown[]) => Promise<unknown> };
    const edit = layout.edit.bind(layout);
    let release: () => void = () => {};
    layout.edit = (...args) => new Promise((resolve) => (release = () => resolve(edit(...args))));
    const bar = screen.getByTestId('layout-bar');
    const user = userEvent.setup();
    await user.click(within(bar).getByTestId('layout-menu'));
    await user.click(within(bar).getByTestId('layout-balance')); // the focus on it, then it goes
    await focusInFocusedCell('s1'); // before the answer
    release();
    await settle();
    await focusInFocusedCell('s1');
  });

  it('after a layout is created, switched to, renamed, or its dialog cancelled', async () => {
    await withShell();
    const bar = () => screen.getByTestId('layout-bar');
    await fireEvent.click(within(bar()).getByTestId('layout-new'));
    const dialog = await screen.findByTestId('layout-name-dialog');
    await fireEvent.submit(dialog.querySelector('form')!);
    await waitFor(() => expect(within(bar()).getAllByTestId('layout-tab')).toHaveLength(2));
    // the new layout's one cell is empty: its first action has the keyboard
    await waitFor(() => expect(within(screen.getByTestId('cell')).getByTestId('open-shell')).toHaveFocus());

    await fireEvent.click(within(bar()).getAllByTestId('layout-tab')[0]);
    await focusInFocusedCell('s1');

    await fireEvent.click(within(bar()).getByTestId('layout-new'));
    await fireEvent.keyDown(await screen.findByTestId('layout-name-dialog'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('layout-name-dialog')).not.toBeInTheDocument());
    await focusInFocusedCell('s1');

    await fireEvent.click(within(bar()).getByTestId('layout-menu'));
    await fireEvent.click(within(bar()).getByTestId('layout-rename'));
    await fireEvent.submit((await screen.findByTestId('layout-name-dialog')).querySelector('form')!);
    await waitFor(() => expect(screen.queryByTestId('layout-name-dialog')).not.toBeInTheDocument());
    await focusInFocusedCell('s1');
  });

  it('after Detach from cell: the emptied cell’s first action', async () => {
    await withShell();
    const cell = screen.getByTestId('cell');
    await fireEvent.click(within(cell).getByTestId('cell-menu'));
    await fireEvent.click(within(cell).getByTestId('clear-cell'));
    await waitFor(() => expect(within(screen.getByTestId('cell')).getByTestId('open-shell')).toHaveFocus());
  });
});
