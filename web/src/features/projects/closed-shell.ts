import { shortcutOf } from '../workbench/commands';

/**
 * The toast of a `killPending` push: closing a cell left its shell `title` running hidden, to be
 * killed in `graceMs` ms unless undo (the layout's, shown with its shortcut) brings it back.
 */
export function closedShellMessage(title: string | undefined, graceMs: number): string {
  const seconds = Math.max(1, Math.round(graceMs / 1000));
  return `${title ?? 'The shell'} closed: undo (${shortcutOf('undo')}) within ${seconds} s brings it back, still running`;
}
