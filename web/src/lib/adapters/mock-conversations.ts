import { GatewayError, type ConversationDTO, type ConversationSummary, type Turn, type TurnSource } from '../ports';

/**
 * The mock backend's pair conversations (docs/contracts.md §8.1): one log per pair of parties
 * (agent ids, or `'user'`), A↔B and B↔A being one conversation. The real pair id is the XOR of
 * the parties' UUIDs; the mock's is `c-<ids sorted>`. The handoff is a simplified fold in the
 * original's format (objective, then the recent turns as bullets), enough for the demo.
 */

/** The user as a party. */
export const USER_PARTY = 'user';

/** How many recent turns the mock's handoff keeps. */
const HANDOFF_TURNS = 10;

/** A turn given to `seed`: only what it says is required. */
export interface MockTurnSeed {
  source: TurnSource;
  role: Turn['role'];
  text: string;
  atMs?: number;
  id?: string;
}

/** A conversation put into the backend as if logged earlier. */
export interface MockConversationSeed {
  root: string;
  /** The two parties: agent ids, or `'user'`. */
  parties: [string, string];
  id?: string;
  turns?: MockTurnSeed[];
  /** `handoff.md` as on disk; default: folded from the turns (none without turns). */
  handoff?: string | null;
}

interface MockConversation {
  id: string;
  root: string;
  parties: [string, string];
  turns: Turn[];
  handoff: string | null;
}

export class MockConversations {
  #byId = new Map<string, MockConversation>();
  #clock: () => number;
  #nextTurn = 1;
  /** Last time stamped: turns logged within one millisecond still get distinct, ordered times. */
  #lastAtMs = 0;

  constructor(clock: () => number = Date.now) {
    this.#clock = clock;
  }

  /** The id of the conversation between two parties (either order). */
  static pairId(a: string, b: string): string {
    return `c-${[a, b].sort().join('-')}`;
  }

  seed(seed: MockConversationSeed): string {
    const id = seed.id ?? MockConversations.pairId(...seed.parties);
    const conversation: MockConversation = { id, root: seed.root, parties: seed.parties, turns: [], handoff: null };
    for (const turn of seed.turns ?? []) conversation.turns.push(this.#turn(id, turn));
    conversation.handoff = seed.handoff !== undefined ? seed.handoff : fold(conversation.turns);
    this.#byId.set(id, conversation);
    return id;
  }

  /** Logs one turn between `from` and `to` (the speaker is `from`); returns it. */
  append(root: string, from: string, to: string, role: Turn['role'], text: string): Turn {
    const id = MockConversations.pairId(from, to);
    let conversation = this.#byId.get(id);
    if (!conversation) {
      conversation = { id, root, parties: [from, to], turns: [], handoff: null };
      this.#byId.set(id, conversation);
    }
    const source: TurnSource = from === USER_PARTY ? { kind: 'human' } : { kind: 'agent', agentId: from };
    const turn = this.#turn(id, { source, role, text });
    conversation.turns.push(turn);
    conversation.handoff = fold(conversation.turns);
    return turn;
  }

  /** `conversations.list`: the agent's conversations in `root`, most recent first. */
  list(root: string, agentId: string): ConversationSummary[] {
    return [...this.#byId.values()]
      .filter((c) => c.root === root && c.parties.includes(agentId))
      .map((c): ConversationSummary => {
        const other = c.parties[0] === agentId ? c.parties[1] : c.parties[0];
        return { id: c.id, peer: other === USER_PARTY ? null : other, turns: c.turns.length, lastAtMs: c.turns.at(-1)?.atMs ?? 0 };
      })
      .sort((a, b) => b.lastAtMs - a.lastAtMs);
  }

  /** `conversations.read`; `NOT_FOUND` for an id unknown in `root`. */
  read(root: string, conversationId: string): ConversationDTO {
    const conversation = this.#byId.get(conversationId);
    if (!conversation || conversation.root !== root) throw new GatewayError('NOT_FOUND', `no conversation ${conversationId}`);
    return { turns: conversation.turns, handoff: conversation.handoff };
  }

  #turn(conversation: string, seed: MockTurnSeed): Turn {
    const n = this.#nextTurn++;
    let atMs = seed.atMs;
    if (atMs === undefined) {
      atMs = Math.max(this.#clock(), this.#lastAtMs + 1);
      this.#lastAtMs = atMs;
    }
    return { id: seed.id ?? `turn-${n}`, conversation, atMs, source: seed.source, role: seed.role, text: seed.text };
  }
}

/** The original's handoff shape: front matter, the objective (first prompt), recent turns. */
function fold(turns: readonly Turn[]): string | null {
  if (turns.length === 0) return null;
  const objective = oneLine(turns.find((t) => t.role === 'prompt')?.text ?? turns[0].text);
  const recent = turns.slice(-HANDOFF_TURNS).map((t) => `- **${t.role === 'prompt' ? 'Prompt' : 'Response'}:** ${oneLine(t.text)}`);
  return `---\nupTo: ${turns.at(-1)!.id}\nobjective: ${objective}\n---\n**Objective:** ${objective}\n\n${recent.join('\n')}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
