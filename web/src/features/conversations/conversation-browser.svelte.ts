import { matchingTurnIds } from '../../lib/domain/conversation-view';
import { asGatewayError, type ConversationDTO, type ConversationSummary, type Gateway, type Turn } from '../../lib/ports';

/** Where a load is: under way, done, or failed (with a message). */
export type LoadState = 'loading' | 'ready' | 'error';

/**
 * What the conversations dialog shows for one agent: its pair conversations
 * (`conversations.list`), the selected one's turns and handoff (`conversations.read`), a
 * search over the turns, and which long turns the user unfolded. An answer that arrives after
 * the user moved on (another conversation selected, a newer load) is dropped.
 */
export class ConversationBrowser {
  readonly root: string;
  readonly agentId: string;
  #list = $state.raw<ConversationSummary[]>([]);
  #listState = $state<LoadState>('loading');
  #listError = $state<string | null>(null);
  #selectedId = $state<string | null>(null);
  #conversation = $state.raw<ConversationDTO | null>(null);
  #conversationState = $state<LoadState | null>(null);
  #conversationError = $state<string | null>(null);
  #query = $state('');
  /** Turns the user folded or unfolded by hand, by id (else: unfolded when the search finds them). */
  #unfolded = $state.raw<Readonly<Record<string, boolean>>>({});

  readonly #matches: ReadonlySet<string> | null = $derived(matchingTurnIds(this.#conversation?.turns ?? [], this.#query));
  readonly #visibleTurns: readonly Turn[] = $derived.by(() => {
    const turns = this.#conversation?.turns ?? [];
    const matches = this.#matches;
    return matches ? turns.filter((t) => matches.has(t.id)) : turns;
  });

  #gateway: Gateway;
  #listRequest = 0;
  #readRequest = 0;

  constructor(gateway: Gateway, root: string, agentId: string) {
    this.#gateway = gateway;
    this.root = root;
    this.agentId = agentId;
  }

  /** The agent's conversations, most recent first. */
  get list(): readonly ConversationSummary[] {
    return this.#list;
  }

  get listState(): LoadState {
    return this.#listState;
  }

  get listError(): string | null {
    return this.#listError;
  }

  get selectedId(): string | null {
    return this.#selectedId;
  }

  /** The selected conversation as read; `null` before (or when the read failed). */
  get conversation(): ConversationDTO | null {
    return this.#conversation;
  }

  /** `null` while nothing is selected. */
  get conversationState(): LoadState | null {
    return this.#conversationState;
  }

  get conversationError(): string | null {
    return this.#conversationError;
  }

  get query(): string {
    return this.#query;
  }

  /** Ids of the turns the search finds; `null` without a search. */
  get matches(): ReadonlySet<string> | null {
    return this.#matches;
  }

  /** The turns shown: all of them, or only those the search finds. */
  get visibleTurns(): readonly Turn[] {
    return this.#visibleTurns;
  }

  /**
   * Loads the list (again); keeps the selection when it is still listed, else selects the most
   * recent conversation, and reads it.
   */
  async load(): Promise<void> {
    const request = ++this.#listRequest;
    this.#listState = 'loading';
    this.#listError = null;
    try {
      const list = await this.#gateway.conversations.list(this.root, this.agentId);
      if (request !== this.#listRequest) return;
      this.#list = list;
      this.#listState = 'ready';
      const keep = list.find((c) => c.id === this.#selectedId)?.id;
      const next = keep ?? list[0]?.id ?? null;
      if (next) await this.select(next, { force: true });
      else this.#clearSelection();
    } catch (error) {
      if (request !== this.#listRequest) return;
      this.#listState = 'error';
      this.#listError = asGatewayError(error).message;
    }
  }

  /** Shows conversation `id` (read again with `force`, else only when another one was shown). */
  async select(id: string, options: { force?: boolean } = {}): Promise<void> {
    if (id === this.#selectedId && !options.force && this.#conversationState !== 'error') return;
    if (id !== this.#selectedId) this.#unfolded = {};
    this.#selectedId = id;
    const request = ++this.#readRequest;
    this.#conversationState = 'loading';
    this.#conversationError = null;
    try {
      const conversation = await this.#gateway.conversations.read(this.root, id);
      if (request !== this.#readRequest) return;
      this.#conversation = conversation;
      this.#conversationState = 'ready';
    } catch (error) {
      if (request !== this.#readRequest) return;
      this.#conversation = null;
      this.#conversationState = 'error';
      this.#conversationError = asGatewayError(error).message;
    }
  }

  /** A new search: the turns it finds show whole again, whatever was folded by hand. */
  setQuery(query: string): void {
    if (query.trim() !== this.#query.trim()) this.#unfolded = {};
    this.#query = query;
  }

  /** Whether a long turn shows its whole text: as the user set it, else when the search finds it. */
  isUnfolded(turnId: string): boolean {
    return this.#unfolded[turnId] ?? this.#matches?.has(turnId) ?? false;
  }

  toggleFold(turnId: string): void {
    this.#unfolded = { ...this.#unfolded, [turnId]: !this.isUnfolded(turnId) };
  }

  #clearSelection(): void {
    this.#readRequest++;
    this.#selectedId = null;
    this.#conversation = null;
    this.#conversationState = null;
    this.#conversationError = null;
  }
}
