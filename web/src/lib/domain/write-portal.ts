import { HumanLine } from './human-line';

export { HumanLine } from './human-line';

/**
 * The write portal of an agent's cell (ARCHITECTURE §20, docs/contracts.md §7.3): the cell is
 * the only writer of its PTY; human keystrokes and delegated tasks go through it, in one order.
 * A delivery waits (never dropped, never refused) until the human's line is empty, then:
 * keystroke relay cut and overlay shown, K×DEL for K stray characters typed meanwhile, the text
 * (one line, no newline), after `submitDelayMs` the `submitSequence`, relay restored no sooner
 * than 2 s after the cut, then one acknowledgement.
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
}

export const DEFAULT_SUBMIT_SEQUENCE = '\r';
export const DEFAULT_SUBMIT_DELAY_MS = 60;
/** The overlay and the keystroke cut last at least this long (ARCHITECTURE §20.6). */
export const OVERLAY_FLOOR_MS = 2000;
/** Characters typed between "line empty" and the cut that the portal erases (§20.6: K ∈ {1, 2}). */
export const MAX_STRAY_CHARS = 2;
/** Quiet time between seeing the line empty and cutting the relay. */
export const SETTLE_MS = 30;

/** The writes of one delivery, in order. */
export interface InjectionPlan {
  /** Written at once: one DEL per stray character, then the text. */
  writes: string[];
  /** Written `submitDelayMs` after the text. */
  submit: string;
  submitDelayMs: number;
  /** Relay restored and acknowledgement sent no sooner than this after the cut. */
  floorMs: number;
}

/** The text as one line: a newline inside it would submit early. */
export function oneLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ');
}

/** The writes that deliver `delivery` when `stray` characters sit on the line. */
export function planInjection(delivery: Delivery, stray: number): InjectionPlan {
  const erase = Array.from({ length: Math.max(0, stray) }, () => '\x7f');
  const text = oneLine(delivery.text);
  return {
    writes: text ? [...erase, text] : erase,
    submit: delivery.submitSequence || DEFAULT_SUBMIT_SEQUENCE,
    submitDelayMs: delivery.submitDelayMs ?? DEFAULT_SUBMIT_DELAY_MS,
    floorMs: OVERLAY_FLOOR_MS,
  };
}

/** What the portal needs from its cell. */
export interface PortalHost {
  /** Writes through the cell's ordered keystroke path (same seq counter); resolves once sent. */
  write(data: string): Promise<void>;
  /** `orchestration.delivered`: called once per delivery whose writes all went through. */
  delivered(delivery: Delivery): void;
  /** Whether the session takes writes now (attached and alive). */
  ready(): boolean;
  /** The overlay or the queue changed. */
  changed(): void;
}

export interface PortalTiming {
  settleMs?: number;
  maxStray?: number;
}

/**
 * One portal per terminal view of an agent session. A new view starts with an empty line and
 * an empty queue: the backend offers pending deliveries again on attach.
 */
export class WritePortal {
  readonly line = new HumanLine();
  #host: PortalHost;
  #settleMs: number;
  #maxStray: number;
  #queue: Delivery[] = [];
  #current: Delivery | null = null;
  #settle: ReturnType<typeof setTimeout> | undefined;
  #disposed = false;
  /** Resolves the running delivery's 2 s floor early (the view is going away). */
  #skipFloor: (() => void) | null = null;
  #running: Promise<void> = Promise.resolve();

  constructor(host: PortalHost, timing: PortalTiming = {}) {
    this.#host = host;
    this.#settleMs = timing.settleMs ?? SETTLE_MS;
    this.#maxStray = timing.maxStray ?? MAX_STRAY_CHARS;
  }

  /** The delivery being typed (the overlay shows it), or null. */
  get current(): Delivery | null {
    return this.#current;
  }

  /** Deliveries waiting for the line to empty, oldest first. */
  get queued(): readonly Delivery[] {
    return this.#queue;
  }

  /** False while a delivery is typed: human keystrokes are swallowed, not sent. */
  get relayOpen(): boolean {
    return this.#current === null;
  }

  /** A human keystroke chunk: true when it must be sent to the PTY (and it is counted). */
  keystroke(data: string): boolean {
    if (!this.relayOpen) return false;
    this.line.feed(data);
    this.pump();
    return true;
  }

  /** Queues a delivery; false when this ticket is queued or being typed already. */
  offer(delivery: Delivery): boolean {
    if (this.#disposed || this.#knows(delivery.ticket)) return false;
    this.#queue.push(delivery);
    this.#host.changed();
    this.pump();
    return true;
  }

  /** Starts the next delivery if the line is empty and the session ready (after a quiet moment). */
  pump(): void {
    if (this.#disposed || this.#current || this.#settle !== undefined) return;
    if (this.#queue.length === 0 || !this.line.empty || !this.#host.ready()) return;
    this.#settle = setTimeout(() => {
      this.#settle = undefined;
      this.#begin();
    }, this.#settleMs);
  }

  /**
   * The view goes away: queued deliveries are dropped (the backend offers them to the next
   * view, or types them itself); one being typed finishes at once after its submit (no floor)
   * and is acknowledged. Resolves when nothing is being typed any more.
   */
  dispose(): Promise<void> {
    this.#disposed = true;
    clearTimeout(this.#settle);
    this.#settle = undefined;
    this.#queue = [];
    this.#skipFloor?.();
    return this.#running;
  }

  #knows(ticket: string): boolean {
    return this.#current?.ticket === ticket || this.#queue.some((d) => d.ticket === ticket);
  }

  #begin(): void {
    if (this.#disposed || this.#queue.length === 0 || !this.#host.ready()) return;
    const stray = this.line.length;
    if (stray > this.#maxStray) return; // the human is typing: wait until the line empties
    const delivery = this.#queue.shift()!;
    this.#current = delivery;
    this.#host.changed();
    this.#running = this.#type(delivery, planInjection(delivery, stray));
  }

  async #type(delivery: Delivery, plan: InjectionPlan): Promise<void> {
    const floor = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, plan.floorMs);
      this.#skipFloor = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    if (this.#disposed) this.#skipFloor?.();
    const write = (data: string) => this.#host.write(data).then(() => true, () => false);
    const writes = plan.writes.map(write);
    await new Promise((resolve) => setTimeout(resolve, plan.submitDelayMs));
    writes.push(write(plan.submit));
    const sent = (await Promise.all(writes)).every(Boolean);
    await floor;
    this.#skipFloor = null;
    this.line.reset();
    this.#current = null;
    this.#host.changed();
    if (sent) this.#host.delivered(delivery);
    this.pump();
  }
}
