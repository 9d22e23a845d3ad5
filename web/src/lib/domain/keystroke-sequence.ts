/**
 * Per-session counter for keystroke writes: 0, 1, 2, … The backend applies writes of a session
 * in this order, whatever order the bridge threads deliver them in (SPEC §5). One instance per
 * session, kept for the life of the session (not of a view) so a remounted view continues it.
 */
export class KeystrokeSequence {
  #next = 0;

  /** The number to send with the next write. */
  next(): number {
    return this.#next++;
  }

  /** How many numbers were handed out. */
  get issued(): number {
    return this.#next;
  }
}

/** Lazily creates one `KeystrokeSequence` per session id. */
export class KeystrokeSequences {
  #bySession = new Map<string, KeystrokeSequence>();

  for(sessionId: string): KeystrokeSequence {
    let seq = this.#bySession.get(sessionId);
    if (!seq) {
      seq = new KeystrokeSequence();
      this.#bySession.set(sessionId, seq);
    }
    return seq;
  }

  forget(sessionId: string): void {
    this.#bySession.delete(sessionId);
  }
}
