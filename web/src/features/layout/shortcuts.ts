import { commandFor } from '../workbench/commands';

/** Layout commands reachable from the keyboard. */
export type LayoutCommand = 'split-row' | 'split-column' | 'close' | 'undo' | 'redo';

const LAYOUT_COMMANDS: readonly string[] = ['split-row', 'split-column', 'close', 'undo', 'redo'];

/**
 * Maps a keydown to a layout command, from the window's one keymap (`workbench/commands.ts`):
 * Ctrl+Shift+D split right, Ctrl+Shift+E split down, Ctrl+Shift+W close cell, Ctrl+Alt+Z /
 * Ctrl+Alt+Shift+Z undo/redo everywhere; plain Ctrl+Z / Ctrl+Shift+Z only outside terminals and
 * text fields (there they belong to the program/field).
 */
export function layoutCommand(event: KeyboardEvent, inTerminal: boolean, inTextField = false): LayoutCommand | null {
  const command = commandFor(event, inTerminal || inTextField);
  return command !== null && LAYOUT_COMMANDS.includes(command) ? (command as LayoutCommand) : null;
}

/** True when the key belongs to the app, so a terminal must not forward it to its program. */
export function isAppShortcut(event: KeyboardEvent, inTerminal: boolean): boolean {
  return commandFor(event, inTerminal) !== null;
}

/** Whether the event target is xterm's input (focus is "in a terminal"). */
export function targetIsTerminal(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('.xterm') !== null;
}

export function targetIsTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (targetIsTerminal(target)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}
