/** How often the window sends its batched acks while output is consumed (ms). See ADR 008. */
export const ACK_INTERVAL_MS = 20;
/** A session's consumption below this is kept for a later ack (an echo needs none). */
export const ACK_MIN_CHARS = 4096;

/** Sends one call with every session's characters to acknowledge (`terminals.ackMany`). */
export type AckSender = (acks: Record<string, number>) => void;
export type AckScheduler = (run: () => void, ms: number) => unknown;

/**
 * Batched flow-control acks of all the terminals of a window (SPEC §5, ADR 008): consumption is
 * summed per session and sent in one call at most every `intervalMs`, whatever the number of
 * flooding terminals (no ack storm: at most 1000 / `intervalMs` calls per second). A session's
 * sum below `minChars` waits for more (a keystroke's echo costs no call), unless it was
 * consumed with `force` (output of a session nobody shows here: the backend must keep reading).
 */
export class AckBatcher {
  readonly intervalMs: number;
  readonly minChars: number;
  #send: AckSender;
  #schedule: AckScheduler;
  #pending = new Map<string, number>();
  #forced = new Set<string>();
  #armed = false;

  constructor(
    send: AckSender,
    schedule: AckScheduler = (run, ms) => setTimeout(run, ms),
    intervalMs: number = ACK_INTERVAL_MS,
    minChars: number = ACK_MIN_CHARS,
  ) {
    this.#send = send;
    this.#schedule = schedule;
    this.intervalMs = intervalMs;
    this.minChars = minChars;
  }

  /** `chars` characters of `sessionId` were consumed; the ack goes with the next tick. */
  consumed(sessionId: string, chars: number, force = false): void {
    if (chars <= 0) return;
    this.#pending.set(sessionId, (this.#pending.get(sessionId) ?? 0) + chars);
    if (force) this.#forced.add(sessionId);
    if (this.#pending.get(sessionId)! >= this.minChars || force) this.#arm();
  }

  /** Characters of `sessionId` consumed and not acknowledged yet. */
  pendingOf(sessionId: string): number {
    return this.#pending.get(sessionId) ?? 0;
  }

  /** Forgets a session's pending count (its view went away; detaching settles the backend). */
  forget(sessionId: string): void {
    this.#pending.delete(sessionId);
    this.#forced.delete(sessionId);
  }

  /** Sends what is due now (the tick; tests call it directly). */
  flush(): void {
    this.#armed = false;
    const acks: Record<string, number> = {};
    let any = false;
    for (const [sessionId, chars] of this.#pending) {
      if (chars < this.minChars && !this.#forced.has(sessionId)) continue;
      acks[sessionId] = chars;
      any = true;
    }
    for (const sessionId of Object.keys(acks)) {
      this.#pending.delete(sessionId);
      this.#forced.delete(sessionId);
    }
    if (any) this.#send(acks);
  }

  #arm(): void {
    if (this.#armed) return;
    this.#armed = true;
    this.#schedule(() => this.flush(), this.intervalMs);
  }
}
