import { asGatewayError, type Gateway, type LayoutDoc, type ResumableAgent, type ResumeChoice } from '../../lib/ports';

/** Size an agent is relaunched at from the panel (its cell fits it when shown). */
export const RESUME_SIZE = { cols: 120, rows: 32 } as const;

/** One line of the panel: the agent, and what became of it (`working` while its answer runs). */
export interface ResumeRow {
  agent: ResumableAgent;
  state: 'pending' | 'working' | 'resumed' | 'fresh' | 'ignored' | 'failed';
  message: string | null;
}

/**
 * The resume panel of one project tab (issue 10 item 7): on opening the project it asks
 * `resume.pending` which agents were running in a cell when IdeA last stopped; each row answers
 * Resume (its own cell, its own CLI id), New conversation (fresh, handoff injected) or Ignore;
 * Resume all / Ignore all answer every pending row, one after the other. Each answer's layouts
 * go to `apply` (the tab's layout). The panel closes when no row is pending and the user
 * dismissed it (or every row was ignored).
 */
export class ResumeOffer {
  #rows = $state.raw<ResumeRow[]>([]);
  #open = $state(false);
  #error = $state<string | null>(null);
  #gateway: Gateway;
  #root: string;
  #apply: (layouts: LayoutDoc) => void;

  constructor(gateway: Gateway, root: string, apply: (layouts: LayoutDoc) => void) {
    this.#gateway = gateway;
    this.#root = root;
    this.#apply = apply;
  }

  get rows(): readonly ResumeRow[] {
    return this.#rows;
  }

  get open(): boolean {
    return this.#open;
  }

  get error(): string | null {
    return this.#error;
  }

  get pendingCount(): number {
    return this.#rows.filter((r) => r.state === 'pending').length;
  }

  get busy(): boolean {
    return this.#rows.some((r) => r.state === 'working');
  }

  async load(): Promise<void> {
    try {
      const found = await this.#gateway.resume.pending(this.#root);
      this.#rows = found.map((agent) => ({ agent, state: 'pending', message: null }));
      this.#open = found.length > 0;
    } catch (error) {
      this.#error = `Could not list the agents to resume: ${asGatewayError(error).message}`;
      this.#open = false;
    }
  }

  async answer(nodeId: string, choice: ResumeChoice): Promise<void> {
    const row = this.#rows.find((r) => r.agent.nodeId === nodeId);
    if (!row || row.state !== 'pending') return;
    this.#set(nodeId, { state: 'working', message: null });
    try {
      const out = await this.#gateway.resume.answer(this.#root, nodeId, choice, RESUME_SIZE.cols, RESUME_SIZE.rows);
      this.#apply(out.layouts);
      if (choice === 'ignore') this.#set(nodeId, { state: 'ignored', message: 'ignored' });
      else if (out.resumed) this.#set(nodeId, { state: 'resumed', message: `resumed session ${out.agent.resumeId ?? ''}`.trim() });
      else
        this.#set(nodeId, {
          state: 'fresh',
          message: choice === 'new' ? 'new conversation (handoff injected)' : out.agent.note,
        });
    } catch (error) {
      this.#set(nodeId, { state: 'failed', message: asGatewayError(error).message });
    }
    if (this.#rows.every((r) => r.state === 'ignored')) this.#open = false;
  }

  /** Resume all / Ignore all: every pending row, in order. */
  async answerAll(choice: 'resume' | 'ignore'): Promise<void> {
    for (const row of this.#rows.filter((r) => r.state === 'pending')) await this.answer(row.agent.nodeId, choice);
  }

  dismiss(): void {
    this.#open = false;
  }

  /**
   * The agent runs now, launched another way (its cell's Relaunch, a card): a row that failed
   * no longer shows that error (a trial found the panel still saying "not launched").
   */
  agentRunning(agentId: string): void {
    if (!this.#rows.some((r) => r.agent.agentId === agentId && r.state === 'failed')) return;
    this.#rows = this.#rows.map((r) =>
      r.agent.agentId === agentId && r.state === 'failed' ? { ...r, state: 'fresh', message: 'running now (launched another way)' } : r,
    );
  }

  #set(nodeId: string, change: Partial<ResumeRow>): void {
    this.#rows = this.#rows.map((r) => (r.agent.nodeId === nodeId ? { ...r, ...change } : r));
  }
}
