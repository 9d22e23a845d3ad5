import type { PushBatch, PushHandler, Unsubscribe } from './ports';

/**
 * Fans push batches out to subscribers. Batches delivered before anyone subscribed are kept
 * (in order) and replayed to the first subscriber, so nothing pushed during start-up is lost.
 */
export class PushHub {
  #handlers = new Set<PushHandler>();
  #early: PushBatch[] = [];

  /** Accepts a batch object or its JSON text (what `evaluate_js` may hand over). */
  deliver(batch: PushBatch | string): void {
    const parsed: PushBatch = typeof batch === 'string' ? (JSON.parse(batch) as PushBatch) : batch;
    if (this.#handlers.size === 0) {
      this.#early.push(parsed);
      return;
    }
    for (const handler of [...this.#handlers]) {
      try {
        handler(parsed);
      } catch (error) {
        console.error('push handler failed', error);
      }
    }
  }

  subscribe(handler: PushHandler): Unsubscribe {
    this.#handlers.add(handler);
    if (this.#early.length > 0) {
      const early = this.#early;
      this.#early = [];
      for (const batch of early) handler(batch);
    }
    return () => this.#handlers.delete(handler);
  }
}
