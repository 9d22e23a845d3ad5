/**
 * The human's current line in an agent's terminal, as far as the keystrokes show it
 * (ARCHITECTURE §20.4: only the front knows it). Fed with every `term.onData` chunk the cell
 * relays to the PTY; the write portal injects a delegation only while it is empty.
 *
 * Rules: +1 per printable character (code point), -1 per DEL or backspace (`\x7f`, `\b`, never
 * below 0), back to 0 on `\r`, `\n`, Ctrl-C (`\x03`) and Ctrl-U (`\x15`). Escape and control
 * sequences (arrows, function keys, Alt+key, focus and mouse reports, OSC/DCS strings) are
 * ignored: they neither make the line non-empty nor reset it, even when split across chunks.
 * Pasted text counts its printable characters; the bracketed-paste markers (`ESC[200~`,
 * `ESC[201~`) are ignored, and a newline inside a bracketed paste does not reset the line (the
 * CLI keeps a multi-line paste in its input box rather than submitting it). Other control
 * characters (Tab, Ctrl-W…) change nothing: when in doubt the line stays non-empty, which
 * delays a delivery but never types over the human's text.
 */
export class HumanLine {
  #length = 0;
  #state: 'ground' | 'esc' | 'csi' | 'ss3' | 'string' | 'string-esc' | 'x10-mouse' = 'ground';
  /** Parameter and intermediate bytes of the CSI sequence being read. */
  #csi = '';
  /** Raw bytes still to skip of a legacy (X10) mouse report. */
  #skip = 0;
  #pasting = false;

  /** Characters on the line (0 = empty). */
  get length(): number {
    return this.#length;
  }

  get empty(): boolean {
    return this.#length === 0;
  }

  /** Counts one chunk of keystrokes (or a paste) sent to the PTY. */
  feed(data: string): void {
    for (const ch of data) this.#char(ch);
  }

  /** The line is known to be empty again (e.g. after a delivery was submitted). */
  reset(): void {
    this.#length = 0;
  }

  #char(ch: string): void {
    const code = ch.codePointAt(0) ?? 0;
    switch (this.#state) {
      case 'esc':
        if (ch === '[') {
          this.#state = 'csi';
          this.#csi = '';
        } else if (ch === 'O') this.#state = 'ss3';
        else if (ch === ']' || ch === 'P' || ch === '_' || ch === '^' || ch === 'X') this.#state = 'string';
        else if (ch !== '\x1b') this.#state = 'ground'; // Alt+key: a shortcut, not text
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
        return;
      case 'string':
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
    }
  }

  #ground(ch: string, code: number): void {
    if (ch === '\x1b') {
      this.#state = 'esc';
    } else if (ch === '\r' || ch === '\n') {
      if (!this.#pasting) this.#length = 0;
    } else if (ch === '\x03' || ch === '\x15') {
      this.#length = 0;
    } else if (ch === '\x7f' || ch === '\b') {
      this.#length = Math.max(0, this.#length - 1);
    } else if (code >= 0x20 && !(code >= 0x7f && code <= 0x9f)) {
      this.#length += 1;
    }
  }
}
