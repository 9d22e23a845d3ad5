/**
 * The human's current line in an agent's terminal, as far as the keystrokes show it
 * (ARCHITECTURE §20.4: only the front knows it). Fed with every `term.onData` chunk the cell
 * relays to the PTY; the write portal injects a delegation only while it is empty.
 *
 * Rules: +1 per printable character (code point), -1 per DEL or backspace (`\x7f`, `\b`, never
 * below 0), back to empty on `\r`, `\n`, Ctrl-C (`\x03`) and Ctrl-U (`\x15`).
 *
 * Keys that may put text on the line without showing it in the keystrokes make the line
 * *uncertain*: history recall (Up/Down — `CSI A`/`CSI B`, with modifiers too, `SS3 A`/`SS3 B` —,
 * Ctrl-P, Ctrl-N, Ctrl-R), completion (Tab), yank (Ctrl-Y, Alt+Y, Alt+.), undo (Ctrl-_),
 * Ctrl-S, and the Alt+keys that read like a string introducer (Alt+P, Alt+_, Alt+^, Alt+],
 * Alt+X: readline's history and yank keys among them). An uncertain line is not empty, whatever
 * its count, until Enter (outside a bracketed paste), Ctrl-C or Ctrl-U; Backspace cannot empty it
 * (nobody knows how much there is to erase). `markUncertain` seeds that state (a line another
 * view left with text).
 *
 * Cursor keys (Left/Right/Home/End…), function keys, other Alt+key shortcuts, the Escape key,
 * focus and mouse reports and OSC/DCS strings change nothing, even when their body is split
 * across chunks. xterm.js sends each key, paste or report as one chunk, so a chunk ending on a
 * lone ESC was the Escape key and one ending just after a string introducer was Alt+key: what
 * is typed next counts. Pasted text counts its printable characters (a Tab inside it counts as
 * one); the bracketed-paste markers (`ESC[200~`, `ESC[201~`) are ignored, and a newline inside a
 * bracketed paste does not reset the line (the CLI keeps a multi-line paste in its input box
 * rather than submitting it). Other control characters (Ctrl-W, Ctrl-K…) change nothing: when
 * in doubt the line stays non-empty, which delays a delivery but never types over the human's
 * text.
 */
export class HumanLine {
  #length = 0;
  #state: 'ground' | 'esc' | 'csi' | 'ss3' | 'string' | 'string-esc' | 'x10-mouse' = 'ground';
  /** Parameter and intermediate bytes of the CSI sequence being read. */
  #csi = '';
  /** Raw bytes still to skip of a legacy (X10) mouse report. */
  #skip = 0;
  #pasting = false;
  /** The string introducer was the last character read (nothing of its body yet). */
  #stringOpened = false;
  /** Something the keystrokes do not show may be on the line (history, completion, yank…). */
  #uncertain = false;

  /** Characters the keystrokes put on the line (0 with `uncertain` is still not empty). */
  get length(): number {
    return this.#length;
  }

  /** The line may hold text the keystrokes do not show; cleared by Enter, Ctrl-C, Ctrl-U. */
  get uncertain(): boolean {
    return this.#uncertain;
  }

  get empty(): boolean {
    return this.#length === 0 && !this.#uncertain;
  }

  /** Counts one chunk of keystrokes (or a paste, or a report) sent to the PTY. */
  feed(data: string): void {
    for (const ch of data) this.#char(ch);
    if (this.#state === 'esc') this.#state = 'ground';
    else if (this.#state === 'string' && this.#stringOpened) {
      this.#state = 'ground';
      this.#uncertain = true; // Alt+P, Alt+_, Alt+^…: readline's history and yank keys
    }
  }

  /** The line is known to be empty again (e.g. after a delivery was submitted). */
  reset(): void {
    this.#length = 0;
    this.#uncertain = false;
  }

  /** Someone else may have left text on the line: not empty until Enter, Ctrl-C or Ctrl-U. */
  markUncertain(): void {
    this.#uncertain = true;
  }

  #char(ch: string): void {
    const code = ch.codePointAt(0) ?? 0;
    switch (this.#state) {
      case 'esc':
        if (ch === '[') {
          this.#state = 'csi';
          this.#csi = '';
        } else if (ch === 'O') this.#state = 'ss3';
        else if (ch === ']' || ch === 'P' || ch === '_' || ch === '^' || ch === 'X') {
          this.#state = 'string';
          this.#stringOpened = true;
        }
        else if (ch !== '\x1b') {
          this.#state = 'ground'; // Alt+key: a shortcut, not text…
          if (ALT_INSERTS.includes(ch)) this.#uncertain = true; // …unless it yanks text back
        }
        return;
      case 'csi':
        if (code >= 0x20 && code <= 0x3f) {
          this.#csi += ch;
          return;
        }
        this.#state = 'ground';
        if (code >= 0x40 && code <= 0x7e) {
          this.#csiDone(ch);
          return;
        }
        break; // not a CSI after all: read the character as ordinary input
      case 'ss3':
        this.#state = 'ground';
        if (ch === 'A' || ch === 'B') this.#uncertain = true; // Up/Down in application mode
        return;
      case 'string':
        this.#stringOpened = false;
        if (ch === '\x07') this.#state = 'ground';
        else if (ch === '\x1b') this.#state = 'string-esc';
        return;
      case 'string-esc':
        this.#state = ch === '\\' ? 'ground' : 'string';
        return;
      case 'x10-mouse':
        if (--this.#skip === 0) this.#state = 'ground';
        return;
      case 'ground':
        break;
    }
    this.#ground(ch, code);
  }

  #csiDone(final: string): void {
    if (final === '~' && this.#csi === '200') this.#pasting = true;
    else if (final === '~' && this.#csi === '201') this.#pasting = false;
    else if (final === 'M' && this.#csi === '') {
      this.#state = 'x10-mouse';
      this.#skip = 3;
    } else if ((final === 'A' || final === 'B') && !this.#csi.startsWith('<') && !this.#csi.startsWith('?')) {
      this.#uncertain = true; // Up/Down (Ctrl/Shift/Alt+Up too): history recall
    }
  }

  #ground(ch: string, code: number): void {
    if (ch === '\x1b') {
      this.#state = 'esc';
    } else if (ch === '\r' || ch === '\n') {
      if (!this.#pasting) this.reset();
    } else if (ch === '\x03' || ch === '\x15') {
      this.reset();
    } else if (ch === '\x7f' || ch === '\b') {
      this.#length = Math.max(0, this.#length - 1);
    } else if (ch === '\t' && this.#pasting) {
      this.#length += 1; // pasted text, not completion
    } else if (UNCERTAIN_KEYS.includes(ch)) {
      this.#uncertain = true;
    } else if (code >= 0x20 && !(code >= 0x7f && code <= 0x9f)) {
      this.#length += 1;
    }
  }
}

/** Tab, Ctrl-R, Ctrl-P, Ctrl-N, Ctrl-Y, Ctrl-S, Ctrl-_: the line may now hold text nobody typed here. */
const UNCERTAIN_KEYS = ['\t', '\x12', '\x10', '\x0e', '\x19', '\x13', '\x1f'];

/** Alt+Y (yank-pop), Alt+. (yank the last argument): readline inserts text. */
const ALT_INSERTS = ['y', '.'];
