import { HumanLine } from './human-line';

export { HumanLine } from './human-line';

/**
 * The write portal of an agent's cell (ARCHITECTURE §20, docs/contracts.md §7.3): the cell is
 * the only writer of its PTY; human keystrokes and delegated tasks go through it, in one order.
 * A delivery waits (never dropped, never refused) until the human's line is empty — sure to be
 * empty: an uncertain line (history recall, completion, a `lineDirty` seed) is not —, then,
 * after a quiet moment that still finds it empty: keystroke relay cut (keys typed meanwhile are
 * held, in order), the text (one line), after `submitDelayMs` the `submitSequence`, both written
 * with the delivery's ticket; as soon as the submit is written the relay is restored (the held
 * keys go out through the normal keystroke path) and the delivery acknowledged. Nothing the human
 * typed is ever erased: every key passes through `keystroke()` before it reaches the PTY, so a
 * line that is not empty when the quiet moment ends just makes the delivery wait again. The
 * overlay lingers a little for the eye (`OVERLAY_MIN_MS` after the cut); it blocks and delays
 * nothing. The portal reports its line going non-empty and empty again (transitions only).
 */

/** What the backend asks the portal to type (a `delegationReady` addressed to this view). */
export interface Delivery {
  root: string;
  agentId: string;
  sessionId: string;
  ticket: string;
  text: string;
  submitSequence?: string;
  submitDelayMs?: number;
  /** The backend last heard this session's line was left with text (maybe by another view). */
  lineDirty?: boolean;
  /** Texts that, on the CLI's screen, mean it waits for its human (a sign-in menu). */
  waitingScreens?: string[];
}

export const DEFAULT_SUBMIT_SEQUENCE = '\r';
export const DEFAULT_SUBMIT_DELAY_MS = 60;
/** The overlay shows at least this long after the cut, for the eye (it holds nothing back). */
export const OVERLAY_MIN_MS = 600;
/** Quiet time between seeing the line empty and cutting the relay. */
export const SETTLE_MS = 30;
/** How often a screen that waits for the human is looked at again (ms). */
export const SCREEN_POLL_MS = 500;

/** The writes of one delivery. */
export interface InjectionPlan {
  /** Written at once (nothing when empty). */
  text: string;
  /** Written `submitDelayMs` after the text. */
  submit: string;
  submitDelayMs: number;
}

/**
 * The text as one line of printable characters: newlines and tabs become spaces (a newline
 * would submit early, a tab complete), other control characters are dropped (a task cannot
 * press keys).
 */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  return text.replace(/\r\n|[\r\n\t]/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
}

/** The writes that deliver `delivery`. */
export function planInjection(delivery: Delivery): InjectionPlan {
  return {
    text: oneLine(delivery.text),
    submit: delivery.submitSequence || DEFAULT_SUBMIT_SEQUENCE,
    submitDelayMs: delivery.submitDelayMs ?? DEFAULT_SUBMIT_DELAY_MS,
  };
}

/** What the portal needs from its cell. */
export interface PortalHost {
  /**
   * Writes through the cell's ordered keystroke path (same seq counter); resolves once sent.
   * `ticket` marks the portal's own writes of a delivery; held human keys go without.
   */
  write(data: string, ticket?: string): Promise<void>;
  /** `orchestration.delivered`: called once per delivery whose writes all went through. */
  delivered(delivery: Delivery): void;
  /** Whether the session takes writes now (attached and alive). */
  ready(): boolean;
  /** The overlay or the queue changed. */
  changed(): void;
  /** The human line went non-empty or uncertain (`true`) or empty again (`false`). */
  humanLine(dirty: boolean): void;
  /** The first of `texts` the terminal's screen shows now, or null. */
  screenShows?(texts: readonly string[]): string | null;
}

export interface PortalTiming {
  settleMs?: number;
  overlayMs?: number;
  screenPollMs?: number;
}

/** A chunk typed while the relay was cut: keys count in the human line, binary reports do not. */
interface HeldInput {
  data: string;
  keys: boolean;
}

/**
 * One portal per terminal view of an agent session. A new view starts with an empty line and
 * an empty queue: the backend offers pending deliveries again on attach (with `lineDirty`).
 */
export class WritePortal {
  readonly line = new HumanLine();
  #host: PortalHost;
  #settleMs: number;
  #overlayMs: number;
  #screenPollMs: number;
  /** The waiting screen the next delivery waits behind, or null. */
  #waitingScreen: string | null = null;
  #screenPoll: ReturnType<typeof setTimeout> | undefined;
  #queue: Delivery[] = [];
  /** The delivery being typed: the relay is cut until its submit is written. */
  #typing: Delivery | null = null;
  /** The delivery the overlay shows (the one typed, or just typed while the overlay lingers). */
  #shown: Delivery | null = null;
  #held: HeldInput[] = [];
  #settle: ReturnType<typeof setTimeout> | undefined;
  /** Running while the overlay's minimum time is not over. */
  #linger: ReturnType<typeof setTimeout> | undefined;
  /** The line state last reported to the host (a new view assumes empty). */
  #reportedDirty = false;
  #disposed = false;
  #running: Promise<void> = Promise.resolve();

  constructor(host: PortalHost, timing: PortalTiming = {}) {
    this.#host = host;
    this.#settleMs = timing.settleMs ?? SETTLE_MS;
    this.#overlayMs = timing.overlayMs ?? OVERLAY_MIN_MS;
    this.#screenPollMs = timing.screenPollMs ?? SCREEN_POLL_MS;
  }

  /** What the CLI's screen shows that holds the next delivery back (it waits for its human). */
  get waitingScreen(): string | null {
    return this.#waitingScreen;
  }

  /** The delivery being typed (the relay is cut), or null. */
  get current(): Delivery | null {
    return this.#typing;
  }

  /** The delivery the overlay shows: the one typed, then for a moment the one just typed. */
  get shown(): Delivery | null {
    return this.#shown;
  }

  /** Deliveries waiting for the line to empty, oldest first. */
  get queued(): readonly Delivery[] {
    return this.#queue;
  }

  /** False while a delivery is typed: human input is held, then sent after the submit. */
  get relayOpen(): boolean {
    return this.#typing === null;
  }

  /**
   * A human keystroke chunk: true when it must be sent to the PTY now (it is counted); false
   * when a delivery is being typed (it is held and sent, counted, right after the submit).
   */
  keystroke(data: string): boolean {
    if (!this.relayOpen) {
      this.#held.push({ data, keys: true });
      return false;
    }
    this.#feed(data);
    this.pump();
    return true;
  }

  /** A binary report (legacy mouse): true when it must be sent now, false when it is held. */
  binary(data: string): boolean {
    if (this.relayOpen) return true;
    this.#held.push({ data, keys: false });
    return false;
  }

  /**
   * Queues a delivery; false when this ticket is queued or being typed already. A delivery that
   * says the line was left with text (`lineDirty`) while this view's own line is empty (it never
   * saw those keys) makes the line uncertain.
   */
  offer(delivery: Delivery): boolean {
    if (this.#disposed || this.#knows(delivery.ticket)) return false;
    if (delivery.lineDirty && this.line.empty) {
      this.line.markUncertain();
      this.#reportLine();
    }
    this.#queue.push(delivery);
    this.#host.changed();
    this.pump();
    return true;
  }

  /** The backend ended `ticket` (done, failed) before it was typed: it leaves the queue. */
  cancel(ticket: string): boolean {
    const index = this.#queue.findIndex((d) => d.ticket === ticket);
    if (index < 0) return false;
    this.#queue.splice(index, 1);
    this.#host.changed();
    return true;
  }

  /**
   * Starts the next delivery if the line is empty, the session ready and its screen not one
   * that waits for the human (looked at again every `screenPollMs`), after a quiet moment.
   */
  pump(): void {
    if (this.#disposed || this.#typing || this.#settle !== undefined) return;
    if (this.#queue.length === 0 || !this.line.empty || !this.#host.ready()) return;
    if (this.#screenWaits()) return;
    this.#settle = setTimeout(() => {
      this.#settle = undefined;
      this.#begin();
    }, this.#settleMs);
  }

  /**
   * The view goes away: queued deliveries are dropped (the backend offers them to the next
   * view, or types them itself); one being typed finishes its writes, sends the held keys and
   * is acknowledged. Resolves when nothing is being typed any more.
   */
  dispose(): Promise<void> {
    this.#disposed = true;
    clearTimeout(this.#settle);
    this.#settle = undefined;
    clearTimeout(this.#linger);
    this.#linger = undefined;
    clearTimeout(this.#screenPoll);
    this.#screenPoll = undefined;
    this.#queue = [];
    return this.#running;
  }

  /** Whether the next delivery waits behind a screen for the human (re-checked later). */
  #screenWaits(): boolean {
    const texts = this.#queue[0]?.waitingScreens ?? [];
    const shows = texts.length > 0 ? (this.#host.screenShows?.(texts) ?? null) : null;
    if (shows !== this.#waitingScreen) {
      this.#waitingScreen = shows;
      this.#host.changed();
    }
    if (shows === null) return false;
    if (this.#screenPoll === undefined) {
      this.#screenPoll = setTimeout(() => {
        this.#screenPoll = undefined;
        this.pump();
      }, this.#screenPollMs);
    }
    return true;
  }

  #knows(ticket: string): boolean {
    return this.#typing?.ticket === ticket || this.#queue.some((d) => d.ticket === ticket);
  }

  #feed(data: string): void {
    this.line.feed(data);
    this.#reportLine();
  }

  /** Tells the host when the line changed between empty and not (never per key). */
  #reportLine(): void {
    const dirty = !this.line.empty;
    if (dirty === this.#reportedDirty) return;
    this.#reportedDirty = dirty;
    this.#host.humanLine(dirty);
  }

  #begin(): void {
    if (this.#disposed || this.#queue.length === 0 || !this.#host.ready()) return;
    // Something was typed during the quiet moment: wait for the next empty line (no erasing).
    if (!this.line.empty || this.#screenWaits()) return;
    const delivery = this.#queue.shift()!;
    this.#typing = delivery;
    this.#shown = delivery;
    clearTimeout(this.#linger);
    this.#linger = setTimeout(() => {
      this.#linger = undefined;
      if (this.#typing !== delivery) this.#hide(delivery);
    }, this.#overlayMs);
    this.#host.changed();
    this.#running = this.#type(delivery, planInjection(delivery));
  }

  async #type(delivery: Delivery, plan: InjectionPlan): Promise<void> {
    const write = (data: string) => this.#host.write(data, delivery.ticket).then(() => true, () => false);
    const text = plan.text ? write(plan.text) : Promise.resolve(true);
    await new Promise((resolve) => setTimeout(resolve, plan.submitDelayMs));
    const sent = (await Promise.all([text, write(plan.submit)])).every(Boolean);
    this.#typing = null;
    this.#flushHeld();
    if (this.#linger === undefined || this.#disposed) this.#hide(delivery);
    this.#host.changed();
    if (sent) this.#host.delivered(delivery);
    this.pump();
  }

  /** The relay is back: what the human typed meanwhile goes out, in order, and counts. */
  #flushHeld(): void {
    const held = this.#held;
    this.#held = [];
    for (const { data, keys } of held) {
      if (keys) this.#feed(data);
      this.#host.write(data).catch(() => {});
    }
  }

  #hide(delivery: Delivery): void {
    if (this.#shown !== delivery) return;
    this.#shown = null;
    this.#host.changed();
  }
}
