/** Layout commands reachable from the keyboard. */
export type LayoutCommand = 'split-row' | 'split-column' | 'close' | 'undo' | 'redo';

/**
 * Maps a keydown to a layout command. Ctrl+Shift+D split right, Ctrl+Shift+E split down,
 * Ctrl+Shift+W close cell, Ctrl+Alt+Z / Ctrl+Alt+Shift+Z undo/redo everywhere; plain Ctrl+Z /
 * Ctrl+Shift+Z only outside terminals and text fields (there they belong to the program/field).
 */
export function layoutCommand(event: KeyboardEvent, inTerminal: boolean, inTextField = false): LayoutCommand | null {
  if (!event.ctrlKey || event.metaKey) return null;
  const { code, shiftKey, altKey } = event;
  if (shiftKey && !altKey) {
    if (code === 'KeyD') return 'split-row';
    if (code === 'KeyE') return 'split-column';
    if (code === 'KeyW') return 'close';
  }
  if (code === 'KeyZ') {
    if (altKey) return shiftKey ? 'redo' : 'undo';
    if (!inTerminal && !inTextField) return shiftKey ? 'redo' : 'undo';
  }
  return null;
}

/** True when the key belongs to the app, so a terminal must not forward it to its program. */
export function isAppShortcut(event: KeyboardEvent, inTerminal: boolean): boolean {
  return layoutCommand(event, inTerminal) !== null;
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
