/**
 * What xterm.js answers by itself to a program's queries, as opposed to what the human typed.
 *
 * A view that attaches replays the session's scrollback into a fresh terminal; queries in it
 * (`vi` asks for the cursor position, the terminal's identity, its colours and modes on start)
 * are answered again by xterm.js through `onData`, as if typed. Sent to the PTY, those answers
 * land at the shell's prompt as text (`2RR0;276;0c10;rgb:cccc/…`), and run on Enter. The hub
 * drops, while a replay is parsed, data made only of such answers. Keys never look like them:
 * arrows, function keys and Alt+key are `ESC [ … A-D ~ H F`, `ESC O …` or `ESC` + a character.
 *
 * Shapes (xterm.js 6 `InputHandler`; xterm's ctlseqs, "Device Status Report", "Request Mode"):
 * `CSI ? 1 ; 2 c` and `CSI > 0 ; 276 ; 0 c` (device attributes), `CSI 0 n` (status),
 * `CSI r ; c R` / `CSI ? r ; c R` (cursor position), `CSI ? 12 ; 2 $ y` (mode reports),
 * `CSI … t` (window reports), `CSI I` / `CSI O` (focus), `OSC … ST|BEL` (colour answers) and
 * `DCS … ST` (setting answers).
 */
// eslint-disable-next-line no-control-regex -- escape sequences are what this recognises
const REPLY = /\x1b\[[?>]?[\d;]*(?:c|n|R|t|\$y)|\x1b\[[IO]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1bP[^\x1b]*\x1b\\/y;

/** True when `data` (one `onData` chunk) is one or more terminal answers and nothing else. */
export function isTerminalReply(data: string): boolean {
  if (data === '') return false;
  REPLY.lastIndex = 0;
  while (REPLY.lastIndex < data.length) {
    const at = REPLY.lastIndex;
    if (!REPLY.test(data) || REPLY.lastIndex === at) return false;
  }
  return true;
}
