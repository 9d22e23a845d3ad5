import { asGatewayError, type Escalation, type Gateway } from '../../lib/ports';

/** Why a decision did not go through: the backend's code and message. */
export interface DecideFailure {
  code: string;
  message: string;
}

/**
 * A project's questions waiting for the user (ESCALATE packets, docs/contracts.md §8.2), oldest
 * first: the prompt shows the first one and how many wait. Nothing is lost: the answer typed so
 * far is kept per question (across tab switches), and a failed `orchestration.decide` leaves the
 * question in place with its error. A question the backend no longer has (`NOT_FOUND`: answered
 * elsewhere or withdrawn) may then be dismissed; `escalationResolved` removes it in any case.
 */
export class EscalationQueue {
  readonly root: string;
  #pending = $state.raw<Escalation[]>([]);
  #drafts = $state.raw<Readonly<Record<string, string>>>({});
  #failures = $state.raw<Readonly<Record<string, DecideFailure>>>({});
  #sending = $state<string | null>(null);

  readonly #current: Escalation | null = $derived(this.#pending[0] ?? null);

  #gateway: Gateway;

  constructor(gateway: Gateway, root: string) {
    this.#gateway = gateway;
    this.root = root;
  }

  /** The question shown: the oldest pending. */
  get current(): Escalation | null {
    return this.#current;
  }

  get pending(): readonly Escalation[] {
    return this.#pending;
  }

  get count(): number {
    return this.#pending.length;
  }

  /** `escalation` push: queues the question; false when it was known already. */
  raise(escalation: Escalation): boolean {
    if (this.#pending.some((e) => e.ticket === escalation.ticket)) return false;
    this.#pending = [...this.#pending, escalation];
    return true;
  }

  /**
   * Seeds the queue with the questions the backend still holds (`orchestration.pending`): a
   * window opening the project sees those asked before it. A failed read leaves the queue as the
   * pushes make it (they still arrive); it never throws.
   */
  async load(): Promise<void> {
    try {
      for (const escalation of await this.#gateway.orchestration.pending(this.root)) this.raise(escalation);
    } catch {
      // the pushes go on; the question shows when it is asked again or answered elsewhere
    }
  }

  /** `escalationResolved` push (answered here or in another window, or withdrawn). */
  resolved(ticket: string): void {
    if (!this.#pending.some((e) => e.ticket === ticket)) return;
    this.#pending = this.#pending.filter((e) => e.ticket !== ticket);
    this.#drafts = without(this.#drafts, ticket);
    this.#failures = without(this.#failures, ticket);
  }

  /** The free answer typed so far for `ticket`. */
  draft(ticket: string): string {
    return this.#drafts[ticket] ?? '';
  }

  setDraft(ticket: string, text: string): void {
    this.#drafts = { ...this.#drafts, [ticket]: text };
  }

  failure(ticket: string): DecideFailure | null {
    return this.#failures[ticket] ?? null;
  }

  /** An answer to `ticket` is on its way. */
  isSending(ticket: string): boolean {
    return this.#sending === ticket;
  }

  /** The backend no longer has the question: the prompt may be closed without an answer. */
  isGone(ticket: string): boolean {
    return this.#failures[ticket]?.code === 'NOT_FOUND';
  }

  /**
   * Sends the user's answer (an option or a free text). True when the backend took it (the
   * question goes); on failure the question stays, with the error, the draft untouched.
   */
  async decide(ticket: string, choice: string): Promise<boolean> {
    if (this.#sending !== null) return false;
    this.#sending = ticket;
    this.#failures = without(this.#failures, ticket);
    try {
      await this.#gateway.orchestration.decide(this.root, ticket, choice);
      this.resolved(ticket);
      return true;
    } catch (error) {
      const failed = asGatewayError(error);
      this.#failures = { ...this.#failures, [ticket]: { code: failed.code, message: failed.message } };
      return false;
    } finally {
      this.#sending = null;
    }
  }

  /** Closes a question the backend no longer has (see `isGone`); others cannot be dismissed. */
  dismiss(ticket: string): void {
    if (this.isGone(ticket)) this.resolved(ticket);
  }
}

function without<T>(record: Readonly<Record<string, T>>, key: string): Readonly<Record<string, T>> {
  if (!(key in record)) return record;
  const next = { ...record };
  delete next[key];
  return next;
}
