/**
 * How the page hands PTY output to xterm.js (ADR 020): the values below come from
 * `bench/pty_throughput.py` and `bench/flood16.py` (`docs/benchmarks.md`, sitting 6).
 */
export interface FeedTuning {
  /** Length of one parse task the chunk size aims at (ms of xterm.js parsing). */
  taskMs: number;
  /**
   * The same for a lone flood while the session typed in last, within `urgentMs`, is another
   * one: the human's keystroke and its echo each wait behind the parse task running when they
   * reach the page. The session typed in itself keeps `taskMs`: what follows its Ctrl+C waits
   * behind its own backlog, which shorter tasks would drain more slowly.
   */
  typingTaskMs: number;
  /** Chunk size before any parse was measured, and the bounds of the adapted one (UTF-16 units). */
  firstChunkChars: number;
  minChunkChars: number;
  maxChunkChars: number;
  /** Most chunks being parsed at once, over all the terminals of the page. */
  maxOutstanding: number;
  /**
   * A session with nothing queued that wrote at most this much in the last `directWindowMs` has
   * its writes go to its terminal at once (an echo, a prompt); a flood's small pushes queue.
   */
  directChars: number;
  directWindowMs: number;
  /** Main-thread time (ms) after a frame during which chunks are handed over; then the next frame first. */
  sliceMs: number;
  /** How long a session typed in is served first (ms): Ctrl+C reaches its prompt through one backlog only. */
  urgentMs: number;
  /**
   * After a slice, the longest wait for the next frame before the next slice starts anyway (ms),
   * while the user works in the window (a key, a click or a wheel turn in the last `urgentMs`):
   * what they type or open is painted behind one slice of parsing at most.
   */
  frameWaitMs: number;
  /**
   * The same while nobody works in the window (ms). At 0, parsing goes on in tasks of its own and
   * Chromium draws a frame between two of them when one is due: waiting for the frame leaves the
   * page idle at about a seventh of a lone `cat`, and 0 gave one `cat` ~8 % more (docs/
   * benchmarks.md, sitting 11). Kept at `frameWaitMs` until the sixteen-flood and menu figures
   * were measured with it.
   */
  unattendedFrameWaitMs: number;
  /**
   * `sliceMs` while nobody works in the window (no key, click or wheel turn within `urgentMs`):
   * the page waits for a frame less often during a flood nobody types in. Frames still come
   * (Chromium draws one between two parse tasks when it is due): frame gaps p99 stayed 33–50
   * ms. 40 ms: one `cat` +5–7 % (median of 13 alternating pairs, 9 higher), the quiet echo,
   * Ctrl+C and sixteen floods unchanged (docs/benchmarks.md, sitting 13). A key pressed during
   * the slice ends it at the next chunk, as `sliceMs` would.
   */
  unattendedSliceMs: number;
}

export const FEED_TUNING: Readonly<FeedTuning> = {
  taskMs: 16,
  typingTaskMs: 4,
  firstChunkChars: 131_072,
  minChunkChars: 16_384,
  maxChunkChars: 1_048_576,
  maxOutstanding: 1,
  directChars: 4096,
  directWindowMs: 100,
  sliceMs: 12,
  urgentMs: 1000,
  frameWaitMs: 100,
  unattendedFrameWaitMs: 100,
  unattendedSliceMs: 40,
};

/**
 * Hands `text` to the session's terminal. `counted`: how many of those characters are
 * flow-controlled output, to acknowledge. `parsed(parseMs)`, given for queued chunks only, is
 * called once the terminal parsed the chunk (xterm.js's write callback), with the time the
 * parsing itself took (ms; NaN when unknown). A direct write (an echo) has none: measuring it
 * would cost xterm.js's parse-at-once after a keystroke.
 */
export type FeedWrite = (sessionId: string, text: string, counted: number, parsed?: (parseMs: number) => void) => void;
/** Runs `run` in a later task of its own (not inside the caller's task). */
export type FeedDefer = (run: () => void) => void;

/** The page's time and tasks, as the scheduler needs them. */
export interface FeedClock {
  /** Milliseconds, monotonic. */
  now(): number;
  /** Runs `run` in a later task of its own (not inside the caller's task). */
  defer: FeedDefer;
  /** Runs `run` once the next frame was rendered, or after `maxWaitMs` (ms) if no frame came by then. */
  afterFrame(run: () => void, maxWaitMs: number): void;
}

interface Piece {
  text: string;
  counted: boolean;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** What the page still holds for one session, oldest first. */
class SessionQueue {
  pieces: Piece[] = [];
  head = 0;
  chars = 0;

  push(piece: Piece): void {
    this.pieces.push(piece);
    this.chars += piece.text.length;
  }

  /** Up to `max` characters from the front (never splitting a surrogate pair), and how many are counted. */
  take(max: number): { text: string; counted: number } {
    let text = '';
    let counted = 0;
    while (this.head < this.pieces.length && text.length < max) {
      const piece = this.pieces[this.head];
      let cut = Math.min(piece.text.length, max - text.length);
      if (cut < piece.text.length && isHighSurrogate(piece.text.charCodeAt(cut - 1))) cut -= 1;
      if (cut === 0) {
        if (text.length > 0) break; // a pair at the edge goes with the next chunk
        cut = Math.min(2, piece.text.length);
      }
      const part = cut === piece.text.length ? piece.text : piece.text.slice(0, cut);
      text += part;
      if (piece.counted) counted += part.length;
      if (cut === piece.text.length) this.head += 1;
      else piece.text = piece.text.slice(cut);
    }
    this.chars -= text.length;
    if (this.head > 32 && this.head * 2 > this.pieces.length) {
      this.pieces = this.pieces.slice(this.head);
      this.head = 0;
    }
    return { text, counted };
  }
}

/** Weight of the newest sample in the parse rate's moving average. */
const RATE_WEIGHT = 0.3;
/** Parses shorter than this (ms) say little about the rate. */
const RATE_MIN_SAMPLE_MS = 2;

/**
 * Feeds the output of all the terminals of a page to xterm.js so that an echo never waits behind
 * floods and floods still go at the page's speed (issue 11, ADR 020). On its own, xterm.js parses
 * each terminal's pending writes in tasks of up to 12 ms (`WriteBuffer`); with sixteen terminals
 * flooding, a quiet terminal's echo (and every frame) waited behind up to sixteen such tasks, and
 * one flood drew a frame after every 12 ms of parsing. Here:
 *
 * - a small write to a session with nothing queued that wrote little lately (≤ `directChars` in
 *   `directWindowMs`: an echo, a prompt) is written at once; a flood's small pushes queue;
 * - anything else is queued per session and handed over in chunks, one chunk per session at a
 *   time, at most `maxOutstanding` being parsed in the page; a chunk is as long as the page
 *   parses in `taskMs` (measured rate, bounded), so a parse task is one chunk and about that
 *   long, and in `typingTaskMs` for a lone flood while the human types in another session;
 * - sessions take turns (round robin), except that a session typed in during the last
 *   `urgentMs` is served first: Ctrl+C in a flooding terminal waits behind its own backlog only;
 * - chunks are handed over in a task of their own (`defer`) during a slice of `sliceMs` after a
 *   frame; then, while the user works in the window, the scheduler waits for the next frame, so
 *   every frame (and the echo on it) waits behind one slice of parsing at most, and only the
 *   terminals fed in it redraw; while nobody does, it waits `unattendedFrameWaitMs` at most.
 *
 * Order within a session is kept (direct writes only when nothing of it is queued). Nothing is
 * dropped: a session's text stays queued until its terminal took it, and flow-control acks follow
 * parsing (`FeedWrite`'s `counted`), so the backend stops reading a session the page cannot keep up with.
 */
export class FeedScheduler {
  #write: FeedWrite;
  #clock: FeedClock;
  #tuning: FeedTuning;
  #queues = new Map<string, SessionQueue>();
  /** Sessions with queued text and no chunk being parsed, in the order they are served. */
  #line: string[] = [];
  /** The chunk of each session being parsed (a token, so a forgotten session's late callback is ignored). */
  #outstanding = new Map<string, object>();
  /** Until when (ms) each recently typed-in session is served first. */
  #urgentUntil = new Map<string, number>();
  /** The session typed in last (its terminal is the one the human is on), null before any. */
  #typedLast: string | null = null;
  /** When (ms) the user last pressed a key, clicked or turned the wheel in the window. */
  #interactedAt = -Infinity;
  /** What each session wrote since when (ms), for the direct path: at most `directChars` per window. */
  #recent = new Map<string, { since: number; chars: number }>();
  /** Characters xterm.js parses per ms, a moving average; null before the first sample. */
  #rate: number | null = null;
  /** When the current slice began (ms); null while the scheduler is idle. */
  #sliceStart: number | null = null;
  #awaitingFrame = false;
  #armed = false;

  constructor(write: FeedWrite, clock: FeedClock, tuning: Partial<FeedTuning> = {}) {
    this.#write = write;
    this.#clock = clock;
    this.#tuning = { ...FEED_TUNING, ...tuning };
  }

  /** The values in use (the benchmarks change them through `tune`). */
  get tuning(): FeedTuning {
    return { ...this.#tuning };
  }

  /** Changes the tuning (benchmarks only). */
  tune(tuning: Partial<FeedTuning>): void {
    this.#tuning = { ...this.#tuning, ...tuning };
    this.#tuning.maxOutstanding = Math.max(1, Math.floor(this.#tuning.maxOutstanding));
    this.#arm();
  }

  /** Characters per ms xterm.js was measured to parse (null: not yet). */
  get rate(): number | null {
    return this.#rate;
  }

  /** The size of the next chunk of a session while nobody types in another one (UTF-16 units). */
  get chunkChars(): number {
    return this.#chunkOf(this.#tuning.taskMs, this.#tuning.firstChunkChars);
  }

  /**
   * The size of the next chunk of `sessionId` at `now`: shorter while the human types in another
   * session and no other session waits for its turn (with several floods, short chunks fed several
   * terminals per frame, each redrawn: sixteen floods went at half the speed, their echo no sooner).
   */
  chunkCharsOf(sessionId: string, now = this.#clock.now()): number {
    const { typingTaskMs, taskMs, firstChunkChars } = this.#tuning;
    const othersWait = this.#line.some((id) => id !== sessionId);
    if (othersWait || !this.#typedElsewhere(sessionId, now)) return this.chunkChars;
    return this.#chunkOf(typingTaskMs, (firstChunkChars * typingTaskMs) / taskMs);
  }

  #chunkOf(ms: number, first: number): number {
    const { minChunkChars, maxChunkChars } = this.#tuning;
    const wanted = this.#rate === null ? first : this.#rate * ms;
    return Math.round(Math.min(maxChunkChars, Math.max(minChunkChars, wanted)));
  }

  /** Whether the session typed in last, within `urgentMs` of `now`, is another than `sessionId`. */
  #typedElsewhere(sessionId: string, now: number): boolean {
    const last = this.#typedLast;
    return last !== null && last !== sessionId && (this.#urgentUntil.get(last) ?? -Infinity) >= now;
  }

  /**
   * Output of `sessionId` for its terminal. `counted` false: text the page adds itself (an exit
   * line), written in order but not acknowledged.
   */
  feed(sessionId: string, text: string, counted = true): void {
    if (!text) return;
    const queue = this.#queues.get(sessionId);
    if (queue) {
      queue.push({ text, counted });
      return;
    }
    if (this.#quiet(sessionId, text.length)) {
      this.#write(sessionId, text, counted ? text.length : 0);
      return;
    }
    const fresh = new SessionQueue();
    fresh.push({ text, counted });
    this.#queues.set(sessionId, fresh);
    if (!this.#outstanding.has(sessionId)) this.#line.push(sessionId);
    this.#arm();
  }

  /** Counts `chars` written by the session; true while it wrote at most `directChars` in the window. */
  #quiet(sessionId: string, chars: number): boolean {
    const now = this.#clock.now();
    const recent = this.#recent.get(sessionId);
    if (!recent || now - recent.since >= this.#tuning.directWindowMs) {
      this.#recent.set(sessionId, { since: now, chars });
      return chars <= this.#tuning.directChars;
    }
    recent.chars += chars;
    return recent.chars <= this.#tuning.directChars;
  }

  /** The human typed in `sessionId`: its output is served first for a while. */
  typed(sessionId: string): void {
    this.#urgentUntil.set(sessionId, this.#clock.now() + this.#tuning.urgentMs);
    this.#typedLast = sessionId;
    this.interacted();
  }

  /** The user pressed a key, clicked or turned the wheel somewhere in the window. */
  interacted(): void {
    this.#interactedAt = this.#clock.now();
  }

  /** How long the scheduler waits for a frame after a slice at `now` (ms): see `frameWaitMs`. */
  frameWaitAt(now = this.#clock.now()): number {
    return this.#attended(now) ? this.#tuning.frameWaitMs : this.#tuning.unattendedFrameWaitMs;
  }

  /** How long a slice of parsing lasts at `now` (ms): see `sliceMs`, `unattendedSliceMs`. */
  sliceAt(now = this.#clock.now()): number {
    return this.#attended(now) ? this.#tuning.sliceMs : this.#tuning.unattendedSliceMs;
  }

  #attended(now: number): boolean {
    return now - this.#interactedAt < this.#tuning.urgentMs;
  }

  /** Characters of `sessionId` the page holds and its terminal did not take yet. */
  queuedOf(sessionId: string): number {
    return this.#queues.get(sessionId)?.chars ?? 0;
  }

  /** Chunks being parsed now, over all sessions. */
  get outstanding(): number {
    return this.#outstanding.size;
  }

  /** Drops what is queued for a session whose terminal went away (its view settles the flow control). */
  forget(sessionId: string): void {
    this.#queues.delete(sessionId);
    this.#outstanding.delete(sessionId);
    this.#urgentUntil.delete(sessionId);
    if (this.#typedLast === sessionId) this.#typedLast = null;
    this.#recent.delete(sessionId);
    this.#line = this.#line.filter((id) => id !== sessionId);
    this.#arm();
  }

  #arm(): void {
    if (this.#line.length === 0 && this.#outstanding.size === 0) this.#sliceStart = null; // idle
    if (this.#armed || this.#awaitingFrame || this.#line.length === 0) return;
    if (this.#outstanding.size >= this.#tuning.maxOutstanding) return;
    this.#armed = true;
    this.#clock.defer(() => {
      this.#armed = false;
      this.#pump();
    });
  }

  /** The next session to serve: the first urgent one in line, else the first in line. */
  #next(now: number): string {
    for (let i = 0; i < this.#line.length && this.#urgentUntil.size > 0; i++) {
      const id = this.#line[i];
      const until = this.#urgentUntil.get(id);
      if (until === undefined) continue;
      if (until < now) {
        this.#urgentUntil.delete(id);
        continue;
      }
      this.#line.splice(i, 1);
      return id;
    }
    return this.#line.shift()!;
  }

  /**
   * Hands a chunk to the next session in line while fewer than `maxOutstanding` are parsed and
   * the slice lasts; past the slice, waits for the next frame.
   */
  #pump(): void {
    if (this.#awaitingFrame) return;
    while (this.#line.length > 0 && this.#outstanding.size < this.#tuning.maxOutstanding) {
      const now = this.#clock.now();
      this.#sliceStart ??= now;
      if (now - this.#sliceStart >= this.sliceAt(now)) {
        this.#awaitingFrame = true;
        this.#clock.afterFrame(() => {
          this.#awaitingFrame = false;
          this.#sliceStart = this.#clock.now();
          this.#pump();
        }, this.frameWaitAt(now));
        return;
      }
      const sessionId = this.#next(now);
      const queue = this.#queues.get(sessionId);
      if (!queue) continue;
      const { text, counted } = queue.take(this.chunkCharsOf(sessionId, now));
      if (queue.chars === 0) this.#queues.delete(sessionId);
      const token = {};
      this.#outstanding.set(sessionId, token);
      this.#write(sessionId, text, counted, (parseMs) => this.#parsed(sessionId, token, text.length, parseMs));
    }
  }

  #parsed(sessionId: string, token: object, chars: number, parseMs: number): void {
    if (parseMs >= RATE_MIN_SAMPLE_MS) {
      const sample = chars / parseMs;
      this.#rate = this.#rate === null ? sample : this.#rate + RATE_WEIGHT * (sample - this.#rate);
    }
    if (this.#outstanding.get(sessionId) !== token) return; // forgotten meanwhile
    this.#outstanding.delete(sessionId);
    if (this.#queues.has(sessionId)) this.#line.push(sessionId);
    this.#arm();
  }
}
