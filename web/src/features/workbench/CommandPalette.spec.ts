import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { leaves } from '../../lib/domain/layout-tree';
import { agent, harness, openProject, project, settle } from '../../test/harness';
import { COMMANDS, commandFor, shortcutOf } from './commands';

const press = (code: string, mods: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(document.activeElement ?? document.body, { code, bubbles: true, ...mods });

describe('the keymap', () => {
  it('defines each shortcut once: no chord runs two commands', () => {
    const seen = new Map<string, string>();
    for (const c of COMMANDS) {
      for (const k of c.keys) {
        expect(seen.get(k.chord.toLowerCase()), `${k.chord} of ${c.id}`).toBeUndefined();
        seen.set(k.chord.toLowerCase(), c.id);
      }
    }
  });

  it('leaves outside-field chords to terminals and text fields', () => {
    const ctrlZ = { ctrlKey: true, shiftKey: false, altKey: false, metaKey: false, code: 'KeyZ' };
    expect(commandFor(ctrlZ, false)).toBe('undo');
    expect(commandFor(ctrlZ, true)).toBeNull();
    expect(commandFor({ ...ctrlZ, altKey: true }, true)).toBe('undo');
    expect(commandFor({ ...ctrlZ, code: 'PageDown' }, true)).toBe('next-tab');
    expect(commandFor({ ...ctrlZ, code: 'Equal' }, true)).toBe('zoom-in');
  });
});

describe('CommandPalette', () => {
  it('Ctrl+Shift+P lists every command with the shortcut the keymap gives it', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await press('KeyP', { ctrlKey: true, shiftKey: true });

    const palette = await screen.findByTestId('command-palette');
    const items = within(palette).getAllByTestId('palette-item');
    expect(items.map((i) => i.dataset.command)).toEqual(COMMANDS.map((c) => c.id));
    const split = items.find((i) => i.dataset.command === 'split-row')!;
    expect(within(split).getByTestId('palette-shortcut')).toHaveTextContent(shortcutOf('split-row'));
    expect(shortcutOf('split-row')).toBe('Ctrl+Shift+D');
    expect(split).toHaveTextContent('Split cell right');
    expect(within(palette).getByTestId('palette-input')).toHaveFocus();
  });

  it('filters as you type; Enter runs the best match on the focused cell', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await fireEvent.click(screen.getByTestId('open-palette'));
    const input = await screen.findByTestId('palette-input');
    await fireEvent.input(input, { target: { value: 'split right' } });
    expect(screen.getAllByTestId('palette-item')[0].dataset.command).toBe('split-row');
    await fireEvent.keyDown(input, { key: 'Enter' });

    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(2));
    expect(screen.queryByTestId('command-palette')).not.toBeInTheDocument();
    expect(h.gateway.callsOf('layout.edit')).toEqual([['/p', { kind: 'split', nodeId: 'n1', direction: 'row' }]]);
  });

  it('↓ moves the selection, Escape closes without running anything', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await fireEvent.click(screen.getByTestId('open-palette'));
    const input = await screen.findByTestId('palette-input');
    await fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(screen.getAllByTestId('palette-item')[1]).toHaveAttribute('aria-selected', 'true');
    await fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByTestId('command-palette')).not.toBeInTheDocument();
    expect(h.gateway.callsOf('layout.edit')).toEqual([]);
  });

  it('says when nothing matches; a disabled command does not run', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await fireEvent.click(screen.getByTestId('open-palette'));
    const input = await screen.findByTestId('palette-input');
    await fireEvent.input(input, { target: { value: 'zzzz' } });
    expect(screen.getByTestId('palette-empty')).toHaveTextContent('No command matches');
    await fireEvent.input(input, { target: { value: 'Next project tab' } });
    const next = screen.getAllByTestId('palette-item')[0];
    expect(next).toHaveAttribute('aria-disabled', 'true'); // one tab only
    await fireEvent.click(next);
    expect(screen.getByTestId('command-palette')).toBeInTheDocument();
  });

  it('font zoom: Ctrl+= / Ctrl+- / Ctrl+0 save the terminal font size', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await press('Equal', { ctrlKey: true });
    await settle();
    await press('Equal', { ctrlKey: true });
    await settle();
    expect(h.workbench.settings.terminal.fontSize).toBe(15);
    await press('Minus', { ctrlKey: true });
    await settle();
    expect(h.workbench.settings.terminal.fontSize).toBe(14);
    await press('Digit0', { ctrlKey: true });
    await settle();
    expect(h.gateway.callsOf('settings.update').at(-1)).toEqual([{ terminal: { fontSize: 13 } }]);
    expect(h.terminals.fontSize).toBe(13);
  });

  it('maximise hides the other cells and restores them', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await h.workspace.activeTab!.splitCell('n1', 'row');
    await settle();
    const [first] = screen.getAllByTestId('cell');
    await fireEvent.click(within(first).getByTestId('maximize-cell'));
    expect(first).toHaveAttribute('data-maximized', 'true');
    expect(screen.getByTestId('project-layout')).toHaveClass('has-maximized');
    await fireEvent.click(within(first).getByTestId('maximize-cell'));
    expect(first).not.toHaveAttribute('data-maximized');
    expect(leaves(h.workspace.activeTab!.layoutRoot)).toHaveLength(2);
  });
});

describe('agent entries', () => {
  const openPalette = async (query: string) => {
    await fireEvent.click(screen.getByTestId('open-palette'));
    const input = await screen.findByTestId('palette-input');
    await fireEvent.input(input, { target: { value: query } });
    return input;
  };

  it('launch an agent in the focused empty cell, then go to it; send a task; conversations', async () => {
    const h = harness({ projects: [project('/p', { agents: [agent('a1', 'Alpha'), agent('a2', 'Beta')] })] });
    await openProject(h);
    const input = await openPalette('Alpha launch');
    const first = screen.getAllByTestId('palette-item')[0];
    expect(first.dataset.command).toBe('agent:launch:a1');
    expect(first).toHaveTextContent('Alpha: launch in the focused cell');
    expect(first).toHaveAttribute('aria-disabled', 'false');
    await fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(h.gateway.callsOf('agents.launch')).toHaveLength(1));
    expect(h.gateway.callsOf('agents.launch')[0].slice(0, 3)).toEqual(['/p', 'a1', 'n1']);
    await settle();

    await openPalette('Alpha');
    const ids = screen.getAllByTestId('palette-item').map((i) => i.dataset.command);
    expect(ids).toContain('agent:go:a1');
    expect(ids).not.toContain('agent:launch:a1');
    await fireEvent.keyDown(screen.getByTestId('palette-input'), { key: 'Escape' });

    // The focused cell is busy now: Beta cannot be launched into it.
    await openPalette('Beta launch');
    expect(screen.getAllByTestId('palette-item')[0]).toHaveAttribute('aria-disabled', 'true');
    await fireEvent.input(screen.getByTestId('palette-input'), { target: { value: 'Beta send a task' } });
    await fireEvent.keyDown(screen.getByTestId('palette-input'), { key: 'Enter' });
    expect(await screen.findByTestId('send-dialog')).toHaveTextContent('Send a task to Beta');
  });

  it('project commands: new agent (opening a hidden side panel), project permissions, close the tab', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await h.workbench.update({ ui: { sidePanelCollapsed: true } });
    await settle();
    expect(screen.queryByTestId('agent-form')).toBeNull();
    await fireEvent.keyDown(await openPalette('new agent'), { key: 'Enter' });
    const form = await screen.findByTestId('agent-form');
    expect(form).toHaveTextContent('New agent');
    await settle();
    expect(form.querySelector('#agent-name')).toHaveFocus(); // not taken back by the closing palette
    expect(h.workbench.settings.ui.sidePanelCollapsed).toBe(false);
    expect(h.workbench.newAgentRequest).toBeNull(); // done: switching back to the tab opens nothing

    await fireEvent.keyDown(await openPalette('project permissions'), { key: 'Enter' });
    expect(await screen.findByText(/Permissions — /)).toBeInTheDocument();
    await fireEvent.click(screen.getByTestId('permissions-close'));
    await settle();

    await fireEvent.keyDown(await openPalette('close project tab'), { key: 'Enter' });
    await waitFor(() => expect(h.gateway.callsOf('windows.closeTab')).toEqual([['/p', []]]));
  });

  it('lists none without agents', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await openPalette('');
    const ids = screen.getAllByTestId('palette-item').map((i) => i.dataset.command ?? '');
    expect(ids.some((id) => id.startsWith('agent:'))).toBe(false);
  });
});

describe('grid and layout commands', () => {
  const paletteRun = async (label: string) => {
    await fireEvent.click(screen.getByTestId('open-palette'));
    const input = await screen.findByTestId('palette-input');
    await fireEvent.input(input, { target: { value: label } });
    await fireEvent.keyDown(input, { key: 'Enter' });
  };
  const edits = (h: ReturnType<typeof harness>) => h.gateway.callsOf('layout.edit').map((c) => c[1]);

  it('are listed with their shortcut, and disabled where they cannot apply', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await fireEvent.click(screen.getByTestId('open-palette'));
    const items = within(await screen.findByTestId('command-palette')).getAllByTestId('palette-item');
    const item = (id: string) => items.find((i) => i.dataset.command === id)!;
    expect(within(item('merge-right')).getByTestId('palette-shortcut')).toHaveTextContent('Ctrl+Alt+Shift+D');
    expect(within(item('next-layout')).getByTestId('palette-shortcut')).toHaveTextContent('Ctrl+Alt+PgDn');
    expect(item('preset-2x2')).toHaveTextContent('Arrange cells: 2 × 2');
    // One cell, one layout: nothing to merge, unmerge or switch to.
    for (const id of ['merge-right', 'merge-down', 'unmerge', 'next-layout', 'previous-layout']) {
      expect(item(id), id).toHaveAttribute('aria-disabled', 'true');
    }
    for (const id of ['preset-2x2', 'preset-1+2', 'preset-3-columns', 'balance', 'new-layout']) {
      expect(item(id), id).not.toHaveAttribute('aria-disabled', 'true');
    }
  });

  it('a preset from the palette, then merges / unmerges the focused cell from the keyboard', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    await paletteRun('Arrange cells: 2 × 2');
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(4));
    expect(edits(h)[0]).toMatchObject({ kind: 'preset', preset: '2x2' });
    const ids = screen.getAllByTestId('cell').map((c) => c.dataset.nodeId!);

    h.workspace.activeTab!.requestFocus(ids[0]);
    await press('KeyD', { ctrlKey: true, altKey: true, shiftKey: true });
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(3));
    expect(edits(h)[1]).toEqual({ kind: 'merge', nodeIds: [ids[0], ids[1]] });

    await press('KeyU', { ctrlKey: true, altKey: true, shiftKey: true });
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(4));
    expect(edits(h)[2]).toEqual({ kind: 'unmerge', nodeId: ids[0] });

    // Down from the bottom-left cell: nothing below it, nothing sent.
    h.workspace.activeTab!.requestFocus(ids[2]);
    await press('KeyE', { ctrlKey: true, altKey: true, shiftKey: true });
    await settle();
    expect(edits(h)).toHaveLength(3);
    h.workspace.activeTab!.requestFocus(ids[0]);
    await press('KeyE', { ctrlKey: true, altKey: true, shiftKey: true });
    await waitFor(() => expect(screen.getAllByTestId('cell')).toHaveLength(3));
    expect(edits(h)[3]).toEqual({ kind: 'merge', nodeIds: [ids[0], ids[2]] });

    await press('KeyB', { ctrlKey: true, altKey: true, shiftKey: true });
    await waitFor(() => expect(edits(h)[4]).toEqual({ kind: 'balance' }));
  });

  it('the chords are the app’s even inside a terminal', () => {
    const chord = { ctrlKey: true, shiftKey: true, altKey: true, metaKey: false };
    expect(commandFor({ ...chord, code: 'KeyD' }, true)).toBe('merge-right');
    expect(commandFor({ ...chord, code: 'KeyE' }, true)).toBe('merge-down');
    expect(commandFor({ ...chord, shiftKey: false, code: 'PageDown' }, true)).toBe('next-layout');
    expect(commandFor({ ...chord, shiftKey: false, code: 'PageUp' }, true)).toBe('previous-layout');
  });

  it('new layout opens the layout bar’s name dialog; next / previous switch layouts, wrapping', async () => {
    const h = harness({ projects: [project('/p')] });
    await openProject(h);
    const tabs = () => screen.getAllByTestId('layout-tab').map((t) => [t.textContent?.trim(), t.getAttribute('aria-selected')]);
    await press('KeyN', { ctrlKey: true, altKey: true, shiftKey: true });
    const input = await screen.findByTestId('layout-name-input');
    await fireEvent.input(input, { target: { value: 'Review' } });
    await fireEvent.click(screen.getByTestId('layout-name-ok'));
    await waitFor(() => expect(tabs()).toEqual([['Default', 'false'], ['Review', 'true']]));

    await press('PageDown', { ctrlKey: true, altKey: true });
    await waitFor(() => expect(tabs()).toEqual([['Default', 'true'], ['Review', 'false']]));
    await press('PageUp', { ctrlKey: true, altKey: true });
    await waitFor(() => expect(tabs()).toEqual([['Default', 'false'], ['Review', 'true']]));
    await paletteRun('Previous named layout');
    await waitFor(() => expect(tabs()[0][1]).toBe('true'));
    expect(edits(h).filter((op) => (op as { kind: string }).kind === 'switchLayout')).toHaveLength(3);
  });
});
