import { chordOf, formatChord, parseChord, sameChord, type Chord } from '../../lib/domain/keychord';
import type { LayoutPreset } from '../../lib/ports';

/** Every action of the window that has a name (the palette lists them all). */
export type CommandId =
  | 'palette'
  | 'split-row'
  | 'split-column'
  | 'close'
  | 'undo'
  | 'redo'
  | 'next-tab'
  | 'previous-tab'
  | 'focus-left'
  | 'focus-right'
  | 'focus-up'
  | 'focus-down'
  | 'maximize'
  | 'zoom-in'
  | 'zoom-out'
  | 'zoom-reset'
  | 'search'
  | 'open-shell'
  | 'detach'
  | 'kill'
  | 'toggle-side-panel'
  | 'show-sessions'
  | 'open-project'
  | 'close-project'
  | 'new-agent'
  | 'project-permissions'
  | 'profiles'
  | 'settings'
  | 'new-window'
  | 'quit'
  | GridCommandId;

/** The grid and named-layout commands (issue 9 items 4–5 from the keyboard and the palette). */
export type GridCommandId =
  | 'merge-right'
  | 'merge-down'
  | 'unmerge'
  | 'preset-2x2'
  | 'preset-1+2'
  | 'preset-3-columns'
  | 'balance'
  | 'next-layout'
  | 'previous-layout'
  | 'new-layout';

const GRID_COMMANDS: readonly string[] = [
  'merge-right',
  'merge-down',
  'unmerge',
  'preset-2x2',
  'preset-1+2',
  'preset-3-columns',
  'balance',
  'next-layout',
  'previous-layout',
  'new-layout',
] satisfies GridCommandId[];

export function isGridCommand(id: CommandId): id is GridCommandId {
  return GRID_COMMANDS.includes(id);
}

/** The preset each `preset-…` command arranges. */
export const PRESET_OF: Readonly<Partial<Record<CommandId, LayoutPreset>>> = {
  'preset-2x2': '2x2',
  'preset-1+2': '1+2',
  'preset-3-columns': '3-columns',
};

/**
 * Where a chord belongs to the app: `everywhere` (even inside a terminal: the program never
 * sees it), or `outside-fields` (in a terminal or a text field the key is theirs).
 */
export type ChordScope = 'everywhere' | 'outside-fields';

export interface CommandSpec {
  id: CommandId;
  /** How the palette, menus and tooltips name it. */
  label: string;
  /** Its chords as people write them; the first is the one shown. */
  keys: { chord: string; scope: ChordScope }[];
}

const everywhere = (...chords: string[]) => chords.map((chord) => ({ chord, scope: 'everywhere' as const }));

/** The one definition of the window's commands and shortcuts: matched here, shown from here. */
export const COMMANDS: readonly CommandSpec[] = [
  { id: 'palette', label: 'Show all commands', keys: everywhere('Ctrl+Shift+P') },
  { id: 'new-window', label: 'New window', keys: everywhere('Ctrl+Shift+N') },
  { id: 'quit', label: 'Quit IdeA', keys: everywhere('Ctrl+Q') },
  { id: 'split-row', label: 'Split cell right', keys: everywhere('Ctrl+Shift+D') },
  { id: 'split-column', label: 'Split cell down', keys: everywhere('Ctrl+Shift+E') },
  { id: 'close', label: 'Close cell', keys: everywhere('Ctrl+Shift+W') },
  // The split chords with Alt merge back: right (D), down (E); U unmerges, B balances.
  { id: 'merge-right', label: 'Merge cell with the cell on the right', keys: everywhere('Ctrl+Alt+Shift+D') },
  { id: 'merge-down', label: 'Merge cell with the cell below', keys: everywhere('Ctrl+Alt+Shift+E') },
  { id: 'unmerge', label: 'Unmerge cell', keys: everywhere('Ctrl+Alt+Shift+U') },
  { id: 'preset-2x2', label: 'Arrange cells: 2 × 2', keys: [] },
  { id: 'preset-1+2', label: 'Arrange cells: 1 + 2', keys: [] },
  { id: 'preset-3-columns', label: 'Arrange cells: 3 columns', keys: [] },
  { id: 'balance', label: 'Balance cells (equal sizes)', keys: everywhere('Ctrl+Alt+Shift+B') },
  { id: 'next-layout', label: 'Next named layout', keys: everywhere('Ctrl+Alt+PgDn') },
  { id: 'previous-layout', label: 'Previous named layout', keys: everywhere('Ctrl+Alt+PgUp') },
  { id: 'new-layout', label: 'New named layout…', keys: everywhere('Ctrl+Alt+Shift+N') },
  {
    id: 'undo',
    label: 'Undo layout change',
    keys: [...everywhere('Ctrl+Alt+Z'), { chord: 'Ctrl+Z', scope: 'outside-fields' }],
  },
  {
    id: 'redo',
    label: 'Redo layout change',
    keys: [...everywhere('Ctrl+Alt+Shift+Z'), { chord: 'Ctrl+Shift+Z', scope: 'outside-fields' }],
  },
  { id: 'next-tab', label: 'Next project tab', keys: everywhere('Ctrl+Tab', 'Ctrl+PgDn') },
  { id: 'previous-tab', label: 'Previous project tab', keys: everywhere('Ctrl+Shift+Tab', 'Ctrl+PgUp') },
  { id: 'focus-left', label: 'Focus the cell on the left', keys: everywhere('Alt+Left') },
  { id: 'focus-right', label: 'Focus the cell on the right', keys: everywhere('Alt+Right') },
  { id: 'focus-up', label: 'Focus the cell above', keys: everywhere('Alt+Up') },
  { id: 'focus-down', label: 'Focus the cell below', keys: everywhere('Alt+Down') },
  { id: 'maximize', label: 'Maximise / restore cell', keys: everywhere('Ctrl+Shift+Enter') },
  { id: 'zoom-in', label: 'Terminal font bigger', keys: everywhere('Ctrl+=', 'Ctrl+NumpadAdd') },
  { id: 'zoom-out', label: 'Terminal font smaller', keys: everywhere('Ctrl+-', 'Ctrl+NumpadSubtract') },
  { id: 'zoom-reset', label: 'Terminal font default size', keys: everywhere('Ctrl+0') },
  { id: 'search', label: 'Find in terminal scrollback', keys: everywhere('Ctrl+Shift+F') },
  { id: 'open-shell', label: 'Open shell in cell', keys: everywhere('Ctrl+Shift+`') },
  { id: 'detach', label: 'Detach session from cell', keys: [] },
  { id: 'kill', label: 'Stop the cell’s process', keys: [] },
  { id: 'toggle-side-panel', label: 'Show / hide side panel', keys: everywhere('Ctrl+Shift+A') },
  { id: 'show-sessions', label: 'Show sessions panel', keys: everywhere('Ctrl+Shift+S') },
  { id: 'open-project', label: 'Open project…', keys: [{ chord: 'Ctrl+O', scope: 'outside-fields' }] },
  { id: 'close-project', label: 'Close project tab', keys: [] },
  { id: 'new-agent', label: 'New agent…', keys: [] },
  { id: 'project-permissions', label: 'Project permissions…', keys: [] },
  { id: 'profiles', label: 'Profiles…', keys: [] },
  { id: 'settings', label: 'Settings… (terminal font, scrollback)', keys: everywhere('Ctrl+,') },
];

const PARSED: { id: CommandId; chord: Chord; scope: ChordScope }[] = COMMANDS.flatMap((c) =>
  c.keys.map((k) => ({ id: c.id, chord: parseChord(k.chord), scope: k.scope })),
);

type KeyLike = Pick<KeyboardEvent, 'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey' | 'code'>;

/**
 * The command a keydown asks for; `null` when the key is not the app's there (`inField`: the
 * focus is in a terminal or a text field, whose keys `outside-fields` chords leave alone).
 */
export function commandFor(event: KeyLike, inField: boolean): CommandId | null {
  const pressed = chordOf(event);
  const found = PARSED.find((p) => sameChord(p.chord, pressed) && (p.scope === 'everywhere' || !inField));
  return found?.id ?? null;
}

/** The command's shortcut as shown (`Ctrl+Shift+P`); `''` when it has none. */
export function shortcutOf(id: CommandId): string {
  const first = PARSED.find((p) => p.id === id);
  return first ? formatChord(first.chord) : '';
}

/** The command's label, as the palette shows it. */
export function labelOf(id: CommandId): string {
  return COMMANDS.find((c) => c.id === id)?.label ?? id;
}

/** `label (shortcut)` for tooltips. */
export function titleOf(id: CommandId, label?: string): string {
  const spec = COMMANDS.find((c) => c.id === id);
  const shortcut = shortcutOf(id);
  const text = label ?? spec?.label ?? id;
  return shortcut ? `${text} (${shortcut})` : text;
}
