/**
 * Keyboard chords as people write them (`Ctrl+Shift+P`, `Alt+Left`, `Ctrl+=`), matched against
 * `KeyboardEvent.code` so they do not depend on the keyboard layout's characters.
 */

/** A modifier combination plus one physical key (`KeyboardEvent.code`). */
export interface Chord {
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
  meta: boolean;
  code: string;
}

/** What a chord's key is written as → `KeyboardEvent.code`. */
const NAMED: Record<string, string> = {
  '=': 'Equal',
  '+': 'Equal',
  '-': 'Minus',
  ',': 'Comma',
  '.': 'Period',
  '/': 'Slash',
  '`': 'Backquote',
  Left: 'ArrowLeft',
  Right: 'ArrowRight',
  Up: 'ArrowUp',
  Down: 'ArrowDown',
  PgUp: 'PageUp',
  PgDn: 'PageDown',
  Esc: 'Escape',
  'Num+': 'NumpadAdd',
  'Num-': 'NumpadSubtract',
};

/** `KeyboardEvent.code` → how it is shown. */
const SHOWN: Record<string, string> = {
  Equal: '=',
  Minus: '-',
  Comma: ',',
  Period: '.',
  Slash: '/',
  Backquote: '`',
  ArrowLeft: '←',
  ArrowRight: '→',
  ArrowUp: '↑',
  ArrowDown: '↓',
  PageUp: 'PgUp',
  PageDown: 'PgDn',
  Escape: 'Esc',
  NumpadAdd: 'Num+',
  NumpadSubtract: 'Num-',
};

function codeOf(key: string): string {
  if (/^[A-Za-z]$/.test(key)) return `Key${key.toUpperCase()}`;
  if (/^[0-9]$/.test(key)) return `Digit${key}`;
  return NAMED[key] ?? key;
}

/**
 * Parses `Ctrl+Shift+P`: modifiers `Ctrl`, `Shift`, `Alt`, `Meta` (any order, case-insensitive),
 * then one key (a letter, a digit, `=`, `-`, `Tab`, `Enter`, `Left`…, `PgUp`, `F1`…).
 * Throws on an empty key, so a typo in a keymap fails at start-up, not silently.
 */
export function parseChord(text: string): Chord {
  // The key may itself be `+` or `-` (`Ctrl++`): split on the last separator before it.
  const match = /^(.*?)([^+]+|\+)$/.exec(text.trim());
  const key = match?.[2] ?? '';
  const mods = (match?.[1] ?? '').split('+').map((m) => m.trim().toLowerCase()).filter(Boolean);
  if (!key) throw new Error(`chord without a key: ${text}`);
  for (const m of mods) if (!['ctrl', 'shift', 'alt', 'meta'].includes(m)) throw new Error(`unknown modifier ${m} in ${text}`);
  return { ctrl: mods.includes('ctrl'), shift: mods.includes('shift'), alt: mods.includes('alt'), meta: mods.includes('meta'), code: codeOf(key) };
}

/** The keys of a keydown event, as a chord. */
export function chordOf(event: Pick<KeyboardEvent, 'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey' | 'code'>): Chord {
  return { ctrl: event.ctrlKey, shift: event.shiftKey, alt: event.altKey, meta: event.metaKey, code: event.code };
}

export function sameChord(a: Chord, b: Chord): boolean {
  return a.ctrl === b.ctrl && a.shift === b.shift && a.alt === b.alt && a.meta === b.meta && a.code === b.code;
}

/** How a chord is shown in menus, tooltips and the palette: `Ctrl+Shift+P`, `Alt+←`. */
export function formatChord(chord: Chord): string {
  const key = chord.code.startsWith('Key') ? chord.code.slice(3) : chord.code.startsWith('Digit') ? chord.code.slice(5) : (SHOWN[chord.code] ?? chord.code);
  return [chord.ctrl && 'Ctrl', chord.alt && 'Alt', chord.shift && 'Shift', chord.meta && 'Meta', key].filter(Boolean).join('+');
}
