import { ResumeOffer } from '../resume/resume.svelte';
import { graphEdges, mergeSnapshot } from '../../lib/domain/delegation-graph';
import { addEntry, foldTranscript, type HeadlessTurn } from '../../lib/domain/headless-transcript';
import { besideField } from '../../lib/domain/error-text';
import { activeRoot, findLeaf, leafWithSession, leaves } from '../../lib/domain/layout-tree';
import {
  asGatewayError,
  type AgentActivity,
  type AgentDTO,
  type AgentChange,
  type AgentInput,
  type AgentState,
  type DelegationDTO,
  type Gateway,
  type HeadlessEntry,
  type IpcMatrix,
  type LayoutDoc,
  type LayoutExtent,
  type LayoutNode,
  type LayoutOp,
  type LayoutPreset,
  type NamedLayoutOp,
  type ProjectDTO,
  type SendResult,
  type SessionDTO,
  type SwapResult,
} from '../../lib/ports';
import { EscalationQueue } from '../orchestration/escalations.svelte';
import { TabPermissions } from '../permissions/tab-permissions.svelte';
import { shortcutOf } from '../workbench/commands';

/** How long a delegation that ended stays visible (arrows, card) before it drops out. */
export const ENDED_DELEGATION_MS = 4000;

/** How a tab reports failed actions to the banner, and clears them after a success. */
export interface TabNotices {
  report(error: unknown, context: string, kind: 'layout' | 'agent' | 'terminal'): void;
  resolved(kind: 'layout' | 'agent' | 'terminal'): void;
  /**
   * Closing something ends these shells: ask when one runs a foreground process (issue 9).
   * `kill` (asked and confirmed), `keep` in the background, `cancel`, or `idle`: nothing
   * runs there, nothing was asked. Absent: never asks.
   */
  askAboutBusy?(sessionIds: string[], what: string): Promise<'kill' | 'keep' | 'cancel' | 'idle'>;
  /** Something the user did had an effect out of sight: says so (a toast). */
  tell?(message: string): void;
}

/**
 * Edits that hide what a cell showed as a side effect, keeping it running (a close asks or says
 * so itself; a redo may close a shell again, which its `killPending` toast says).
 */
const HIDING_OPS: ReadonlySet<LayoutOp['kind']> = new Set(['merge', 'preset', 'undo']);

/** What the tab knows of an agent's access matrix: read (`null` = none declared), or unreadable. */
export type IpcView = { state: 'ready'; matrix: IpcMatrix | null } | { state: 'error'; message: string };

/** A message shown inside a cell (launch failures, "already running elsewhere"). */
export interface CellNotice {
  message: string;
  /** For AGENT_ALREADY_RUNNING: the cell where the agent lives. */
  goToNodeId?: string;
}

/**
 * One open project = one tab: its DTO, the layout document, the project's sessions, and
 * per-cell UI state. The layout document is only ever the backend's: the answer of
 * `layout.edit`, `terminals.openShell`, `agents.launch`, or a `layoutChanged` push. The session
 * list starts from the DTO and follows the `session*` pushes; agents' running state follows
 * `agentStateChanged`, their activity, queue depth and what a blocked one is blocked on
 * `agentActivity`. Delegations (who asked whom) are kept by ticket from the `delegation` pushes
 * and `orchestration.graph` snapshots (when the tab opens, and when the graph dialog does);
 * ended ones drop out after a moment. The tab also holds its agents' questions to the user (`escalations`), their access
 * matrices as read or saved, and which agent's conversations the dialog shows.
 */
export class ProjectTab {
  readonly root: string;
  /** Questions of this project's agents waiting for the user's decision. */
  readonly escalations: EscalationQueue;
  /** The permissions editor shown, and the denials heard per agent. */
  readonly permissions = new TabPermissions();
  #name = $state('');
  #agents = $state.raw<AgentDTO[]>([]);
  #layouts = $state.raw<LayoutDoc | null>(null);
  #sessions = $state.raw<SessionDTO[]>([]);
  #focusedNodeId = $state<string | null>(null);
  #highlightedNodeId = $state<string | null>(null);
  #focusRequest = $state<string | null>(null);
  #cellNotices = $state.raw<Record<string, CellNotice>>({});
  #pendingLaunchAgentId = $state<string | null>(null);
  #sendTaskAgentId = $state<string | null>(null);
  #delegations = $state.raw<Record<string, DelegationDTO>>({});
  /** Something happened out of sight (an agent finished, waits…): the tab shows a dot. */
  #attention = $state(false);
  /** The agent whose conversations the dialog shows; `null` = closed. */
  #conversationsAgentId = $state<string | null>(null);
  /** Access matrices by agent id, as last read or saved. */
  #ipc = $state.raw<Readonly<Record<string, IpcView>>>({});
  /** Agents whose matrix was asked for already (not rendered). */
  #ipcAsked: Record<string, true> = {};
  /** Headless-turn activity by agent id (pushes, seeded with `orchestration.transcript`). */
  #headless = $state.raw<Readonly<Record<string, HeadlessEntry[]>>>({});

  readonly #layoutRoot: LayoutNode | null = $derived(activeRoot(this.#layouts));
  readonly #delegationList: DelegationDTO[] = $derived(Object.values(this.#delegations));
  readonly #graph: DelegationDTO[] = $derived(graphEdges(this.#delegationList));
  readonly #detachedSessions: SessionDTO[] = $derived.by(() => {
    const shown = leaves(this.#layoutRoot).map((l) => l.session);
    return this.#sessions.filter((s) => s.alive && !shown.includes(s.sessionId));
  });

  #gateway: Gateway;
  #notices: TabNotices;
  #highlightTimer: ReturnType<typeof setTimeout> | undefined;
  #endedTimers: ReturnType<typeof setTimeout>[] = [];
  /** The ticket of each agent's current (or last) turn, from `agentActivity` and `delegation`. */
  #turnTickets: Record<string, string> = {};
  /** Count of `delegation` pushes, and when (in that count) each ticket was last heard of. */
  #heard = 0;
  #heardAt: Record<string, number> = {};

  constructor(dto: ProjectDTO, gateway: Gateway, notices: TabNotices) {
    this.root = dto.root;
    this.#gateway = gateway;
    this.escalations = new EscalationQueue(gateway, dto.root);
    this.#notices = notices;
    this.refresh(dto);
    void this.escalations.load();
    for (const agent of this.#agents) void this.loadTranscript(agent.agentId);
    // Who works for whom from before this window (a reopened project): the arrows and cards
    // start from the backend's graph; a failed read leaves them to the pushes.
    this.loadGraph().catch(() => undefined);
    // Agents that were running when IdeA last stopped: the resume panel (issue 10 item 7).
    this.resume = new ResumeOffer(gateway, dto.root, (layouts) => this.applyLayouts(layouts));
    void this.resume.load();
  }

  /** The resume panel of this tab. */
  readonly resume: ResumeOffer;

  get name(): string {
    return this.#name;
  }

  get agents(): readonly AgentDTO[] {
    return this.#agents;
  }

  /** The whole `layouts.json` document as the backend last sent it; `null` when unreadable. */
  get layouts(): LayoutDoc | null {
    return this.#layouts;
  }

  /** Every session of the project the backend holds (running, or ended but shown in a cell). */
  get sessions(): readonly SessionDTO[] {
    return this.#sessions;
  }

  /** Live sessions no leaf of the active layout shows: an empty cell offers to show them. */
  get detachedSessions(): readonly SessionDTO[] {
    return this.#detachedSessions;
  }

  /** Root node of the active layout. */
  get layoutRoot(): LayoutNode | null {
    return this.#layoutRoot;
  }

  /** The cell keyboard actions apply to (outlined). */
  get focusedNodeId(): string | null {
    return this.#focusedNodeId;
  }

  /** The cell "Go to cell" is pointing at, for a moment. */
  get highlightedNodeId(): string | null {
    return this.#highlightedNodeId;
  }

  /**
   * Cell whose content should take the keyboard focus once rendered: its terminal after "Open
   * shell"/"Launch agent", the new empty cell after a split. The cell calls `focusRequestDone`.
   */
  get focusRequest(): string | null {
    return this.#focusRequest;
  }

  /** Messages shown inside cells, by node id. */
  get cellNotices(): Readonly<Record<string, CellNotice>> {
    return this.#cellNotices;
  }

  /** Agent waiting for the user to click the cell it should launch in. */
  get pendingLaunchAgentId(): string | null {
    return this.#pendingLaunchAgentId;
  }

  /** Delegations under way (and those that ended a moment ago), oldest first. */
  get delegations(): readonly DelegationDTO[] {
    return this.#delegationList;
  }

  /** The wait-for graph: delegations queued or running (who waits on whom), running ones first. */
  get graph(): readonly DelegationDTO[] {
    return this.#graph;
  }

  /** The tab has news the user has not seen (cleared when the tab is shown). */
  get attention(): boolean {
    return this.#attention;
  }

  /** The agent whose conversations are shown (from its card or its cell's ⋯ menu); `null` = none. */
  get conversationsAgentId(): string | null {
    return this.#conversationsAgentId;
  }

  /** The agent's access matrix as last read or saved; `undefined` before the first read. */
  ipcOf(agentId: string): IpcView | undefined {
    return this.#ipc[agentId];
  }

  /** Reads every listed agent's matrix not asked for yet (the cards' summaries); errors are kept per agent. */
  ensureIpc(): void {
    for (const { agentId } of this.#agents) {
      if (this.#ipcAsked[agentId]) continue;
      this.#ipcAsked[agentId] = true;
      this.loadIpc(agentId).catch(() => undefined);
    }
  }

  /**
   * The backend found a problem with `file` (absolute), or that it is gone: when the file is an
   * agent's persona (written on disk or by IdeA), its card's matrix is read again, so the card
   * says "access matrix unreadable" (or its summary again) without waiting for a reopen.
   */
  fileProblemChanged(file: string): void {
    const path = file.replace(/\\/g, '/');
    const agent = this.#agents.find((a) => this.#ipcAsked[a.agentId] && path.endsWith(`/.ideai/${a.mdPath.replace(/\\/g, '/').replace(/^\.\//, '')}`));
    if (agent) this.loadIpc(agent.agentId).catch(() => undefined);
  }

  /** Reads the agent's matrix (`agents.ipc`) and keeps it; rejects like the gateway (kept as unreadable). */
  async loadIpc(agentId: string): Promise<IpcMatrix | null> {
    this.#ipcAsked[agentId] = true;
    try {
      const matrix = await this.#gateway.agents.ipc(this.root, agentId);
      this.#ipc = { ...this.#ipc, [agentId]: { state: 'ready', matrix } };
      return matrix;
    } catch (error) {
      this.#ipc = { ...this.#ipc, [agentId]: { state: 'error', message: asGatewayError(error).message } };
      throw error;
    }
  }

  /** Writes (or with `null` removes) the agent's matrix; keeps what the backend stored. */
  async setIpc(agentId: string, matrix: IpcMatrix | null): Promise<IpcMatrix | null> {
    const stored = await this.#gateway.agents.setIpc(this.root, agentId, matrix);
    this.#ipc = { ...this.#ipc, [agentId]: { state: 'ready', matrix: stored } };
    return stored;
  }

  openConversations(agentId: string): void {
    this.#conversationsAgentId = agentId;
  }

  /** The agent a "Send a task…" opened from the palette is for (the window shows the dialog). */
  get sendTaskAgentId(): string | null {
    return this.#sendTaskAgentId;
  }

  openSendTask(agentId: string): void {
    this.#sendTaskAgentId = agentId;
  }

  closeSendTask(): void {
    this.#sendTaskAgentId = null;
  }

  closeConversations(): void {
    this.#conversationsAgentId = null;
  }

  /** `agents.json` changed on disk: the agents as the backend lists them now. */
  async reloadAgents(): Promise<void> {
    try {
      this.#agents = await this.#gateway.agents.list(this.root);
    } catch {
      // The project closed meanwhile, or the file is unreadable (its problem says so).
    }
  }

  refresh(dto: ProjectDTO): void {
    this.#name = dto.name;
    this.#agents = dto.agents ?? [];
    this.#layouts = dto.layouts;
    this.#sessions = dto.sessions ?? [];
  }

  /** Session ids shown in a cell of any of the project's layouts. */
  #shownSessions(): readonly string[] {
    const all = (this.#layouts?.layouts ?? []).flatMap((layout) => leaves(layout.tree.root).map((leaf) => leaf.session));
    return all.filter((session): session is string => Boolean(session));
  }

  /**
   * A merge, a preset or an undo hid running sessions (`before`: those shown until then): they
   * run on in the background, and the user is told how to get them back (a trial merged a
   * cell running `sleep 300` and saw it vanish without a word).
   */
  #sayHidden(before: readonly string[]): void {
    const shown = this.#shownSessions();
    const hidden = this.#sessions.filter((s) => s.alive && before.includes(s.sessionId) && !shown.includes(s.sessionId));
    if (hidden.length === 0) return;
    const names = hidden.map((s) => s.title).join(', ');
    const verb = hidden.length === 1 ? 'runs' : 'run';
    this.#notices.tell?.(`${names} ${verb} on in the background: undo (${shortcutOf('undo')}) or "Show ${hidden[0].title}" in an empty cell brings it back`);
  }

  /** Takes a layout document from the backend (an edit's answer or a `layoutChanged` push). */
  applyLayouts(doc: LayoutDoc): void {
    this.#layouts = doc;
    if (this.#focusedNodeId && !findLeaf(this.#layoutRoot, this.#focusedNodeId)) {
      this.#focusedNodeId = leaves(this.#layoutRoot)[0]?.id ?? null;
    }
    if (this.#focusRequest && !findLeaf(this.#layoutRoot, this.#focusRequest)) this.#focusRequest = null;
  }

  /** The user clicked into or tabbed into a cell. */
  focusCell(nodeId: string): void {
    this.#focusedNodeId = nodeId;
  }

  /** The cell moved the keyboard focus as `focusRequest` asked. */
  focusRequestDone(nodeId: string): void {
    if (this.#focusRequest === nodeId) this.#focusRequest = null;
  }

  /** "Launch in cell…": the next cell clicked launches `agentId`; asking again cancels. */
  toggleLaunchInCell(agentId: string): void {
    this.#pendingLaunchAgentId = this.#pendingLaunchAgentId === agentId ? null : agentId;
  }

  cancelLaunchInCell(): void {
    this.#pendingLaunchAgentId = null;
  }

  /** Applies one layout op; returns false (and reports) when the backend refused it. */
  async editLayout(op: LayoutOp): Promise<boolean> {
    try {
      const before = this.#shownSessions();
      this.applyLayouts(await this.#gateway.layout.edit(this.root, op));
      this.#notices.resolved('layout');
      if (HIDING_OPS.has(op.kind)) this.#sayHidden(before);
      return true;
    } catch (error) {
      this.#notices.report(error, `Layout ${op.kind} failed`, 'layout');
      return false;
    }
  }

  /**
   * Splits a cell; the new empty cell (after it) becomes the focused one, as in VS Code.
   * Returns the new cell's id, or null when the backend refused.
   */
  async splitCell(nodeId: string, direction: 'row' | 'column'): Promise<string | null> {
    const before = leaves(this.#layoutRoot).map((l) => l.id);
    const op: LayoutOp = this.#extent ? { kind: 'split', nodeId, direction, extent: this.#extent } : { kind: 'split', nodeId, direction };
    if (!(await this.editLayout(op))) return null;
    const added = leaves(this.#layoutRoot).find((l) => !before.includes(l.id))?.id ?? null;
    if (added) this.requestFocus(added);
    return added;
  }

  // --- grid, presets and named layouts (issue 9 items 4–5) ---
  #extent: LayoutExtent | null = null;

  /**
   * The layout area in terminal character cells, as `ProjectLayout` measures it (null when it
   * has no size, e.g. hidden). Sent with the edits that can shrink cells, so the backend can
   * refuse one that would leave a cell under its minimum size.
   */
  setLayoutExtent(extent: LayoutExtent | null): void {
    this.#extent = extent;
  }

  #sized<T extends object>(op: T): T & { extent?: LayoutExtent } {
    return this.#extent ? { ...op, extent: this.#extent } : op;
  }

  /** The project's named layouts (id, name) in document order, and which one is shown. */
  get namedLayouts(): { id: string; name: string; active: boolean }[] {
    const doc = this.#layouts;
    if (!doc) return [];
    const activeId = doc.layouts.some((l) => l.id === doc.activeId) ? doc.activeId : doc.layouts[0]?.id;
    return doc.layouts.map((l) => ({ id: l.id, name: l.name, active: l.id === activeId }));
  }

  /** Merges neighbouring cells into one (the first that shows something stays shown). */
  mergeCells(nodeIds: string[]): Promise<boolean> {
    return this.editLayout({ kind: 'merge', nodeIds });
  }

  /** Splits a merged grid cell back into one cell per track it spans. */
  unmergeCell(nodeId: string): Promise<boolean> {
    return this.editLayout(this.#sized({ kind: 'unmerge' as const, nodeId }));
  }

  /** Rearranges the active layout as a preset grid, keeping what the cells show. */
  applyPreset(preset: LayoutPreset): Promise<boolean> {
    return this.editLayout(this.#sized({ kind: 'preset' as const, preset }));
  }

  /** Equal weights in every split and grid of the active layout. */
  balanceLayout(): Promise<boolean> {
    return this.editLayout(this.#sized({ kind: 'balance' as const }));
  }

  /**
   * Applies a named-layout op (create, rename, duplicate, delete, switch). Resolves with null,
   * or with the backend's message when it refused (a dialog shows it next to the name field,
   * without the field's path: `besideField`).
   */
  async editNamedLayout(op: NamedLayoutOp): Promise<string | null> {
    try {
      this.applyLayouts(await this.#gateway.layout.edit(this.root, op));
      this.#notices.resolved('layout');
      // The resume panel offers the agents of the layout shown (a trial switched to the one
      // its agents ran in and was offered nothing).
      if (op.kind === 'switchLayout') void this.resume.load();
      return null;
    } catch (error) {
      return besideField(asGatewayError(error));
    }
  }
  // --- end grid, presets and named layouts ---

  /** Marks `nodeId` focused and asks its view to move the keyboard focus into it. */
  requestFocus(nodeId: string): void {
    this.#focusedNodeId = nodeId;
    this.#focusRequest = nodeId;
  }

  /**
   * The keyboard goes back to the focused cell (`targetNodeId`: its terminal, or an empty
   * cell's first action) through `requestFocus`: after whatever took it away or removed what
   * held it — a dialog or the palette closing, a cell closed, an undo, a tab shown (a trial
   * found the cell still outlined while typing went to <body>). A hidden tab's cell takes it
   * once the tab is shown.
   */
  returnFocus(): void {
    const nodeId = this.targetNodeId();
    if (nodeId) this.requestFocus(nodeId);
  }

  /** Undo / redo of the layout (keyboard, palette, cell menu); the keyboard stays in the grid. */
  async undoLayout(kind: 'undo' | 'redo'): Promise<void> {
    await this.editLayout({ kind });
    this.returnFocus();
  }

  /**
   * Closes a cell. The backend decides what happens to its session (`layout.edit`): an agent
   * session detaches to the background, a plain shell is killed once the close grace has
   * passed unless undo brings it back (`killPending` says so) — after asking, when the shell
   * runs a foreground process: kill (at once: `kill: true`) / keep in background (detached
   * first) / cancel.
   */
  async closeCell(nodeId: string): Promise<void> {
    const session = findLeaf(this.#layoutRoot, nodeId)?.session;
    const shell = session ? this.#sessions.find((s) => s.sessionId === session && s.kind === 'shell' && s.alive) : undefined;
    let choice: 'kill' | 'keep' | 'cancel' | 'idle' = 'idle';
    if (shell && this.#notices.askAboutBusy) {
      choice = await this.#notices.askAboutBusy([shell.sessionId], 'this cell');
    }
    // One close, one undo step: Ctrl+Z after "Keep in background" brings the cell back with
    // its shell (closing after a detach of its own made the undo bring back an empty cell).
    if (choice === 'kill') await this.editLayout({ kind: 'close', nodeId, kill: true });
    else if (choice === 'keep') await this.editLayout({ kind: 'close', nodeId, keep: true });
    else if (choice === 'idle') await this.editLayout({ kind: 'close', nodeId });
    // The closed cell (or the question, cancelled) had the keyboard: the focused cell takes it.
    this.returnFocus();
  }

  /**
   * "Detach from cell": the cell becomes empty. The backend detaches (never kills) whatever ran
   * there; the session can be shown again in an empty cell. The keyboard goes back to the
   * focused cell (the menu item that ran went away with the menu).
   */
  async detachCell(nodeId: string): Promise<void> {
    await this.editLayout({ kind: 'assign', nodeId });
    this.returnFocus();
  }

  /** "Kill process": ends the session; the backend then pushes `sessionExited`. */
  async killSession(sessionId: string): Promise<void> {
    try {
      await this.#gateway.terminals.kill(sessionId);
    } catch (error) {
      this.#notices.report(error, 'Kill failed', 'terminal');
    }
  }

  /** The cell keyboard shortcuts act on: the focused one, else the first. */
  targetNodeId(): string | null {
    if (this.#focusedNodeId && findLeaf(this.#layoutRoot, this.#focusedNodeId)) return this.#focusedNodeId;
    return leaves(this.#layoutRoot)[0]?.id ?? null;
  }

  /** Starts a shell in the cell; the backend puts it there and answers with the layouts. */
  async openShell(nodeId: string, cols: number, rows: number): Promise<void> {
    this.clearNotice(nodeId);
    try {
      const { layouts } = await this.#gateway.terminals.openShell(this.root, nodeId, cols, rows);
      this.applyLayouts(layouts);
      this.requestFocus(nodeId);
    } catch (error) {
      this.#cellFailure(nodeId, error, 'Could not open a shell');
    }
  }

  /**
   * Starts the agent in the cell, or re-attaches its running session there. The backend writes
   * `session`, `agent` and `agentWasRunning` into the leaf and answers with the layouts; no
   * `assign` follows (a stale one would erase `agentWasRunning`).
   */
  async launchAgent(agentId: string, nodeId: string, cols: number, rows: number): Promise<void> {
    this.clearNotice(nodeId);
    this.#pendingLaunchAgentId = null;
    try {
      const { layouts } = await this.#gateway.agents.launch(this.root, agentId, nodeId, cols, rows);
      this.applyLayouts(layouts);
      this.requestFocus(nodeId);
    } catch (error) {
      this.#cellFailure(nodeId, error, 'Launch failed');
    }
  }

  /**
   * Shows a detached session in an empty cell: a shell is assigned to it; an agent goes
   * through `agents.launch`, which re-attaches it. The terminal repaints from the scrollback.
   */
  async showSession(nodeId: string, session: SessionDTO, cols: number, rows: number): Promise<void> {
    if (session.kind === 'agent' && session.agentId) {
      await this.launchAgent(session.agentId, nodeId, cols, rows);
      return;
    }
    if (await this.editLayout({ kind: 'assign', nodeId, session: session.sessionId })) this.requestFocus(nodeId);
  }

  // -- workbench: the sessions panel ----------------------------------------------------------

  /**
   * Shows a live session in cell `nodeId` (`layout.showSession`): moved there when another cell
   * showed it; what the cell showed keeps running, detached. Returns false (and reports) when
   * the backend refused.
   */
  async showSessionIn(sessionId: string, nodeId: string): Promise<boolean> {
    try {
      this.applyLayouts(await this.#gateway.layout.showSession(this.root, sessionId, nodeId));
      this.#notices.resolved('layout');
      this.requestFocus(nodeId);
      return true;
    } catch (error) {
      this.#notices.report(error, 'Could not show the session there', 'layout');
      return false;
    }
  }

  /** The cell of the active layout showing `sessionId`, if any. */
  cellOfSession(sessionId: string): string | null {
    return leafWithSession(this.#layoutRoot, sessionId)?.id ?? null;
  }

  /** `sessionStarted`: the project has a new session (or news of a known one). */
  sessionStarted(session: SessionDTO): void {
    const known = this.#sessions.some((s) => s.sessionId === session.sessionId);
    this.#sessions = known
      ? this.#sessions.map((s) => (s.sessionId === session.sessionId ? session : s))
      : [...this.#sessions, session];
  }

  /** `sessionExited`: the session's process ended. */
  sessionExited(sessionId: string, exitCode: number | null): void {
    if (!this.#sessions.some((s) => s.sessionId === sessionId)) return;
    this.#sessions = this.#sessions.map((s) => (s.sessionId === sessionId ? { ...s, alive: false, exitCode } : s));
  }

  /**
   * The exit code of `agentId`'s last session when that session failed on its own (1–127; 128
   * and above is a signal, such as the user's Stop) and is still held (in a cell or detached);
   * else null. The card says so: a CLI that quits at once otherwise reads "stopped", like an
   * agent never launched.
   */
  failedExit(agentId: string): number | null {
    const last = this.#sessions.filter((s) => s.agentId === agentId).at(-1);
    if (!last || last.alive) return null;
    const code = last.exitCode;
    return code !== null && code >= 1 && code <= 127 ? code : null;
  }

  /** `sessionReleased`: the backend forgot the session; so does the tab. */
  sessionReleased(sessionId: string): void {
    if (!this.#sessions.some((s) => s.sessionId === sessionId)) return;
    this.#sessions = this.#sessions.filter((s) => s.sessionId !== sessionId);
  }

  /** `agentStateChanged`: the agent runs (in `sessionId`) or stopped, as the backend says. */
  agentStateChanged(agentId: string, state: AgentState, sessionId?: string): void {
    if (!this.#agents.some((a) => a.agentId === agentId)) return;
    this.#agents = this.#agents.map((a) => {
      if (a.agentId !== agentId) return a;
      const next: AgentDTO = { ...a, running: state === 'running', sessionId };
      if (sessionId === undefined) delete next.sessionId;
      return next;
    });
    if (state === 'running') this.resume.agentRunning(agentId);
  }

  /**
   * `agentActivity`: the agent's activity and queue depth as the backend says, and while it is
   * `blocked` what on (dropped with any other activity). Returns its previous activity
   * (`undefined` for an agent the tab does not list).
   */
  agentActivity(
    agentId: string,
    activity: AgentActivity,
    queueDepth: number,
    blockedOn?: string | null,
    ticket?: string,
  ): AgentActivity | undefined {
    const previous = this.#agents.find((a) => a.agentId === agentId);
    if (!previous) return undefined;
    if (ticket) this.#turnTickets[agentId] = ticket;
    this.#agents = this.#agents.map((a) => {
      if (a.agentId !== agentId) return a;
      const next: AgentDTO = { ...a, activity, queueDepth };
      if (activity === 'blocked' && blockedOn) next.blockedOn = blockedOn;
      else delete next.blockedOn;
      return next;
    });
    return previous.activity;
  }

  /** `delegation`: a ticket was queued, started or ended; an ended one drops out a moment later. */
  delegationChanged(delegation: DelegationDTO): void {
    this.#heardAt[delegation.ticket] = ++this.#heard;
    if (delegation.state === 'active') this.#turnTickets[delegation.to] = delegation.ticket;
    this.#delegations = { ...this.#delegations, [delegation.ticket]: delegation };
    if (delegation.state !== 'done' && delegation.state !== 'failed') return;
    const timer = setTimeout(() => {
      this.#endedTimers = this.#endedTimers.filter((t) => t !== timer);
      if (this.#delegations[delegation.ticket]?.state !== delegation.state) return;
      const next = { ...this.#delegations };
      delete next[delegation.ticket];
      this.#delegations = next;
    }, ENDED_DELEGATION_MS);
    this.#endedTimers.push(timer);
  }

  /**
   * Seeds the graph from `orchestration.graph` (delegations from before this window, or pushes
   * it missed); what a push said while the call was under way wins. Rejects like the gateway.
   */
  async loadGraph(): Promise<void> {
    const since = this.#heard;
    const snapshot = await this.#gateway.orchestration.graph(this.root);
    this.#delegations = mergeSnapshot(this.#delegations, snapshot, (ticket) => (this.#heardAt[ticket] ?? 0) > since);
  }

  /** The agent's headless turns (no terminal, a structured profile), oldest first. */
  headlessTurns(agentId: string): HeadlessTurn[] {
    return foldTranscript(this.#headless[agentId] ?? []);
  }

  /** `headlessActivity` push. */
  headlessActivity(entry: HeadlessEntry): void {
    this.#headless = { ...this.#headless, [entry.agentId]: addEntry(this.#headless[entry.agentId] ?? [], entry) };
  }

  /** Seeds an agent's headless activity from the backend (a failed read leaves the pushes to it). */
  async loadTranscript(agentId: string): Promise<void> {
    try {
      const entries = await this.#gateway.orchestration.transcript(this.root, agentId);
      let merged = this.#headless[agentId] ?? [];
      for (const entry of entries) merged = addEntry(merged, entry);
      if (merged.length > 0) this.#headless = { ...this.#headless, [agentId]: merged };
    } catch {
      // the pushes go on
    }
  }

  delegation(ticket: string): DelegationDTO | undefined {
    return this.#delegations[ticket];
  }

  /** Who asked for the agent's current (or just ended) turn: an agent id, `'user'`, or unknown. */
  turnRequester(agentId: string): string | undefined {
    const ticket = this.#turnTickets[agentId];
    return ticket === undefined ? undefined : this.#delegations[ticket]?.from;
  }

  /** The user's message into each target's mailbox; one result per target (errors included). */
  async sendTask(targets: string[], text: string): Promise<SendResult[]> {
    return this.#gateway.orchestration.send(this.root, targets, text);
  }

  markAttention(): void {
    this.#attention = true;
  }

  clearAttention(): void {
    this.#attention = false;
  }

  /** The cell of the active layout that shows the agent's session, if any. */
  cellOfAgent(agentId: string): string | null {
    const sessionId = this.#agents.find((a) => a.agentId === agentId)?.sessionId;
    return sessionId ? (leafWithSession(this.#layoutRoot, sessionId)?.id ?? null) : null;
  }

  /** A name for one side of a delegation: the agent's name, or "you" for the user. */
  participantName(id: string): string {
    return id === 'user' ? 'you' : (this.agentName(id) ?? id);
  }

  /** The tab closes: its pending timers go. */
  dispose(): void {
    clearTimeout(this.#highlightTimer);
    for (const timer of this.#endedTimers) clearTimeout(timer);
    this.#endedTimers = [];
  }

  async createAgent(input: AgentInput): Promise<AgentDTO> {
    const agent = await this.#gateway.agents.create(this.root, input);
    this.#agents = [...this.#agents, agent];
    // A new persona may open with front matter of its own.
    this.loadIpc(agent.agentId).catch(() => undefined);
    return agent;
  }

  async updateAgent(agentId: string, input: AgentChange): Promise<AgentDTO> {
    const agent = await this.#gateway.agents.update(this.root, agentId, input);
    this.#agents = this.#agents.map((a) => (a.agentId === agentId ? agent : a));
    // The persona's front matter holds the matrix: an edited persona may have changed it.
    if (input.persona !== undefined) this.loadIpc(agentId).catch(() => undefined);
    return agent;
  }

  // -- hot swap of profiles (issue 10 item 6) --
  /**
   * Swaps the agent to `profileId` (`agents.swapProfile`): a live terminal stops and the agent
   * relaunches in the same cell, whose layouts the answer carries; the card shows the new
   * profile at once. Rejects like the gateway: nothing changed, unless `details.swapped` says
   * the profile did change and only the relaunch failed (the card then shows the new profile).
   */
  async swapProfile(agentId: string, profileId: string): Promise<SwapResult> {
    let result: SwapResult;
    try {
      result = await this.#gateway.agents.swapProfile(this.root, agentId, profileId);
    } catch (error) {
      // Swapped, but the relaunch failed (`details.swapped`): the card shows the new profile.
      const { details } = asGatewayError(error);
      const now = details.profileId;
      if (details.swapped === true && typeof now === 'string') {
        this.#agents = this.#agents.map((a) => (a.agentId === agentId ? { ...a, profileId: now } : a));
      }
      throw error;
    }
    this.#agents = this.#agents.map((a) => (a.agentId === agentId ? { ...a, ...result.agent } : a));
    if (result.layouts) this.applyLayouts(result.layouts);
    if (result.nodeId) {
      this.clearNotice(result.nodeId);
      this.requestFocus(result.nodeId);
    }
    return result;
  }

  async deleteAgent(agentId: string): Promise<void> {
    await this.#gateway.agents.delete(this.root, agentId);
    this.#agents = this.#agents.filter((a) => a.agentId !== agentId);
    if (this.#conversationsAgentId === agentId) this.#conversationsAgentId = null;
  }

  /** Focuses and briefly highlights a cell (the "Go to cell" button). */
  goToCell(nodeId: string): void {
    this.#focusedNodeId = nodeId;
    this.#highlightedNodeId = nodeId;
    clearTimeout(this.#highlightTimer);
    this.#highlightTimer = setTimeout(() => {
      if (this.#highlightedNodeId === nodeId) this.#highlightedNodeId = null;
    }, 1600);
  }

  clearNotice(nodeId: string): void {
    if (!(nodeId in this.#cellNotices)) return;
    const next = { ...this.#cellNotices };
    delete next[nodeId];
    this.#cellNotices = next;
  }

  agentName(agentId: string | undefined): string | null {
    if (!agentId) return null;
    return this.#agents.find((a) => a.agentId === agentId)?.name ?? null;
  }

  #cellFailure(nodeId: string, error: unknown, context: string): void {
    const failure = asGatewayError(error);
    if (failure.code === 'AGENT_ALREADY_RUNNING') {
      const where = typeof failure.details.nodeId === 'string' ? failure.details.nodeId : undefined;
      this.#cellNotices = {
        ...this.#cellNotices,
        [nodeId]: { message: failure.message || 'This agent is already running in another cell.', goToNodeId: where },
      };
      return;
    }
    this.#cellNotices = { ...this.#cellNotices, [nodeId]: { message: `${context}: ${failure.message}` } };
  }
}
