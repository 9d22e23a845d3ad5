import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { leaves } from '../../lib/domain/layout-tree';
import { harness, openProject, project, settle } from '../../test/harness';
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
